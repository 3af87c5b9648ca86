// profile.h — MPI-state sampling (records.h: mpidbg_profile; mpidbg/doc/profiling.md).
//
// Opt-in with MPIDBG_PROFILE (rt/profile/profile_config.h). At MPI_Init the runtime installs a
// handler for the profiling signal and gives the thread that called MPI_Init a timer;
// every other thread gets one at its first MPI call (rt/process/thread_setup.cc). Each tick the
// handler, on the ticking thread, reads that thread's state with
// mpidbg_thread_mpi_state() and the outermost call's site from its ThreadState, and
// counts the sample (rt/profile/profile_sites.h). MPI_Finalize stops the timers and writes the
// job's report (rt/profile/profile_report.cc). The block and its arrays are static: they stay
// readable after MPI_Finalize and in core files.
#ifndef MPIDBG_RT_PROFILE_H
#define MPIDBG_RT_PROFILE_H

#include <stdint.h>

#include "mpidbg/records.h"
#include "rt/profile/profile_config.h"

namespace mpidbg::rt {

constexpr uint32_t kProfileSiteCapacity = 4096;  // power of two

// The settings MPI_Init read; enabled is the same on every rank of a job that set
// MPIDBG_PROFILE alike, which is what decides whether MPI_Finalize gathers.
const ProfileConfig& ProfileSettings();

// The block and its arrays (valid whatever the settings; zero when sampling never ran).
mpidbg_profile* ProfileBlock();
const mpidbg_profile_function* ProfileFunctions();
const mpidbg_profile_site* ProfileSites();

// The calling thread's timer: started if sampling is active and the thread has none
// (its first MPI call), deleted at its exit. Cold path: system calls and a lock.
void ProfileThreadStart();
void ProfileThreadExit();

// Stops sampling: no more samples are counted, every thread's timer is deleted, and
// stop_time_ns is set. The signal handler stays installed (a tick already pending is
// ignored). Idempotent.
void ProfileStop();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_H
