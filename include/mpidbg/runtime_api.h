/*
 * runtime_api.h — functions the in-target runtime exports besides the MPI_* wrappers.
 *
 * A debugger may call these in a stopped live process (gdb's `call`, TotalView's
 * expression evaluation); an application may call them too. All are C functions with
 * plain integer arguments so a debugger can call them without debug information.
 */
#ifndef MPIDBG_RUNTIME_API_H
#define MPIDBG_RUNTIME_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Drops every orphan (record of a freed handle) now. Returns how many were dropped.
 * Safe to call from a debugger while the process is stopped outside the runtime. */
int mpidbg_release_orphans(void);

/* The calling thread's MPI state: enum mpidbg_thread_state. If `call` is not NULL it
 * receives the enum mpidbg_call_id of the current outermost MPI call (MPIDBG_CALL_NONE
 * outside MPI). Async-signal-safe: reads thread-local state only, no lock, no
 * allocation, no system call; usable from a profiling signal handler. */
int mpidbg_thread_mpi_state(int32_t* call);

/* Captures the MPI_T catalogue again (control variable values included). Returns 0 on
 * success, -1 if MPI_T is not available. Not async-signal-safe. */
int mpidbg_refresh_mpit(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MPIDBG_RUNTIME_API_H */
