// hooks_datatypes.h — hooks of the datatype calls (gen/calls_datatypes.def).
#ifndef MPIDBG_RT_HOOKS_DATATYPES_H
#define MPIDBG_RT_HOOKS_DATATYPES_H

#include "rt/hot/hook_args_datatypes.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// A hook with nothing to do is defined here, inline, so the wrapper calls nothing.

inline void PreTypeCreate(CallScope&, TypeCreateArgs&) {}
void PostTypeCreate(CallScope& scope, TypeCreateArgs& args, int rc);
inline void PreTypeCommit(CallScope&, TypeHandleArgs&) {}
void PostTypeCommit(CallScope& scope, TypeHandleArgs& args, int rc);
void PreTypeFree(CallScope& scope, TypeHandleArgs& args);
void PostTypeFree(CallScope& scope, TypeHandleArgs& args, int rc);
inline void PreTypeSetName(CallScope&, TypeSetNameArgs&) {}
void PostTypeSetName(CallScope& scope, TypeSetNameArgs& args, int rc);
inline void PreTypeGetContents(CallScope&, TypeContentsArgs&) {}
void PostTypeGetContents(CallScope& scope, TypeContentsArgs& args, int rc);
inline void PreTypeC2f(CallScope&, TypeC2fArgs&) {}
void PostTypeC2f(CallScope& scope, TypeC2fArgs& args, int index);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_DATATYPES_H
