// clock.h — time and thread identity for records. Both are cheap: the per-call time is
// the tick keeper's word (tick_clock.h) or the vDSO's coarse clock, and the thread id
// is fetched once per thread by the caller.
#ifndef MPIDBG_CORE_CLOCK_H
#define MPIDBG_CORE_CLOCK_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/inline.h"
#include "core/tick_clock.h"

namespace mpidbg::core {

MPIDBG_ALWAYS_INLINE int64_t TimespecNs(const struct timespec& ts) {
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Clock `id` in nanoseconds, through libc.
inline int64_t ClockNs(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return TimespecNs(ts);
}

inline int64_t RealtimeNs() { return ClockNs(CLOCK_REALTIME); }

// The vDSO's own clock_gettime, resolved once when the library is loaded (clock.cc);
// nullptr where it is not found (another architecture, a vDSO-less environment such as
// valgrind), and clock_gettime is used instead.
using ClockGettimeFn = int (*)(clockid_t, struct timespec*);
extern ClockGettimeFn g_vdso_clock_gettime;

// CLOCK_REALTIME at the kernel's tick resolution (a few milliseconds): the per-call
// timestamps (a thread's entry into MPI, an operation's posting), since a host measures
// calls that matter in seconds. While the tick keeper runs (tick_clock.h: from the end
// of MPI_Init to MPI_Finalize) it is one load of the keeper's word; otherwise the
// kernel's coarse clock, read straight in the vDSO (a third cheaper than through libc's
// clock_gettime, its wrapper and the PLT) or through libc where there is no vDSO.
MPIDBG_ALWAYS_INLINE int64_t CoarseRealtimeNs() {
  const int64_t ticked = TickNowNs();
  if (__builtin_expect(ticked != 0, 1)) return ticked;
  struct timespec ts;
  const ClockGettimeFn vdso = g_vdso_clock_gettime;
  if (vdso == nullptr || vdso(CLOCK_REALTIME_COARSE, &ts) != 0) {
    clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  }
  return TimespecNs(ts);
}

// The kernel thread id (a system call: callers cache it per thread).
inline uint64_t KernelThreadId() { return static_cast<uint64_t>(syscall(SYS_gettid)); }

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_CLOCK_H
