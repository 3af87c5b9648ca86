// datatype_lifetime.h — how long datatype records stay, and when a freed type counts
// as released by MPI.
//
// MPI keeps a freed datatype alive while derived types built from it exist or pending
// operations use it (MPI standard, MPI_TYPE_FREE). The records follow that:
//  - MPI_Type_free marks the record FREED at once, so a stale handle shows what it was.
//  - MPI_Type_get_contents hands the application more references to a derived type
//    (MPICH: the type's own handle value). Each one counts: MPI_Type_free of a handle
//    the application holds several references to gives one back, and only the free of
//    the last marks the record FREED.
//  - The record is also marked RELEASED once no unreleased derived type was built from
//    it, no op record (request or blocking call in progress) names its handle and no
//    open file's record names it as the etype or filetype of its view. Operations and
//    views are not watched as they change: types kept back by them are checked again at
//    later datatype calls and at MPI_File_set_view and MPI_File_close, so RELEASED may
//    come late, never early.
//  - A freed record joins the orphan list (and its budget, oldest evicted first) only
//    when no kept record names it among its inputs and no open file's view names it;
//    until then it is held outside the budget. A reader can therefore rebuild the type
//    map of every record it finds, orphans included, and of every file view, from
//    records alone.
// Not on a per-message path: datatype calls and file view changes only.
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

// MPI_Type_get_contents handed the application one more reference to the type of the
// live record `rec` (its own handle value); nullptr or a predefined record does nothing.
void DatatypeReferenced(mpidbg_object_head* rec);

// Before MPI_Type_free of the handle of the live record `rec`: true when the
// application holds more than one reference to it, one of which is taken now (the
// record stays live; DatatypeReferenced gives it back if the free fails). False when
// this is the last reference: the record is freed the plain way.
bool TakeDatatypeReference(mpidbg_object_head* rec);

// Whether the application holds a second reference to any type at all (cheap, no lock):
// while it does not, TakeDatatypeReference is false for every record.
bool DatatypeReferencesHeld();

// Freed types that pending operations or file views kept back: released now if none
// does any more.
void RecheckFreedDatatypes();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DATATYPE_LIFETIME_H
