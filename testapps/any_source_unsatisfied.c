/* any_source_unsatisfied — rank 0 receives from MPI_ANY_SOURCE with tag 5; nobody
 * sends it. The other ranks wait in MPI_Allreduce, which needs rank 0. Rank 0's wait
 * is an OR over every other rank, and all of them wait for rank 0: an OR knot. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long payload[8];
  int local = rank, total = 0;
  scenario_ready(rank);
  if (rank == 0) {
    MPI_Recv(payload, 8, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
