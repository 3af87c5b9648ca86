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

#include "mpidbg/records.h"

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

/* Pauses recording on the calling thread: until the matching mpidbg_resume_recording()
 * (pauses nest) the thread's MPI calls go straight to MPI, and nothing of them is
 * recorded. For measuring what recording costs inside one process (bench/mpi_bench.c
 * times batches paused and recording in turn); call both outside MPI calls, between
 * MPI_Init and MPI_Finalize. A request posted while paused is unknown to a debugger.
 * Requests the thread posted that are pending when it pauses are collected all the same:
 * a completion call (MPI_Wait*, MPI_Test*, MPI_Request_free, MPI_Cancel) the paused
 * thread makes that names one of them is recorded, so none stays pending in a debugger's
 * view. MPI_Init, MPI_Init_thread and MPI_Finalize are recorded paused or not (the
 * runtime's setup, and its reports and final state). The
 * pauses are published in the thread's live words (records.h, `paused`), so a debugger
 * knows the thread's state is not recorded (mpidbg reads it from the thread's stack).
 * Returns the thread's pauses after the call; -1 when the thread's state could not be
 * made (pause) or the thread is not paused (resume). */
int mpidbg_pause_recording(void);
int mpidbg_resume_recording(void);

/* Captures the MPI_T catalogue again (control variable values included). Returns 0 on
 * success, -1 if MPI_T is not available. Not async-signal-safe. */
int mpidbg_refresh_mpit(void);

/* ---- Communication monitoring (records.h, mpidbg_monitor; mpidbg/doc/monitoring.md) ----
 * Semantics of an MPI_T performance-variable session: counting runs between start and
 * stop; "accumulated" values hold everything counted since monitoring first started,
 * "current" values what was counted since the last reset. Enabled at launch with
 * MPIDBG_MONITOR (mpidbg run --monitor), which starts counting at MPI_Init and writes
 * the job's file at MPI_Finalize; or by the application with these calls alone (no file
 * unless it calls mpidbg_monitor_write). All return 0 on success, -1 when monitoring is
 * not possible (before MPI_Init, after MPI_Finalize, no memory); they are per process,
 * not collective, unless said otherwise. Not async-signal-safe. */
#define MPIDBG_MONITOR_ACCUMULATED 0
#define MPIDBG_MONITOR_CURRENT 1

int mpidbg_monitor_start(void);
int mpidbg_monitor_stop(void);
/* The current phase starts now (accumulated values are kept). */
int mpidbg_monitor_reset(void);
/* 1 while counting, 0 otherwise. */
int mpidbg_monitor_active(void);
/* Copies one peer's counters (by MPI_COMM_WORLD rank) as accumulated or current.
 * -1 for a rank out of range or when monitoring never started. */
int mpidbg_monitor_read_peer(int world_rank, int which, mpidbg_monitor_peer* out);
/* Copies one collective kind's counters (enum mpidbg_coll_kind). */
int mpidbg_monitor_read_collective(int kind, int which, mpidbg_monitor_coll* out);
/* Copies file entry `index` (0 .. file_capacity-1; -1 past the last used entry). */
int mpidbg_monitor_read_file(int index, int which, mpidbg_monitor_file* out);
/* Reads the MPI's own monitoring through MPI_T into the block (Open MPI's monitoring
 * components): 0 when read, -1 when unavailable (root.monitor's mpit_reason says why).
 * A debugger may call it in a stopped live process outside MPI. */
int mpidbg_monitor_refresh_mpit(void);
/* Collective over MPI_COMM_WORLD: gathers every rank's counters (`which`) to rank 0,
 * which writes the job's monitoring file (mpidbg.monitor/1, docs/OUTPUT.md) at `path`.
 * Returns 0 on every rank when the file was written, -1 on every rank otherwise. */
int mpidbg_monitor_write(const char* path, int which);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MPIDBG_RUNTIME_API_H */
