// hooks_groups.h — group records (gen/calls_groups.def): every call that returns a
// group, MPI_Group_free, and the predefined MPI_GROUP_EMPTY.
#ifndef MPIDBG_RT_HOOKS_GROUPS_H
#define MPIDBG_RT_HOOKS_GROUPS_H

#include "rt/hot/hook_args_objects.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

CallComm PreGroupMake(CallFacts call, GroupMakeArgs& args);
void PostGroupMake(CallFacts call, GroupMakeArgs& args, int rc);
void PreGroupFree(CallFacts call, GroupFreeArgs& args);
void PostGroupFree(CallFacts call, GroupFreeArgs& args, int rc);

// At MPI_Init (rt/objects/predefined_objects.cc).
void RegisterPredefinedGroups();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_GROUPS_H
