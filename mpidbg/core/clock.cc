// clock.cc — finds the vDSO's clock_gettime (clock.h, CoarseRealtimeNs).
//
// The vDSO is the kernel's own shared object mapped into every process; glibc's
// clock_gettime calls into it after a wrapper of its own. Its symbols are part of the
// kernel ABI (vdso(7)): __vdso_clock_gettime (LINUX_2.6) on x86-64,
// __kernel_clock_gettime (LINUX_2.6.39) on arm64. glibc has it loaded under the name
// linux-vdso.so.1, so RTLD_NOLOAD finds it without loading anything.
#include <dlfcn.h>

#include "core/clock.h"

namespace mpidbg::core {

ClockGettimeFn g_vdso_clock_gettime = nullptr;

namespace {

ClockGettimeFn FindVdsoClock() {
#if defined(__x86_64__)
  const char* const name = "__vdso_clock_gettime";
  const char* const version = "LINUX_2.6";
#elif defined(__aarch64__)
  const char* const name = "__kernel_clock_gettime";
  const char* const version = "LINUX_2.6.39";
#else
  return nullptr;
#endif
#if defined(__x86_64__) || defined(__aarch64__)
  void* vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (vdso == nullptr) return nullptr;
  auto fn = reinterpret_cast<ClockGettimeFn>(dlvsym(vdso, name, version));
  // The handle stays open: the vDSO is never unloaded.
  if (fn == nullptr) return nullptr;
  // Used only if it answers the clock the runtime reads.
  struct timespec ts;
  return fn(CLOCK_REALTIME_COARSE, &ts) == 0 ? fn : nullptr;
#endif
}

// Before any thread of the program can call MPI: the pointer is written once, here.
__attribute__((constructor)) void ResolveVdsoClock() { g_vdso_clock_gettime = FindVdsoClock(); }

}  // namespace
}  // namespace mpidbg::core
