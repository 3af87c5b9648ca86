/* sendrecv_one_tag_wrong — a ring exchange with MPI_Sendrecv in which every rank sends
 * tag 12 to its right neighbour and receives tag 12 from its left one, except rank 2,
 * which expects tag 99. Small messages go eagerly, so every other rank's Sendrecv
 * completes and it reaches MPI_Finalize; rank 2 stays in its Sendrecv, the send half
 * of which rank 3 has already received. One message is truly unmatched: 1 -> 2 tag 12. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  scenario_require_size(4);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out[4] = {rank, rank, rank, rank}, in[4];
  scenario_ready(rank);
  MPI_Sendrecv(out, 4, MPI_INT, (rank + 1) % size, 12, in, 4, MPI_INT, (rank + size - 1) % size,
               rank == 2 ? 99 : 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
