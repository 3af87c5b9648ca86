// profile_config.h — what MPIDBG_PROFILE* ask of the MPI-state sampler (rt/profile/profile.h),
// read once at MPI_Init. MPI-free and free of global state: the unit tests feed it
// tables of variables.
//
//   MPIDBG_PROFILE        unset, "" or "0": off; "1", "on", "yes", "true": 100 Hz; a
//                         number N (2 .. 10000, larger is cut to 10000): N Hz per thread
//   MPIDBG_PROFILE_CLOCK  "wall" (default, CLOCK_MONOTONIC) or "cpu" (the thread's CPU time)
//   MPIDBG_PROFILE_SIGNAL the signal the timers deliver: a number, or SIGPROF, SIGALRM,
//                         SIGVTALRM, SIGUSR1, SIGUSR2, SIGRTMIN+n, SIGRTMAX-n ("SIG" optional)
//   MPIDBG_PROFILE_OUT    the job's file (world rank 0 writes it); default
//                         mpidbg-profile.<job>.json in the working directory
#ifndef MPIDBG_RT_PROFILE_CONFIG_H
#define MPIDBG_RT_PROFILE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "rt/process/launch_env.h"

namespace mpidbg::rt {

constexpr int kProfileDefaultHz = 100;
constexpr int kProfileMaxHz = 10000;

struct ProfileConfig {
  bool enabled = false;
  bool bad_value = false;   // MPIDBG_PROFILE was set to something not understood (off)
  int hz = 0;
  int64_t period_ns = 0;
  int32_t clock = 0;        // enum mpidbg_profile_clock
  int signal = 0;           // asked for by MPIDBG_PROFILE_SIGNAL; 0: the default (SIGPROF)
  char out[1024] = {};      // MPIDBG_PROFILE_OUT, "" for the default name
};

ProfileConfig ReadProfileConfig(EnvLookup lookup, void* context);

// A signal name or number as MPIDBG_PROFILE_SIGNAL takes it; 0 when not understood or
// not a signal a profiling timer may use (only SIGPROF, SIGALRM, SIGVTALRM, SIGUSR1,
// SIGUSR2 and the real-time signals are).
int ParseProfileSignal(const char* text);

// The default file name: "mpidbg-profile.<sanitised job>.json" (SanitiseJobId,
// rt/report/job_id_text.h).
void DefaultProfilePath(const char* job, char* out, size_t size);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_CONFIG_H
