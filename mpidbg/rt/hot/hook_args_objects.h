// hook_args_objects.h — what the generated wrappers of gen/calls_groups.def and
// gen/calls_objects.def hand their hooks (groups, info objects, errhandlers, reduction
// ops, sessions). A field a call does not name keeps its default; `saved` fields are
// the Pre hook's copy of a handle MPI overwrites.
#ifndef MPIDBG_RT_HOOK_ARGS_OBJECTS_H
#define MPIDBG_RT_HOOK_ARGS_OBJECTS_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// The type of MPI_Group_range_incl/excl's `int ranges[][3]`, spelled so the parameter
// column of a .def file ends with its name.
typedef int RangeTriplets[][3];

// A user callback's address as records store it.
template <typename F>
inline uint64_t FunctionAddress(F* fn) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(fn));
}

// Every call returning a new group; the source the call names, by kind.
struct GroupMakeArgs {
  MPI_Comm comm = MPI_COMM_NULL;      // Comm_group, Comm_remote_group
  MPI_Win win = MPI_WIN_NULL;         // Win_get_group
  MPI_File file = MPI_FILE_NULL;      // File_get_group
  MPI_Group group = MPI_GROUP_NULL;   // the (first) input group
  MPI_Group group2 = MPI_GROUP_NULL;  // union, intersection, difference
  int n = 0;                          // incl/excl ranks, range triplets
  const int* ranks = nullptr;
  int (*ranges)[3] = nullptr;
  const char* pset = nullptr;         // Group_from_session_pset
#if MPI_VERSION >= 4
  MPI_Session session = MPI_SESSION_NULL;
#endif
  MPI_Group* newgroup = nullptr;
};

struct GroupFreeArgs {
  MPI_Group* group = nullptr;
  uint64_t saved = 0;
};

struct InfoArgs {
  MPI_Info info = MPI_INFO_NULL;  // the object a call reads or changes
  MPI_Info* newinfo = nullptr;    // Info_create, Info_dup
  MPI_Info* freed = nullptr;      // Info_free
  uint64_t saved = 0;
};

struct ErrhandlerArgs {
  uint64_t function = 0;           // rt::FunctionAddress(the user's function)
  int32_t target = MPIDBG_ERRH_ANY;
  MPI_Errhandler* newerrhandler = nullptr;
  MPI_Errhandler* freed = nullptr;  // Errhandler_free
  uint64_t saved = 0;
};

struct ReduceOpArgs {
  uint64_t function = 0;
  int commute = 1;
  MPI_Op* newop = nullptr;
  MPI_Op* freed = nullptr;  // Op_free
  uint64_t saved = 0;
};

#if MPI_VERSION >= 4
struct SessionArgs {
  MPI_Info info = MPI_INFO_NULL;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
  MPI_Session* newsession = nullptr;
  MPI_Session* freed = nullptr;  // Session_finalize
  uint64_t saved = 0;
  uint64_t saved_errhandler = 0;
};
#endif

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_OBJECTS_H
