/* paused_recv — 2 ranks, each blocked in an MPI_Recv nobody sends to, rank 0 with the
 * runtime's recording paused (mpidbg_pause_recording, found at run time: the program
 * links only MPI and `mpidbg run` injects the runtime). Rank 0's records say nothing of
 * its receive, so a debugger must learn from the live words that they cannot be trusted
 * and read the thread's state from its stack; rank 1 is recorded as usual. */
#include <dlfcn.h>

#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  scenario_require_size(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int (*pause)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "mpidbg_pause_recording");
    if (pause == NULL || pause() != 1) {
      fprintf(stderr, "rank 0: the runtime's mpidbg_pause_recording is missing\n");
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  int in = 0;
  scenario_ready(rank);
  MPI_Recv(&in, 1, MPI_INT, 1 - rank, 5 + rank, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
