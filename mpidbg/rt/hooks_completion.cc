// hooks_completion.cc — the Wait and Test families.
//
// HOT PATH: no heap allocation except growing the per-thread scratch; PMPI_* only.
// Before the call the request handles are copied (MPI overwrites completed ones with
// MPI_REQUEST_NULL) together with their op records; after it, the records of the
// requests that completed are released, or marked inactive if persistent.
#include "rt/handles.h"
#include "rt/hooks.h"
#include "rt/op_registry.h"

namespace mpidbg::rt {
namespace {

int RequestCount(const CompletionArgs& a) {
  if (a.requests == nullptr) return 0;
  if (a.kind == kCompleteOne) return 1;
  return a.count > 0 ? a.count : 0;
}

void Retire(ThreadState* ts, int i) {
  RetireRequest(ts->saved_handles[i], ts->saved_ops[i]);
  if (HaveIdupPending()) CompleteIdup(ts->saved_handles[i]);
}

bool ReportedDone(const CompletionArgs& a) { return a.flag == nullptr || *a.flag != 0; }

}  // namespace

void PreCompletion(CallScope& scope, CompletionArgs& args) {
  const int n = RequestCount(args);
  scope.detail().requests = AddressOf(args.requests);
  scope.detail().request_count = n;
  ThreadState* ts = scope.thread();
  if (n == 0 || !ReserveScratch(ts, n)) return;
  for (int i = 0; i < n; ++i) ts->saved_handles[i] = HandleToU64(args.requests[i]);
  FindRequestOps(ts->saved_handles, n, ts->saved_ops);
  args.tracked = n;
}

void PostCompletion(CallScope& scope, CompletionArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  const int n = args.tracked;
  if (n == 0) return;
  if (rc == MPI_SUCCESS) {
    switch (args.kind) {
      case kCompleteOne:
      case kCompleteAll:
        if (!ReportedDone(args)) return;
        for (int i = 0; i < n; ++i) Retire(ts, i);
        return;
      case kCompleteAny:
        if (!ReportedDone(args) || args.index == nullptr) return;
        if (*args.index >= 0 && *args.index < n) Retire(ts, *args.index);
        return;
      case kCompleteSome:
        if (args.outcount == nullptr || args.indices == nullptr || *args.outcount == MPI_UNDEFINED)
          return;
        for (int k = 0; k < *args.outcount && k < n; ++k) {
          if (args.indices[k] >= 0 && args.indices[k] < n) Retire(ts, args.indices[k]);
        }
        return;
    }
    return;
  }
  // On an error (e.g. MPI_ERR_IN_STATUS) trust only what MPI visibly did: a nonpersistent
  // request it completed is now MPI_REQUEST_NULL.
  const uint64_t null_handle = HandleToU64(MPI_REQUEST_NULL);
  for (int i = 0; i < n; ++i) {
    if (ts->saved_handles[i] != null_handle && HandleToU64(args.requests[i]) == null_handle)
      Retire(ts, i);
  }
}

}  // namespace mpidbg::rt
