// datatype_info.h — size and name of a datatype for op and thread records.
//
// Predefined (named) datatypes are cached in a small fixed table, so the common path
// costs a hash probe, not an MPI call, and each thread keeps the few it used last
// (rt/hot/type_cache.h: one compare, no copy). Derived datatypes are asked every time, because
// their handles can be freed and reused for a different type.
#ifndef MPIDBG_RT_DATATYPE_INFO_H
#define MPIDBG_RT_DATATYPE_INFO_H

#include <mpi.h>
#include <stdint.h>

namespace mpidbg::rt {

struct DatatypeInfo {
  int64_t size = 0;    // bytes of one element (MPI_Type_size); 0 if unknown
  char name[32] = {};  // MPI_Type_get_name, truncated
};

// `datatype` must be a valid datatype handle or MPI_DATATYPE_NULL (gives size 0, "").
void DescribeDatatype(MPI_Datatype datatype, DatatypeInfo* out);

// Only the size in bytes (0 for MPI_DATATYPE_NULL or unknown); from the cache for
// predefined types.
int64_t DatatypeSize(MPI_Datatype datatype);

// False when no operation record can name the derived datatype `handle` (a handle value,
// as op records store it): every derived type an op record names was described here
// first, for the record's size. True may be a handle value described before, for a type
// since freed.
bool DatatypeMayBeInOperations(uint64_t handle);

// True when `datatype` is a predefined (named) type the runtime has described before
// (its cache); false says nothing (not described yet, or derived).
bool IsDescribedPredefined(MPI_Datatype datatype);

// A type's size and bounds: MPI_Type_size_x, MPI_Type_get_extent_x,
// MPI_Type_get_true_extent_x.
struct TypeExtents {
  int64_t size = 0;
  int64_t lb = 0;
  int64_t extent = 0;
  int64_t true_lb = 0;
  int64_t true_extent = 0;
};

// As IsDescribedPredefined, and when true `out` holds the type's size and bounds, as
// MPI gave them when the type was described (a predefined type's never change). False
// also when MPI did not answer the bounds queries then.
bool DescribedPredefinedExtents(MPI_Datatype datatype, TypeExtents* out);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPE_INFO_H
