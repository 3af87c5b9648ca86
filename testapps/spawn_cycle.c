/* spawn_cycle — a deadlock across two jobs. Run with 2 ranks: they spawn this program
 * again as a job of 2 ranks (MPI_Comm_spawn), and then rank r of each job waits in
 * MPI_Recv for rank r of the other over the intercommunicator that joins them (the
 * parent's from MPI_Comm_spawn, the child's from MPI_Comm_get_parent). Nobody sends:
 * a cycle of AND edges parent r -> child r -> parent r that only an analysis of both
 * jobs together can see. Every process prints "rank N ready" (children "child rank N
 * ready", which tests count the same). An MPI that cannot spawn says so and exits 3. */
#include <string.h>

#include "scenario_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm parent, other;
  MPI_Comm_get_parent(&parent);
  const int child = parent != MPI_COMM_NULL;
  if (child) {
    other = parent;
  } else {
    scenario_require_size(2);
    int errcodes[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int rc = MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                  &other, errcodes);
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      MPI_Error_string(rc, text, &length);
      fprintf(stderr, "rank %d: MPI_Comm_spawn failed: %s\n", rank, text);
      MPI_Finalize();
      return 3;
    }
  }
  int in[4];
  printf("%srank %d ready\n", child ? "child " : "", rank);
  fflush(stdout);
  MPI_Recv(in, 4, MPI_INT, rank, 7, other, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
