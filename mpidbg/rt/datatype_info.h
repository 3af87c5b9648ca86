// datatype_info.h — size and name of a datatype for op and thread records.
//
// Predefined (named) datatypes are cached in a small fixed table, so the common path
// costs a hash probe, not an MPI call. Derived datatypes are asked every time, because
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

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPE_INFO_H
