// hooks_rma.h — hooks of the window and one-sided calls (gen/calls_rma.def).
#ifndef MPIDBG_RT_HOOKS_RMA_H
#define MPIDBG_RT_HOOKS_RMA_H

#include "rt/hot/hook_args_rma.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

#define MPIDBG_DECLARE_RMA_HOOKS(Category, Args)    \
  void Pre##Category(CallScope& scope, Args& args); \
  void Post##Category(CallScope& scope, Args& args, int rc);

MPIDBG_DECLARE_RMA_HOOKS(WinCreate, WinCreateArgs)
MPIDBG_DECLARE_RMA_HOOKS(WinFree, WinFreeArgs)
MPIDBG_DECLARE_RMA_HOOKS(WinAttach, WinAttachArgs)
MPIDBG_DECLARE_RMA_HOOKS(WinSetName, WinSetNameArgs)
MPIDBG_DECLARE_RMA_HOOKS(WinSetErrhandler, WinErrhandlerArgs)
MPIDBG_DECLARE_RMA_HOOKS(WinSync, WinSyncArgs)
MPIDBG_DECLARE_RMA_HOOKS(Rma, RmaArgs)

#undef MPIDBG_DECLARE_RMA_HOOKS

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_RMA_H
