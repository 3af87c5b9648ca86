/* sendrecv_tag_mismatch — a ring exchange with MPI_Sendrecv in which every rank sends
 * tag 1 to its right neighbour but receives tag 2 from its left one. The sends may
 * complete (small messages), the receives never do: every rank waits for its left
 * neighbour, whose message carries the wrong tag. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out[4] = {rank, rank, rank, rank}, in[4];
  scenario_ready(rank);
  MPI_Sendrecv(out, 4, MPI_INT, (rank + 1) % size, 1, in, 4, MPI_INT, (rank + size - 1) % size,
               2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
