// hooks_partitions.cc — see hooks_partitions.h.
#include "rt/partitions/hooks_partitions.h"

#include "rt/handle_widening.h"
#include "rt/hot/hooks.h"
#include "rt/partitions/partition_registry.h"

namespace mpidbg::rt {

CallComm PrePartitionedInit(CallFacts call, PartitionedInitArgs& args) {
  return PreP2pPersistent(call, args.p2p);
}

void PostPartitionedInit(CallFacts call, PartitionedInitArgs& args, int rc) {
  // The request's envelope is an ordinary persistent operation record.
  PostP2pPersistent(call, args.p2p, rc);
  if (rc != MPI_SUCCESS || args.p2p.request == nullptr || *args.p2p.request == MPI_REQUEST_NULL) {
    return;
  }
  TrackPartitioned(HandleToU64(*args.p2p.request), args.p2p.direction, args.partitions,
                   args.partition_count);
}

void PostPartitionMark(CallFacts, PartitionMarkArgs& args, int rc) {
  // Only what MPI accepted: a failed MPI_Pready marked nothing, and MPI_Parrived
  // answering "not yet" says nothing either.
  if (rc != MPI_SUCCESS) return;
  if (args.flag != nullptr && *args.flag == 0) return;
  const uint64_t request = HandleToU64(args.request);
  if (args.list != nullptr) {
    MarkPartitionListDone(request, args.list, args.length);
  } else {
    MarkPartitionsDone(request, args.low, args.high);
  }
}

}  // namespace mpidbg::rt
