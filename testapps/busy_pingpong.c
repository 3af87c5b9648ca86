/* busy_pingpong — pairs of ranks (0-1, 2-3, ...) exchange small messages with blocking
 * MPI_Send and MPI_Recv as fast as they can, forever. Read one after another, ranks are
 * often caught in crossed receives that look like a cycle for a moment; the job is
 * never stuck, and a correct analysis never reports a deadlock. Needs an even size. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int partner = rank ^ 1;
  int ball = 0;
  scenario_ready(rank);
  for (;;) {
    if (rank % 2 == 0) {
      MPI_Send(&ball, 1, MPI_INT, partner, 8, MPI_COMM_WORLD);
      MPI_Recv(&ball, 1, MPI_INT, partner, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&ball, 1, MPI_INT, partner, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&ball, 1, MPI_INT, partner, 8, MPI_COMM_WORLD);
    }
    ++ball;
  }
  MPI_Finalize();
  return 0;
}
