/* split_cycle — MPI_COMM_WORLD is split by parity into communicators named "odds"
 * and "evens". The odd ranks send synchronously to each other inside "odds" before
 * either receives: a cycle inside a derived communicator. The even ranks keep
 * computing outside MPI and are not part of the deadlock. Needs 4 ranks. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  scenario_require_size(4);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_set_name(half, rank % 2 ? "odds" : "evens");
  int me, n;
  MPI_Comm_rank(half, &me);
  MPI_Comm_size(half, &n);
  scenario_ready(rank);
  if (rank % 2 == 0) scenario_spin_outside_mpi();
  float data[100] = {0}, in[100];
  MPI_Ssend(data, 100, MPI_FLOAT, (me + 1) % n, 11, half);
  MPI_Recv(in, 100, MPI_FLOAT, (me + 1) % n, 11, half, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
