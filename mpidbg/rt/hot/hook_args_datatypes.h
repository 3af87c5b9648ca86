// hook_args_datatypes.h — what the datatype wrappers (gen/calls_datatypes.def) hand
// their hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_DATATYPES_H
#define MPIDBG_RT_HOOK_ARGS_DATATYPES_H

#include <mpi.h>

#include "mpidbg/records.h"
#include <stdint.h>

namespace mpidbg::rt {

// Every type constructor: the new type is read back from MPI after the call; its input
// types are the handles the application passed (oldtype, or a struct's array).
struct TypeCreateArgs {
  MPI_Datatype* newtype = nullptr;
  const MPI_Datatype* inputs = nullptr;
  int ninputs = 0;
};

// MPI_Type_commit and MPI_Type_free (which sets the handle to MPI_DATATYPE_NULL).
struct TypeHandleArgs {
  MPI_Datatype* datatype = nullptr;
  uint64_t saved = 0;  // the handle before the call
  mpidbg_object_head* record = nullptr;  // MPI_Type_free: the record detached before the call
  // MPI_Type_free of one of several references the application holds (see
  // MPI_Type_get_contents): the record stays live; the reference taken before the call.
  mpidbg_object_head* reference = nullptr;
};

struct TypeSetNameArgs {
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  const char* name = nullptr;
};

// MPI_Type_get_contents called by the application: the input types it hands back
// (at most max_datatypes of them) are references the application now holds.
struct TypeContentsArgs {
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int64_t max_datatypes = 0;  // MPI_Count in MPI_Type_get_contents_c
  MPI_Datatype* types = nullptr;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_DATATYPES_H
