// hook_args_partitions.h — what the partitioned-communication wrappers
// (gen/calls_partitioned.def) hand their hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_PARTITIONS_H
#define MPIDBG_RT_HOOK_ARGS_PARTITIONS_H

#include <mpi.h>
#include <stdint.h>

#include "rt/hot/hook_args.h"

namespace mpidbg::rt {

// MPI_Psend_init / MPI_Precv_init: a persistent point-to-point request (p2p.count is
// all partitions' elements) and its partitioning.
struct PartitionedInitArgs {
  P2pArgs p2p;
  int partitions = 0;
  int64_t partition_count = 0;  // elements per partition
};

// MPI_Pready (low = high), MPI_Pready_range (low..high), MPI_Pready_list (list, length),
// MPI_Parrived (low = high = partition, flag).
struct PartitionMarkArgs {
  MPI_Request request = MPI_REQUEST_NULL;
  int low = -1;
  int high = -1;
  const int* list = nullptr;
  int length = 0;
  int* flag = nullptr;  // MPI_Parrived: marks only when MPI says it arrived
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_PARTITIONS_H
