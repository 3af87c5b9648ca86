// hooks_datatypes.cc — datatype constructors, commit, free and naming
// (gen/calls_datatypes.def). Not on a per-message path.
#include "rt/hooks_datatypes.h"
#include "rt/registry.h"

#include "rt/datatype_lifetime.h"
#include "rt/datatype_registry.h"
#include "rt/handles.h"

namespace mpidbg::rt {

void PreTypeCreate(CallScope&, TypeCreateArgs&) {}

void PostTypeCreate(CallScope& scope, TypeCreateArgs& args, int rc) {
  RecheckFreedDatatypes();
  if (rc != MPI_SUCCESS || args.newtype == nullptr || *args.newtype == MPI_DATATYPE_NULL) return;
  RecordDatatype(*args.newtype, scope.call(), args.inputs, args.ninputs);
}

void PreTypeCommit(CallScope&, TypeHandleArgs&) {}

void PostTypeCommit(CallScope&, TypeHandleArgs& args, int rc) {
  RecheckFreedDatatypes();
  if (rc != MPI_SUCCESS || args.datatype == nullptr) return;
  MarkDatatypeCommitted(*args.datatype);
}

// The record leaves the handle map before PMPI_Type_free: the moment that returns, MPI
// may give the same handle value to another thread's new type.
void PreTypeFree(CallScope&, TypeHandleArgs& args) {
  if (args.datatype == nullptr) return;
  args.saved = HandleToU64(*args.datatype);
  args.record = g_datatypes.Detach(args.saved);
}

void PostTypeFree(CallScope&, TypeHandleArgs& args, int rc) {
  if (rc == MPI_SUCCESS) {
    DatatypeFreed(args.record);
  } else {
    g_datatypes.Reattach(args.record);
  }
  RecheckFreedDatatypes();
}

void PreTypeSetName(CallScope&, TypeSetNameArgs&) {}

void PostTypeSetName(CallScope&, TypeSetNameArgs& args, int rc) {
  if (rc == MPI_SUCCESS) RenameDatatype(args.datatype);
}

}  // namespace mpidbg::rt
