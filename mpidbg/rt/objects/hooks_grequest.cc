// hooks_grequest.cc — generalized requests (gen/calls_grequest.def). PMPI_* only.
//
// MPI_Grequest_start records a request like any other (direction GENERALIZED, with the
// extra_state and query function the application gave). MPI_Grequest_complete marks it
// COMPLETE; the wait or test that collects it retires it through the completion hooks.
#include "rt/objects/hooks_grequest.h"

#include <stdint.h>

#include "rt/handle_widening.h"
#include "rt/hot/operation_registry.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

void PreGrequestStart(CallScope&, GrequestStartArgs&) {}

void PostGrequestStart(CallScope& scope, GrequestStartArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  OperationDescription d;
  d.call = scope.call();
  d.direction = MPIDBG_OPERATION_GENERALIZED;
  d.peer = MPIDBG_RANK_UNKNOWN;
  d.tag = MPIDBG_TAG_ANY;
  d.bytes = 0;
  d.extra_state = AddressOf(args.extra_state);
  d.query_fn = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(args.query_fn));
  TrackRequest(HandleToU64(*args.request), d, 0, scope.thread()->tid);
}

// Marked before MPI learns of the completion: until PMPI_Grequest_complete runs, no
// wait can return the request and retire its record, so the record is still there.
void PreGrequestComplete(CallScope&, GrequestCompleteArgs& args) {
  if (args.request == MPI_REQUEST_NULL) return;
  const uint64_t handle = HandleToU64(args.request);
  mpidbg_operation_record* rec = FindOperationRecord(handle);
  if (rec == nullptr || rec->request != handle || rec->direction != MPIDBG_OPERATION_GENERALIZED) return;
  g_operation_table.BeginUpdate(&rec->hdr);
  rec->status = MPIDBG_OPERATION_COMPLETE;
  g_operation_table.EndUpdate(&rec->hdr);
}

void PostGrequestComplete(CallScope&, GrequestCompleteArgs&, int) {}

}  // namespace mpidbg::rt
