// hooks_datatypes.cc — datatype constructors, commit, free and naming
// (gen/calls_datatypes.def). Not on a per-message path.
#include "rt/datatypes/hooks_datatypes.h"
#include "rt/process/registry.h"

#include "rt/datatypes/datatype_lifetime.h"
#include "rt/datatypes/datatype_registry.h"
#include "rt/datatypes/type_envelope.h"
#include "rt/handle_widening.h"

namespace mpidbg::rt {

void PostTypeCreate(CallFacts call, TypeCreateArgs& args, int rc) {
  RecheckFreedDatatypes();
  if (rc != MPI_SUCCESS || args.newtype == nullptr || *args.newtype == MPI_DATATYPE_NULL) return;
  RecordConstructedDatatype(*args.newtype, call.call, args, call.fortran);
}

void PostTypeCommit(CallFacts, TypeHandleArgs& args, int rc) {
  RecheckFreedDatatypes();
  if (rc != MPI_SUCCESS || args.datatype == nullptr) return;
  MarkDatatypeCommitted(*args.datatype);
}

// The record leaves the handle map before PMPI_Type_free: the moment that returns, MPI
// may give the same handle value to another thread's new type. Unless the application
// holds other references to the type (from MPI_Type_get_contents): then one of them is
// given back and the record stays.
void PreTypeFree(CallFacts, TypeHandleArgs& args) {
  if (args.datatype == nullptr) return;
  args.saved = HandleToU64(*args.datatype);
  if (DatatypeReferencesHeld()) {
    mpidbg_object_head* live = g_datatypes.FindLive(args.saved);
    if (live != nullptr && TakeDatatypeReference(live)) {
      args.reference = live;
      return;
    }
  }
  args.record = g_datatypes.Detach(args.saved);
}

void PostTypeFree(CallFacts, TypeHandleArgs& args, int rc) {
  if (args.reference != nullptr) {
    if (rc != MPI_SUCCESS) DatatypeReferenced(args.reference);  // still held
  } else if (rc == MPI_SUCCESS) {
    DatatypeFreed(args.record);
  } else {
    g_datatypes.Reattach(args.record);
  }
  RecheckFreedDatatypes();
}

void PostTypeSetName(CallFacts, TypeSetNameArgs& args, int rc) {
  if (rc == MPI_SUCCESS) RenameDatatype(args.datatype);
}

// The application's own MPI_Type_get_contents: every derived input type it hands back
// is a reference the application now holds and frees with MPI_Type_free. One that is a
// live record's own handle (MPICH hands out the input's handle value) counts as one more
// reference to that record. Any other (Open MPI hands out a new type each time; or an
// input the runtime never saw) gets a record of its own, whose free is then tracked; on
// Open MPI a live record of the same handle value can only be a stale one (its type
// freed where the runtime could not see), which recording the new type displaces.
// Predefined types (named, MPI_Type_create_f90_*) are never references.
void PostTypeGetContents(CallFacts call, TypeContentsArgs& args, int rc) {
  RecheckFreedDatatypes();
  if (rc != MPI_SUCCESS || args.types == nullptr || args.max_datatypes <= 0) return;
  TypeEnvelope e;
  if (!ReadTypeEnvelope(args.datatype, &e)) return;
  const int n = e.nd < args.max_datatypes ? e.nd : static_cast<int>(args.max_datatypes);
  for (int i = 0; i < n; ++i) {
    const MPI_Datatype t = args.types[i];
    if (t == MPI_DATATYPE_NULL || !IsContentsReference(t)) continue;
    mpidbg_object_head* live = kContentsAreNewTypes ? nullptr : g_datatypes.FindLive(HandleToU64(t));
    if (live != nullptr && (live->hdr.flags & MPIDBG_REC_PREDEFINED) != 0) continue;
    if (live != nullptr) {
      DatatypeReferenced(live);
    } else {
      RecordDatatype(t, call.call);
    }
  }
}

void PostTypeC2f(CallFacts, TypeC2fArgs& args, int index) {
  NoteDatatypeFortranIndex(args.datatype, index);
}

}  // namespace mpidbg::rt
