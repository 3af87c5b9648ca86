// hook_args_grequest.h — what the generalized-request wrappers
// (gen/calls_grequest.def) hand their hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_GREQUEST_H
#define MPIDBG_RT_HOOK_ARGS_GREQUEST_H

#include <mpi.h>

namespace mpidbg::rt {

struct GrequestStartArgs {
  MPI_Grequest_query_function* query_fn = nullptr;
  void* extra_state = nullptr;
  MPI_Request* request = nullptr;
};

struct GrequestCompleteArgs {
  MPI_Request request = MPI_REQUEST_NULL;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_GREQUEST_H
