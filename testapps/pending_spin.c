/* pending_spin — every rank posts a receive from its left neighbour with a tag nobody
 * sends, and a send of a large message to its right neighbour with another tag nobody
 * receives, then computes outside MPI. Operations stay pending forever, yet no rank is
 * blocked in MPI: a correct analysis reports no deadlock. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static int inbox[256];
  static char outbox[1 << 20]; /* large enough to need a rendezvous on both MPIs */
  MPI_Request reqs[2];
  MPI_Irecv(inbox, 256, MPI_INT, (rank + size - 1) % size, 100, MPI_COMM_WORLD, &reqs[0]);
  MPI_Issend(outbox, (int)sizeof outbox, MPI_BYTE, (rank + 1) % size, 200, MPI_COMM_WORLD,
             &reqs[1]);
  scenario_ready(rank);
  scenario_spin_outside_mpi();
  MPI_Status statuses[2];
  MPI_Waitall(2, reqs, statuses);
  MPI_Finalize();
  return 0;
}
