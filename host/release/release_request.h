// release_request.h — asking a process's runtime to release its orphans by writing
// its root (records.h, "requests a debugger writes"), never by calling into it, then
// watching for the runtime's acknowledgement while the process runs.
#pragma once

#include <cstdint>
#include <string>

#include "host/util/status.h"

namespace mpidbg::host {

struct ReleaseOutcome {
  int64_t pid = 0;
  uint64_t request = 0;      // the number written to orphan_release_asked
  bool already_pending = false;  // an earlier request was still outstanding: not asked again
  bool done = false;         // the runtime acknowledged within the wait
  uint64_t kept_before = 0;  // orphans kept when asked
  uint64_t released = 0;     // orphans the runtime released since (when done)
};

// Stops `pid` while the request is written (the root found by its exported symbol and
// checked), lets it go, then reads the acknowledgement without stopping it, every
// 20 ms for at most `wait_seconds`. No support (1): no runtime, or one older than
// release requests. Not done in time is no error: the outcome says pending.
Result<ReleaseOutcome> AskOrphanRelease(int64_t pid, double wait_seconds);

}  // namespace mpidbg::host
