// datatype_lifetime.h — how long datatype records stay, and when a freed type counts
// as released by MPI.
//
// MPI keeps a freed datatype alive while derived types built from it exist or pending
// operations use it (MPI standard, MPI_TYPE_FREE). The records follow that:
//  - MPI_Type_free marks the record FREED at once, so a stale handle shows what it was.
//  - The record is also marked RELEASED once no unreleased derived type was built from
//    it and no op record (request or blocking call in progress) names its handle.
//    Operations are not watched as they complete: types kept back by them are checked
//    again at later datatype calls, so RELEASED may come late, never early.
//  - A freed record joins the orphan list (and its budget, oldest evicted first) only
//    when no kept record names it among its inputs; until then it is held outside the
//    budget. A reader can therefore rebuild the type map of every record it finds,
//    orphans included, from records alone.
// Not on a per-message path: datatype constructors and frees only.
#ifndef MPIDBG_RT_DATATYPE_LIFETIME_H
#define MPIDBG_RT_DATATYPE_LIFETIME_H

#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// A new derived type's record and the records of the non-predefined types its
// `types` array names (repeats allowed).
void NoteDatatypeInputs(mpidbg_object_head* rec, mpidbg_object_head* const* inputs, int n);

// MPI_Type_free succeeded for the record detached from the handle map before the call
// (ObjectRegistry::Detach); nullptr does nothing.
void DatatypeFreed(mpidbg_object_head* rec);

// Freed types that pending operations kept back: released now if none does any more.
void RecheckFreedDatatypes();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPE_LIFETIME_H
