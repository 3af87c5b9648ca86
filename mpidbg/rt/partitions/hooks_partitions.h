// hooks_partitions.h — hooks of the partitioned-communication calls
// (gen/calls_partitioned.def).
#ifndef MPIDBG_RT_HOOKS_PARTITIONS_H
#define MPIDBG_RT_HOOKS_PARTITIONS_H

#include "rt/hot/thread_state.h"
#include "rt/partitions/hook_args_partitions.h"

namespace mpidbg::rt {

void PrePartitionedInit(CallScope& scope, PartitionedInitArgs& args);
void PostPartitionedInit(CallScope& scope, PartitionedInitArgs& args, int rc);
// Nothing before the call; inline, so a wrapper calls nothing.
inline void PrePartitionMark(CallScope&, PartitionMarkArgs&) {}
void PostPartitionMark(CallScope& scope, PartitionMarkArgs& args, int rc);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_PARTITIONS_H
