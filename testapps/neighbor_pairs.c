/* neighbor_pairs — a neighbourhood collective waits for its topology neighbours only.
 * A distributed graph joins the ranks in pairs, 0-1 and 2-3 ("pairs"). Rank 0 calls
 * MPI_Neighbor_allgather on it and waits for rank 1, which computes outside MPI for
 * ever; ranks 2 and 3 each wait in MPI_Recv for a message the other never sends. Only
 * ranks 2 and 3 are deadlocked: rank 0 would proceed as soon as rank 1 joined, whatever
 * ranks 2 and 3 do. Run with 4 ranks. */
#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scenario_require_size(4);
  int partner = rank ^ 1;
  MPI_Comm pairs;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &partner, MPI_UNWEIGHTED, 1, &partner,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &pairs);
  MPI_Comm_set_name(pairs, "pairs");
  scenario_ready(rank);
  if (rank == 0) {
    int mine = rank, theirs = -1;
    MPI_Neighbor_allgather(&mine, 1, MPI_INT, &theirs, 1, MPI_INT, pairs);
  } else if (rank == 1) {
    scenario_spin_outside_mpi();
  } else {
    int value;
    MPI_Recv(&value, 1, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&pairs);
  MPI_Finalize();
  return 0;
}
