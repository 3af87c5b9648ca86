/* scenario_common.h — helpers shared by the test applications.
 *
 * Every test application drives an MPI job into one known state (a deadlock, or
 * pending traffic while ranks compute) and then stays there until it is killed, so
 * mpidbg can read it live and from core files. A rank that reaches its final state
 * prints "rank N ready" once, which tests and demos may wait for. */
#ifndef MPIDBG_TESTAPPS_SCENARIO_COMMON_H
#define MPIDBG_TESTAPPS_SCENARIO_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static inline void scenario_ready(int rank) {
  printf("rank %d ready\n", rank);
  fflush(stdout);
}

/* Compute outside MPI forever: the state of a rank that is busy, not stuck. */
static inline void scenario_spin_outside_mpi(void) {
  for (;;) sleep(1);
}

/* Abort when the job does not have the size a scenario needs. */
static inline void scenario_require_size(int needed) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != needed) {
    fprintf(stderr, "this scenario needs exactly %d ranks, got %d\n", needed, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

#endif
