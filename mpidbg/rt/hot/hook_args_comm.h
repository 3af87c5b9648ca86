// hook_args_comm.h — what the generated wrappers of gen/calls_comms.def hand their
// hooks (rt/comms/hooks_comm.h). A field a call does not name keeps its default.
#ifndef MPIDBG_RT_HOOK_ARGS_COMM_H
#define MPIDBG_RT_HOOK_ARGS_COMM_H

#include <mpi.h>

#include "rt/hot/hook_args.h"

namespace mpidbg::rt {

// Every communicator constructor: the fields of CommCreateArgs (parent, newcomm,
// color, key, tag) and what the newer constructors add.
struct CommMakeArgs : CommCreateArgs {
  MPI_Info info = MPI_INFO_NULL;    // dup_with_info, split_type, dist_graph_create*, from_group
  int reorder = 0;                  // cart/graph/dist_graph constructors
  MPI_Group group = MPI_GROUP_NULL; // MPI_Comm_create_from_group
  const char* stringtag = nullptr;  // MPI_Comm_create_from_group
};

// Later changes of a communicator: attributes, errhandler, info.
struct CommUpdateArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  int keyval = 0;
  void* value = nullptr;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
  MPI_Info info = MPI_INFO_NULL;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_COMM_H
