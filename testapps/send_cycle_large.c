/* send_cycle_large — every rank sends 4 MiB with standard-mode MPI_Send to the next
 * rank before receiving. Messages this large go by rendezvous on both MPIs, so each
 * MPI_Send waits for its receive: a cycle of standard sends. */
#include <stdlib.h>

#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 1 << 20;
  int* out = calloc(n, sizeof(int));
  int* in = calloc(n, sizeof(int));
  scenario_ready(rank);
  MPI_Send(out, n, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Recv(in, n, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
