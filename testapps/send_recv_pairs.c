/* send_recv_pairs — ranks in pairs (0,1), (2,3), ...: the even rank sends 4 MiB with
 * standard-mode MPI_Send (rendezvous on both MPIs, so the send waits for its receive)
 * with tag 3; the odd rank receives from it with tag 4. Neither message matches: each
 * pair is a cycle of a blocked send and a blocked receive.
 *
 * Built a second time as send_recv_pairs_c (send_recv_pairs_c.c): the same calls in
 * their MPI-4 large-count forms, MPI_Send_c and MPI_Recv_c, which mpidbg must show
 * exactly as it shows these. */
#include <stdlib.h>

#include "scenario_common.h"

#ifdef SCENARIO_LARGE_COUNT
#define SCENARIO_SEND MPI_Send_c
#define SCENARIO_RECV MPI_Recv_c
typedef MPI_Count scenario_count;
#else
#define SCENARIO_SEND MPI_Send
#define SCENARIO_RECV MPI_Recv
typedef int scenario_count;
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const scenario_count n = 1 << 20;
  int* buf = calloc((size_t)n, sizeof(int));
  scenario_ready(rank);
  if (rank % 2 == 0) {
    SCENARIO_SEND(buf, n, MPI_INT, rank + 1, 3, MPI_COMM_WORLD);
  } else {
    SCENARIO_RECV(buf, n, MPI_INT, rank - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
