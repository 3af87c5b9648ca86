// thread_live.h — a thread's live words (records.h, mpidbg_thread_live) merged into its
// decoded record.
//
// A runtime publishes a call that returns by itself (state IN_MPI: nonblocking posts,
// queries, handle creation, the Test family with the requests it tests), and below
// MPI_THREAD_MULTIPLE a blocking send, receive or Sendrecv whose envelope is a flight
// entry, only in the thread's live block, never in its thread
// record; and it writes those words without a generation step of their own. So a
// snapshot merges them when it is decoded and again each time it is reused from the
// cache, always starting from what the record itself said (ThreadEntry::published): one
// read per thread that has a live block, of as many bytes as the record says the runtime
// writes (live_size; 48 for a runtime that writes no op).
#ifndef MPIDBG_PLUGIN_THREAD_LIVE_H
#define MPIDBG_PLUGIN_THREAD_LIVE_H

#include "mpidbg/records.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

// The reader rule of records.h (mpidbg_thread_merge_live). While the record says
// NOT_IN_MPI and the live words say otherwise, call, state, entry_time_ns, comm_handle,
// comm_job_id, op, requests and request_count come from the live words (a block that
// ends before them reads as none); a record that publishes a call keeps its
// own (it carries the call's detail). `calls` comes from the live words always.
mpidbg_thread_record merge_live_words(const mpidbg_thread_record& published,
                                      const mpidbg_thread_live& live);

// The live block at `addr`, `bytes` long (mpidbg_thread_live_bytes; at most
// sizeof(mpidbg_thread_live)), in one read; what it does not hold decodes as zero.
// mqs_ok, or the reader's error (kErrBadArgument for a size out of range).
int read_thread_live(TargetReader& reader, TargetAddr addr, uint32_t bytes,
                     mpidbg_thread_live* out);

// Sets every thread's rec to its published record merged with its live words as they
// are now, and its recording_paused to theirs. A thread without a live block (live 0, a layout-1 record) shows its record;
// so does one whose block cannot be read or whose live_size is damaged, counted in
// snap->stats.live_unreadable (the count of this merge: it is recounted each time).
void merge_thread_live(TargetReader& reader, RuntimeSnapshot* snap);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_THREAD_LIVE_H
