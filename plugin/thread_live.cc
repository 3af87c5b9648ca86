#include "plugin/thread_live.h"

#include "plugin/record_decode.h"

namespace mpidbg::plugin {

mpidbg_thread_record merge_live_words(const mpidbg_thread_record& published,
                                      const mpidbg_thread_live& live) {
  mpidbg_thread_record out = published;
  // The thread counts every outermost call here; the record's count stops at the last
  // call that published itself.
  out.calls = live.calls;
  // A call the record publishes (BLOCKED, or the Test family's IN_MPI) is the same call
  // the live words name, and the record has its detail: the record wins.
  if (published.state != MPIDBG_THREAD_NOT_IN_MPI) return out;
  if (live.state == MPIDBG_THREAD_NOT_IN_MPI) return out;
  out.state = live.state;
  out.call = live.call;
  out.entry_time_ns = live.entry_time_ns;
  out.comm_handle = live.comm_handle;
  out.comm_job_id = live.comm_job_id;
  return out;
}

int read_thread_live(TargetReader& reader, TargetAddr addr, mpidbg_thread_live* out) {
  uint8_t bytes[sizeof(mpidbg_thread_live)];
  const int rc = reader.read(addr, sizeof bytes, bytes);
  if (rc != mqs_ok) return rc;
  decode_thread_live(Decoder(bytes, sizeof bytes, reader.format().swap), out);
  return mqs_ok;
}

void merge_thread_live(TargetReader& reader, RuntimeSnapshot* snap) {
  uint32_t unreadable = 0;
  for (ThreadEntry& thread : snap->threads) {
    thread.rec = thread.published;
    // No live block: a layout-1 record (zero-filled past what it wrote) or a runtime
    // that keeps none.
    if (thread.published.live == 0) continue;
    mpidbg_thread_live live;
    if (read_thread_live(reader, TargetAddr(thread.published.live), &live) != mqs_ok) {
      ++unreadable;  // the record alone is still a true, if older, account
      continue;
    }
    thread.rec = merge_live_words(thread.published, live);
  }
  snap->stats.live_unreadable = unreadable;
}

}  // namespace mpidbg::plugin
