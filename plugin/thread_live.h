// thread_live.h — a thread's live words (records.h, mpidbg_thread_live) merged into its
// decoded record.
//
// A layout-2 runtime publishes a call that returns by itself (state IN_MPI: nonblocking
// posts, queries, handle creation) only in the thread's live block, never in its thread
// record; and it writes those words without stepping root.generation. So a snapshot
// merges them when it is decoded and again each time it is reused from the cache, always
// starting from what the record itself said (ThreadEntry::published): one read of
// sizeof(mpidbg_thread_live) per thread that has a live block.
#ifndef MPIDBG_PLUGIN_THREAD_LIVE_H
#define MPIDBG_PLUGIN_THREAD_LIVE_H

#include "mpidbg/records.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

// The reader rule of records.h. While the record says NOT_IN_MPI and the live words say
// otherwise, call, state, entry_time_ns, comm_handle and comm_job_id come from the live
// words; a record that publishes a call keeps its own (it carries the call's detail).
// `calls` comes from the live words always.
mpidbg_thread_record merge_live_words(const mpidbg_thread_record& published,
                                      const mpidbg_thread_live& live);

// The live block at `addr`, in one read. mqs_ok, or the reader's error.
int read_thread_live(TargetReader& reader, TargetAddr addr, mpidbg_thread_live* out);

// Sets every thread's rec to its published record merged with its live words as they
// are now. A thread without a live block (live 0, a layout-1 record) shows its record;
// so does one whose block cannot be read, counted in snap->stats.live_unreadable (the
// count of this merge: it is recounted each time).
void merge_thread_live(TargetReader& reader, RuntimeSnapshot* snap);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_THREAD_LIVE_H
