// hooks_datatypes.h — hooks of the datatype calls (gen/calls_datatypes.def).
#ifndef MPIDBG_RT_HOOKS_DATATYPES_H
#define MPIDBG_RT_HOOKS_DATATYPES_H

#include "rt/hot/hook_args_datatypes.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// A hook with nothing to do is defined here, inline, so the wrapper calls nothing.

inline void PreTypeCreate(CallFacts, TypeCreateArgs&) {}
void PostTypeCreate(CallFacts call, TypeCreateArgs& args, int rc);
inline void PreTypeCommit(CallFacts, TypeHandleArgs&) {}
void PostTypeCommit(CallFacts call, TypeHandleArgs& args, int rc);
void PreTypeFree(CallFacts call, TypeHandleArgs& args);
void PostTypeFree(CallFacts call, TypeHandleArgs& args, int rc);
inline void PreTypeSetName(CallFacts, TypeSetNameArgs&) {}
void PostTypeSetName(CallFacts call, TypeSetNameArgs& args, int rc);
inline void PreTypeGetContents(CallFacts, TypeContentsArgs&) {}
void PostTypeGetContents(CallFacts call, TypeContentsArgs& args, int rc);
inline void PreTypeC2f(CallFacts, TypeC2fArgs&) {}
void PostTypeC2f(CallFacts call, TypeC2fArgs& args, int index);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_DATATYPES_H
