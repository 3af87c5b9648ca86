// datatype_registry.h — datatype records (records.h: mpidbg_datatype_record).
//
// One generic path records every type: the constructor's arguments (where the runtime
// saw the call) or MPI_Type_get_envelope/get_contents give the combiner and the
// constructor's inputs, whatever call made the type, so a reader can
// rebuild any type map recursively from the records of its input types. Inputs the
// runtime has no record of (predefined types outside the table, types made where the
// runtime cannot see, e.g. through the Fortran bindings) are recorded first, the same
// way. The input handles themselves come from the constructor's arguments where the
// runtime saw the call. Not on a per-message path.
#ifndef MPIDBG_RT_DATATYPE_REGISTRY_H
#define MPIDBG_RT_DATATYPE_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"
#include "rt/hot/hook_args_datatypes.h"

namespace mpidbg::rt {

// Records `datatype` as MPI describes it now; `creator` is the constructor's call id
// (MPIDBG_CALL_NONE when unknown), `inputs` the n input types the application passed
// to it (nullptr when not known: MPI_Type_get_contents then names them). Returns the
// record (an existing live one for the cached MPI_Type_create_f90_* types), or nullptr
// if it could not be made.
mpidbg_datatype_record* RecordDatatype(MPI_Datatype datatype, int32_t creator,
                                       const MPI_Datatype* inputs = nullptr, int ninputs = 0);

// Records the type a constructor just made, from the call's own arguments where they
// are its contents (TypeCreateArgs), else as RecordDatatype does. `fortran`: the call
// came through a Fortran binding (CallScope::fortran).
mpidbg_datatype_record* RecordConstructedDatatype(MPI_Datatype datatype, int32_t creator,
                                                  const TypeCreateArgs& call, bool fortran);

// Open MPI gives a datatype a Fortran index only when first asked for one
// (MPI_Type_c2f), so a type made by a C call is recorded with fortran_index -1, and the
// application's MPI_Type_c2f notes the index it got here. Elsewhere a no-op.
constexpr bool kFortranIndexOnRequest = MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_OPENMPI;
void NoteDatatypeFortranIndex(MPI_Datatype datatype, int32_t index);

// Frees the record's arrays that are not in its contents_room and empties all three
// (the registry's DropArrays for datatype records).
void DropDatatypeArrays(mpidbg_datatype_record* rec);

// Registers every predefined datatype of the table in datatype_predefined.cc.
void RegisterPredefinedDatatypes();

// MPI_Type_commit succeeded.
void MarkDatatypeCommitted(MPI_Datatype datatype);

// MPI_Type_set_name succeeded: the record takes the name MPI now reports.
void RenameDatatype(MPI_Datatype datatype);

// MPI's MPI_COMBINER_* value as enum mpidbg_combiner.
int32_t CombinerOf(int mpi_combiner);

// MPI_Type_get_contents hands back a new reference to every input type that is not
// predefined (MPI standard, MPI_TYPE_GET_CONTENTS), to be given back with
// MPI_Type_free: whether `t` is such a reference — not a named type nor one of
// MPI_Type_create_f90_* (predefined in MPI's sense, never freed).
bool IsContentsReference(MPI_Datatype t);

// MPICH's references are the input's own handle; Open MPI's are new types, one per
// reference and call.
constexpr bool kContentsAreNewTypes = MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_OPENMPI;

// MPICH gives a type a constructor makes no name (MPI_Type_get_name answers ""), so its
// record need not ask. Open MPI 4.1 names the types it makes as duplicates: those of
// MPI_Type_dup and MPI_Type_create_resized ("Dup MPI_INT", "Dup Dup MPI_INT") and every
// empty one ("Dup MPI_EMPTY", e.g. MPI_Type_contiguous of count 0); the other
// constructors' types have none. So a record asks only where a name may be
// (ConstructedTypeMayBeNamed).
constexpr bool kConstructedTypesAreUnnamed = MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_MPICH;

// Whether the type `creator` just made, of `size` bytes, may have a name already (the
// call's record asks MPI_Type_get_name only then).
constexpr bool ConstructedTypeMayBeNamed(int32_t creator, int64_t size) {
  if (kConstructedTypesAreUnnamed) return false;
  switch (creator) {
    case MPIDBG_CALL_MPI_Type_contiguous:
    case MPIDBG_CALL_MPI_Type_vector:
    case MPIDBG_CALL_MPI_Type_create_hvector:
    case MPIDBG_CALL_MPI_Type_indexed:
    case MPIDBG_CALL_MPI_Type_create_hindexed:
    case MPIDBG_CALL_MPI_Type_create_indexed_block:
    case MPIDBG_CALL_MPI_Type_create_hindexed_block:
    case MPIDBG_CALL_MPI_Type_create_struct:
    case MPIDBG_CALL_MPI_Type_create_subarray:
    case MPIDBG_CALL_MPI_Type_create_darray:
      return size == 0;
    default:
      return true;  // MPI_Type_dup, MPI_Type_create_resized, and any not measured
  }
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPE_REGISTRY_H
