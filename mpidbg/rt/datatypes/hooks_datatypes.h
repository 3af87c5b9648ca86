// hooks_datatypes.h — hooks of the datatype calls (gen/calls_datatypes.def).
#ifndef MPIDBG_RT_HOOKS_DATATYPES_H
#define MPIDBG_RT_HOOKS_DATATYPES_H

#include "rt/hot/hook_args_datatypes.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

void PreTypeCreate(CallScope& scope, TypeCreateArgs& args);
void PostTypeCreate(CallScope& scope, TypeCreateArgs& args, int rc);
void PreTypeCommit(CallScope& scope, TypeHandleArgs& args);
void PostTypeCommit(CallScope& scope, TypeHandleArgs& args, int rc);
void PreTypeFree(CallScope& scope, TypeHandleArgs& args);
void PostTypeFree(CallScope& scope, TypeHandleArgs& args, int rc);
void PreTypeSetName(CallScope& scope, TypeSetNameArgs& args);
void PostTypeSetName(CallScope& scope, TypeSetNameArgs& args, int rc);
void PreTypeGetContents(CallScope& scope, TypeContentsArgs& args);
void PostTypeGetContents(CallScope& scope, TypeContentsArgs& args, int rc);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_DATATYPES_H
