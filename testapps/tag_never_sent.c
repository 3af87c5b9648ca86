/* tag_never_sent — rank 0 waits for tag 7 from rank 1, but rank 1 sends tag 9 and
 * goes on to a barrier with everyone else. Rank 0 never reaches the barrier, so the
 * barrier never completes: rank 0 waits for rank 1, ranks 1.. wait for rank 0. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double value = 3.5;
  scenario_ready(rank);
  if (rank == 0) {
    MPI_Recv(&value, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Send(&value, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
