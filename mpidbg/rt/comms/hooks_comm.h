// hooks_comm.h — hooks of the communicator calls in gen/calls_comms.def besides those
// rt/hot/hooks.h declares (CommCreate, CommIdup, CommFree, CommSetName).
#ifndef MPIDBG_RT_HOOKS_COMM_H
#define MPIDBG_RT_HOOKS_COMM_H

#include "rt/hot/hook_args_comm.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

CallComm PreCommMake(CallFacts call, CommMakeArgs& args);
void PostCommMake(CallFacts call, CommMakeArgs& args, int rc);
CallComm PreCommUpdate(CallFacts call, CommUpdateArgs& args);
void PostCommUpdate(CallFacts call, CommUpdateArgs& args, int rc);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_COMM_H
