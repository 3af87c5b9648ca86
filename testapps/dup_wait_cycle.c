/* dup_wait_cycle — on a duplicate of MPI_COMM_WORLD named "solver", ranks 0 and 1
 * each post a receive from the other and wait for it with MPI_Wait before sending.
 * Ranks 2 and 3 probe for any message on "solver" with MPI_Probe(ANY_SOURCE, ANY_TAG).
 * Nobody ever sends. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  scenario_require_size(4);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm solver;
  MPI_Comm_dup(MPI_COMM_WORLD, &solver);
  MPI_Comm_set_name(solver, "solver");
  short in[10], out[10] = {0};
  scenario_ready(rank);
  if (rank < 2) {
    MPI_Request req;
    MPI_Irecv(in, 10, MPI_SHORT, 1 - rank, 21, solver, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(out, 10, MPI_SHORT, 1 - rank, 21, solver);
  } else {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, solver, &st);
  }
  MPI_Finalize();
  return 0;
}
