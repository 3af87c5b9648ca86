// hooks.h — the hand-written hooks the generated MPI_* wrappers call.
//
// Each category has a Pre hook (before PMPI_*, may fill the call's detail, which the
// wrapper then publishes in the thread record) and a Post hook (after, with the result).
// Hooks call PMPI_* only.
#ifndef MPIDBG_RT_HOOKS_H
#define MPIDBG_RT_HOOKS_H

#include "rt/hot/hook_args.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// What each category's hooks get (gen/categories.def): the call scope, or for a
// category declared `facts` the call's facts by value (its hooks publish nothing in the
// thread record); for one declared `facts comm` the Pre hook also returns the
// communicator the call publishes.
#define MPIDBG_DECLARE_HOOKS(Category, Args, Given, PreResult) \
  PreResult Pre##Category(Given, Args& args);                 \
  void Post##Category(Given, Args& args, int rc);

MPIDBG_DECLARE_HOOKS(Init, InitArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(Finalize, FinalizeArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(SendrecvNonblocking, SendrecvArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(CollBlocking, CollArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(CollNonblocking, CollArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(CollPersistent, CollArgs, CallScope& scope, void)
MPIDBG_DECLARE_HOOKS(Start, StartArgs, CallFacts call, void)
MPIDBG_DECLARE_HOOKS(RequestFree, RequestFreeArgs, CallFacts call, void)
MPIDBG_DECLARE_HOOKS(Cancel, CancelArgs, CallFacts call, void)
MPIDBG_DECLARE_HOOKS(Iprobe, P2pArgs, CallFacts call, CallComm)
MPIDBG_DECLARE_HOOKS(P2pPersistent, P2pArgs, CallFacts call, CallComm)
MPIDBG_DECLARE_HOOKS(CommCreate, CommCreateArgs, CallFacts call, CallComm)
MPIDBG_DECLARE_HOOKS(CommIdup, CommCreateArgs, CallFacts call, CallComm)
MPIDBG_DECLARE_HOOKS(CommFree, CommFreeArgs, CallFacts call, CallComm)
MPIDBG_DECLARE_HOOKS(CommSetName, CommSetNameArgs, CallFacts call, CallComm)

#undef MPIDBG_DECLARE_HOOKS

// The hooks of P2pBlocking, P2pNonblocking and Sendrecv are inline, in rt/hot/hooks_p2p.h, those
// of Completion in rt/hot/hooks_completion.h and those of Plain in rt/hot/hooks_plain.h
// (the generated wrappers include all three).

// Completion of an MPI_Comm_idup request publishes the new communicator (also declared
// in rt/hot/hooks_completion.h, which calls them).
void CompleteIdup(uint64_t request);
bool HaveIdupPending();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_H
