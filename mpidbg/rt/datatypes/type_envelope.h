// type_envelope.h — MPI_Type_get_envelope and MPI_Type_get_contents for every type,
// large-count ones included.
//
// MPI-4's large-count constructors (MPI_Type_contiguous_c, ...) make types whose
// description has MPI_Count values; MPICH 4.0 refuses the int queries on them with an
// error (fatal under the default errhandler). With MPI-4 the _c queries are used, which
// describe every type. A type with large counts is read for its combiner and input
// types only: the record has no array for large counts (its integers and addresses stay
// empty, so no reader builds a wrong type map from them).
#ifndef MPIDBG_RT_DATATYPES_TYPE_ENVELOPE_H
#define MPIDBG_RT_DATATYPES_TYPE_ENVELOPE_H

#include <mpi.h>

namespace mpidbg::rt {

struct TypeEnvelope {
  int ni = 0, na = 0, nd = 0;
  int combiner = MPI_COMBINER_NAMED;
  bool large = false;  // the description has large counts (MPI-4 _c constructors)
};

// False when MPI does not describe the type.
bool ReadTypeEnvelope(MPI_Datatype t, TypeEnvelope* e);

// The contents of a type `e` describes, into arrays of at least e.ni, e.na and e.nd
// elements (of a large-count type: the input types only; ints and addrs untouched).
bool ReadTypeContents(MPI_Datatype t, const TypeEnvelope& e, int* ints, MPI_Aint* addrs,
                      MPI_Datatype* types);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPES_TYPE_ENVELOPE_H
