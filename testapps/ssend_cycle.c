/* ssend_cycle — every rank sends synchronously to the next rank before receiving from
 * the previous one. MPI_Ssend cannot complete before its receive is posted, so the
 * ranks form a cycle of waits: a deadlock of AND edges 0->1->2->...->0. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out[16] = {rank}, in[16];
  scenario_ready(rank);
  MPI_Ssend(out, 16, MPI_INT, (rank + 1) % size, 42, MPI_COMM_WORLD);
  MPI_Recv(in, 16, MPI_INT, (rank + size - 1) % size, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
