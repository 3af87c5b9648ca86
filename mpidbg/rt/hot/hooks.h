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

#define MPIDBG_DECLARE_HOOKS(Category, Args)        \
  void Pre##Category(CallScope& scope, Args& args); \
  void Post##Category(CallScope& scope, Args& args, int rc);

MPIDBG_DECLARE_HOOKS(Init, InitArgs)
MPIDBG_DECLARE_HOOKS(Finalize, FinalizeArgs)
MPIDBG_DECLARE_HOOKS(Plain, PlainArgs)
MPIDBG_DECLARE_HOOKS(Sendrecv, SendrecvArgs)
MPIDBG_DECLARE_HOOKS(SendrecvNonblocking, SendrecvArgs)
MPIDBG_DECLARE_HOOKS(Iprobe, P2pArgs)
MPIDBG_DECLARE_HOOKS(P2pPersistent, P2pArgs)
MPIDBG_DECLARE_HOOKS(CollBlocking, CollArgs)
MPIDBG_DECLARE_HOOKS(CollNonblocking, CollArgs)
MPIDBG_DECLARE_HOOKS(CollPersistent, CollArgs)
MPIDBG_DECLARE_HOOKS(CommCreate, CommCreateArgs)
MPIDBG_DECLARE_HOOKS(CommIdup, CommCreateArgs)
MPIDBG_DECLARE_HOOKS(CommFree, CommFreeArgs)
MPIDBG_DECLARE_HOOKS(CommSetName, CommSetNameArgs)

#undef MPIDBG_DECLARE_HOOKS

// Categories declared with `facts` (their hooks publish nothing in the thread record).
#define MPIDBG_DECLARE_FACTS_HOOKS(Category, Args) \
  void Pre##Category(CallFacts call, Args& args);  \
  void Post##Category(CallFacts call, Args& args, int rc);

MPIDBG_DECLARE_FACTS_HOOKS(Start, StartArgs)
MPIDBG_DECLARE_FACTS_HOOKS(RequestFree, RequestFreeArgs)
MPIDBG_DECLARE_FACTS_HOOKS(Cancel, CancelArgs)

#undef MPIDBG_DECLARE_FACTS_HOOKS

// The hooks of P2pBlocking and P2pNonblocking are inline, in rt/hot/hooks_p2p.h, and those
// of Completion in rt/hot/hooks_completion.h (the generated wrappers include both).

// Completion of an MPI_Comm_idup request publishes the new communicator (also declared
// in rt/hot/hooks_completion.h, which calls them).
void CompleteIdup(uint64_t request);
bool HaveIdupPending();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_H
