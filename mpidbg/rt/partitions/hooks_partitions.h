// hooks_partitions.h — hooks of the partitioned-communication calls
// (gen/calls_partitioned.def).
#ifndef MPIDBG_RT_HOOKS_PARTITIONS_H
#define MPIDBG_RT_HOOKS_PARTITIONS_H

#include "rt/hot/thread_state.h"
#include "rt/partitions/hook_args_partitions.h"

namespace mpidbg::rt {

// A hook with nothing to do is defined here, inline, so the wrapper calls nothing.

CallComm PrePartitionedInit(CallFacts call, PartitionedInitArgs& args);
void PostPartitionedInit(CallFacts call, PartitionedInitArgs& args, int rc);
inline void PrePartitionMark(CallFacts, PartitionMarkArgs&) {}
void PostPartitionMark(CallFacts call, PartitionMarkArgs& args, int rc);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_PARTITIONS_H
