// hooks_grequest.h — hooks of MPI_Grequest_start/complete (gen/calls_grequest.def).
#ifndef MPIDBG_RT_HOOKS_GREQUEST_H
#define MPIDBG_RT_HOOKS_GREQUEST_H

#include "rt/hot/hook_args_grequest.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

void PreGrequestStart(CallScope& scope, GrequestStartArgs& args);
void PostGrequestStart(CallScope& scope, GrequestStartArgs& args, int rc);
void PreGrequestComplete(CallScope& scope, GrequestCompleteArgs& args);
void PostGrequestComplete(CallScope& scope, GrequestCompleteArgs& args, int rc);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_GREQUEST_H
