/* waitall_cycle — every rank posts a receive from its left neighbour and a send of
 * another tag to its right neighbour, then waits for both with MPI_Waitall. No receive
 * matches any send, so each rank waits for its left neighbour forever: a cycle of
 * AND edges through request completion rather than blocking calls. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static double inbox[512];
  static double outbox[1 << 17]; /* 1 MiB: a rendezvous send on both MPIs */
  MPI_Request reqs[2];
  MPI_Status statuses[2];
  MPI_Irecv(inbox, 512, MPI_DOUBLE, (rank + size - 1) % size, 1, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(outbox, 1 << 17, MPI_DOUBLE, (rank + 1) % size, 2, MPI_COMM_WORLD, &reqs[1]);
  scenario_ready(rank);
  MPI_Waitall(2, reqs, statuses);
  MPI_Finalize();
  return 0;
}
