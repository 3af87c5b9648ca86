#include "plugin/thread_live.h"

#include "plugin/errors.h"
#include "plugin/record_decode.h"

namespace mpidbg::plugin {

mpidbg_thread_record merge_live_words(const mpidbg_thread_record& published,
                                      const mpidbg_thread_live& live) {
  mpidbg_thread_record out;
  mpidbg_thread_merge_live(&published, &live, &out);
  return out;
}

int read_thread_live(TargetReader& reader, TargetAddr addr, uint32_t bytes,
                     mpidbg_thread_live* out) {
  uint8_t buffer[sizeof(mpidbg_thread_live)];
  if (bytes == 0 || bytes > sizeof buffer) return kErrBadArgument;
  const int rc = reader.read(addr, bytes, buffer);
  if (rc != mqs_ok) return rc;
  // What the runtime did not write (op, for a runtime that writes 48 bytes) decodes as 0.
  decode_thread_live(Decoder(buffer, bytes, reader.format().swap), out);
  return mqs_ok;
}

void merge_thread_live(TargetReader& reader, RuntimeSnapshot* snap) {
  uint32_t unreadable = 0;
  for (ThreadEntry& thread : snap->threads) {
    thread.rec = thread.published;
    thread.recording_paused = 0;
    // No live block: a layout-1 record (zero-filled past what it wrote) or a runtime
    // that keeps none.
    if (thread.published.live == 0) continue;
    // As many bytes as the runtime writes (records.h): a block of 48 may end its mapping.
    const uint32_t bytes = mpidbg_thread_live_bytes(&thread.published);
    mpidbg_thread_live live;
    if (bytes == 0 ||
        read_thread_live(reader, TargetAddr(thread.published.live), bytes, &live) != mqs_ok) {
      ++unreadable;  // the record alone is still a true, if older, account
      continue;
    }
    thread.rec = merge_live_words(thread.published, live);
    // A count past any a program could make is damage, not a pause.
    thread.recording_paused = live.paused > 0 && live.paused < (1 << 20) ? live.paused : 0;
  }
  snap->stats.live_unreadable = unreadable;
}

}  // namespace mpidbg::plugin
