/* monitor_pattern — known traffic for communication monitoring and MPI-state sampling
 * (4 ranks), then a known state.
 *
 * Each rank r, with right = (r+1) % 4 and left = (r+3) % 4:
 *   - 3 x MPI_Sendrecv: 8 bytes to right, 8 bytes from left (tag 1)
 *   - MPI_Isend of 1024 bytes to right, MPI_Recv of 1024 bytes from left, MPI_Wait (tag 2)
 *   - MPI_Bcast of 100 MPI_INT from root 0, MPI_Allreduce of 10 MPI_DOUBLE (sum)
 *   - MPI_Put of 4 MPI_INT (16 bytes) into right's window, between two fences
 * So right receives from r: 4 point-to-point messages, 3 x 8 + 1024 = 1048 bytes.
 *
 * Then (this file as built): rank 0 blocks forever in MPI_Recv from rank 1, tag 99 (never
 * sent), the other ranks stay outside MPI; every rank prints "rank N ready" first.
 * Built with MONITOR_PATTERN_FINISH (monitor_finish.c) rank 0 stays outside MPI for
 * 0.3 s while the others wait for it in MPI_Barrier, then every rank calls MPI_Finalize,
 * so the runtime writes its job files. */
#include <string.h>
#include <time.h>

#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  scenario_require_size(4);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int right = (rank + 1) % 4, left = (rank + 3) % 4;

  char small_out[8] = {0}, small_in[8];
  for (int i = 0; i < 3; ++i) {
    MPI_Sendrecv(small_out, 8, MPI_BYTE, right, 1, small_in, 8, MPI_BYTE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  static char big_out[1024], big_in[1024];
  MPI_Request request;
  MPI_Isend(big_out, 1024, MPI_BYTE, right, 2, MPI_COMM_WORLD, &request);
  MPI_Recv(big_in, 1024, MPI_BYTE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);

  int values[100];
  for (int i = 0; i < 100; ++i) values[i] = rank == 0 ? i : -1;
  MPI_Bcast(values, 100, MPI_INT, 0, MPI_COMM_WORLD);
  double mine[10], sum[10];
  for (int i = 0; i < 10; ++i) mine[i] = rank + i;
  MPI_Allreduce(mine, sum, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  memset(base, 0, 16 * sizeof(int));
  int put[4] = {rank, rank, rank, rank};
  MPI_Win_fence(0, win);
  MPI_Put(put, 4, MPI_INT, right, 0, 4, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);

  scenario_ready(rank);
#ifdef MONITOR_PATTERN_FINISH
  /* A known state for sampling: rank 0 outside MPI for 0.3 s while the others wait in
   * MPI_Barrier for it. Slept in pieces: profiling ticks cut a sleep short. */
  if (rank == 0) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
      usleep(10000);
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) <
             300000000L);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
#else
  if (rank == 0) {
    int never = 0;
    MPI_Recv(&never, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  scenario_spin_outside_mpi();
#endif
}
