/* partitioned_stall — a partitioned send whose last partitions are never marked ready.
 * Rank 0 makes a partitioned send of 8 partitions to rank 1 (MPI_Psend_init, tag 7),
 * rank 1 the matching partitioned receive. A first round completes (every partition
 * ready). In the second, rank 0 marks partitions 0-4 ready and waits for the send;
 * rank 1 waits for the receive. The send can only complete once rank 0 marks 5-7,
 * which it never will while it waits: both ranks are stuck. Run with 2 ranks (MPI-4). */
#include "scenario_common.h"

enum { kPartitions = 8, kPerPartition = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scenario_require_size(2);
  static int buffer[kPartitions * kPerPartition];
  MPI_Request request;
  if (rank == 0) {
    MPI_Psend_init(buffer, kPartitions, kPerPartition, MPI_INT, 1, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &request);
  } else {
    MPI_Precv_init(buffer, kPartitions, kPerPartition, MPI_INT, 0, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &request);
  }
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&request);
    if (rank == 0) MPI_Pready_range(0, round == 0 ? kPartitions - 1 : 4, request);
    if (round == 1) scenario_ready(rank);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&request);
  MPI_Finalize();
  return 0;
}
