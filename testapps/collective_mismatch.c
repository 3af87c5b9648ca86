/* collective_mismatch — the members of MPI_COMM_WORLD call different collectives:
 * ranks 0 and 1 call MPI_Barrier, ranks 2 and 3 call MPI_Allreduce. Each collective
 * needs every member, so neither completes (on MPICH and on Open MPI alike: their
 * barrier and allreduce exchange messages that do not match each other). Run with 4
 * ranks. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scenario_require_size(4);
  int in[4] = {rank, rank, rank, rank}, out[4];
  scenario_ready(rank);
  if (rank < 2) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
