/* freed_then_blocked — each rank frees two communicators it duplicated (the runtime keeps
 * their records as orphans) and then blocks in MPI for good: every rank receives from the
 * next one, which never sends. What a debugger releasing the orphans meets: a process
 * whose every application thread sits inside MPI. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 2; ++i) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
  }
  scenario_ready(rank);
  int in = 0;
  MPI_Recv(&in, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
