// hook_args_datatypes.h — what the datatype wrappers (gen/calls_datatypes.def) hand
// their hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_DATATYPES_H
#define MPIDBG_RT_HOOK_ARGS_DATATYPES_H

#include <mpi.h>

#include <stdint.h>

#include <initializer_list>

#include "core/inline.h"
#include "mpidbg/records.h"

namespace mpidbg::rt {

// A stretch of a constructor's own arguments: `n` elements at `at` (one scalar argument,
// or an array argument and its length).
template <typename T>
struct ArgRun {
  const T* at;
  int n;
};

// A constructor's integers or addresses in the order MPI_Type_get_contents reports them
// (MPI-4.0, 5.1.13), as the stretches of its arguments they are made of: MPI_Type_vector's
// integers are {&count, 1}, {&blocklength, 1}, {&stride, 1}; MPI_Type_indexed's
// {&count, 1}, {blocklengths, count}, {displacements, count}. Read only once the call has
// succeeded (MPI has checked the counts by then).
//
// A wrapper assigns the stretches in place (`args_.ints = {{&count, 1}, ...}`), field by
// field: no ArgRuns is built elsewhere and copied in (MPI_Type_vector's wrapper copied
// 272 bytes that way, and read each stretch back as one 16-byte word right after
// storing it as a pointer and an int, a store the processor cannot forward to such a
// load; in place it runs about 50 instructions fewer).
//
// `singles`: every stretch is one scalar argument (MPI_Type_vector's, MPI_Type_contiguous's,
// most constructors'). The wrapper's stretch lengths are constants, so the compiler
// works this out while it compiles the wrapper; the record is then written without
// counting and checking stretch by stretch.
template <typename T>
struct ArgRuns {
  static constexpr int kMax = 8;
  ArgRun<T> run[kMax];
  int count = 0;
  bool singles = true;

  MPIDBG_ALWAYS_INLINE ArgRuns& operator=(std::initializer_list<ArgRun<T>> runs) {
    count = 0;
    bool all_single = true;
#pragma GCC unroll 8
    for (const ArgRun<T>& r : runs) {
      if (count == kMax) break;
      run[count].at = r.at;
      run[count].n = r.n;
      all_single = all_single && r.n == 1;
      ++count;
    }
    singles = all_single;
    return *this;
  }
};

// Every type constructor. Its input types are the handles the application passed
// (oldtype, or a struct's array). Where the call's own arguments are its contents
// (`combiner` set: the constructors whose contents MPI-4.0 defines from their
// arguments, without the large-count forms), the record is made from them; otherwise
// (`combiner` -1) the new type's envelope and contents are read back from MPI after the
// call.
struct TypeCreateArgs {
  MPI_Datatype* newtype = nullptr;
  const MPI_Datatype* inputs = nullptr;
  int ninputs = 0;
  int combiner = -1;  // MPI_COMBINER_* of the constructor, or -1
  ArgRuns<int> ints;
  ArgRuns<MPI_Aint> addrs;
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

// MPI_Type_c2f (Open MPI: the first one gives the type its Fortran index).
struct TypeC2fArgs {
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
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
