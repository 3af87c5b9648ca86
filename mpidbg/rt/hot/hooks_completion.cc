// hooks_completion.cc — the Wait and Test families beyond the inline common case
// (hooks_completion.h describes both): under MPI_THREAD_MULTIPLE, Waitany/Waitsome and
// their Test forms, and calls that failed.
//
// HOT PATH: no heap allocation; PMPI_* only.
#include "rt/hot/hooks_completion.h"

#include "rt/hot/completion_count.h"
#include "rt/hot/operation_registry.h"
#include "rt/hot/traffic.h"

namespace mpidbg::rt {
namespace {

// Request i completed with `status` (nullptr if unknown). Under MPI_THREAD_MULTIPLE its
// record may already be gone (another thread got the handle again): only what the Pre
// hook saved is read.
void Retire(ThreadState* ts, const CompletionArgs& a, int i, const MPI_Status* status) {
  if (!a.saved) {
    RetireOwned(ts, i, status, HaveIdupPending());
    return;
  }
  CountFrom(ts, ts->saved_requests[i], status);
  RetireRequest(ts->saved_handles[i], ts->saved_records[i]);
  if (HaveIdupPending()) CompleteIdup(ts->saved_handles[i]);
}

}  // namespace

void CountFlightReceive(ThreadState* ts, const mpidbg_flight_entry& e, ReceivedMessage m) {
  SourceHint hint;
  hint.peer = e.peer;
  hint.peer_world = e.peer_world;
  hint.comm_handle = e.comm_handle;
  CountReceived(ts, e.comm_job_id, m, hint);
}

SharedCompletion PreCompletionShared(ThreadState* ts, CompletionArgs args) {
  const int n = args.tracked;
  FindOperationRecordsSaved(ts->saved_handles, n, ts->saved_records, ts->saved_requests);
  bool receives = false;
  for (int i = 0; i < n; ++i) {
    SavedRequest& r = ts->saved_requests[i];
    r.count_as = CountingOf(r);
    receives |= r.count_as == kFromStatus;
  }
  if (receives) KeepStatuses(ts, args);  // repoints the wrapper's own parameter
  return SharedCompletion{true, receives};
}

void PostCompletionGeneral(ThreadState* ts, CompletionArgs args, int rc) {
  const int n = args.tracked;
  if (rc == MPI_SUCCESS) {
    switch (args.kind) {
      case kCompleteOne:
        if (ReportedDone(args)) Retire(ts, args, 0, Single(args));
        return;
      case kCompleteAll:
        if (!ReportedDone(args)) return;
        for (int i = 0; i < n; ++i) Retire(ts, args, i, Element(args, i));
        return;
      case kCompleteAny:
        if (!ReportedDone(args) || args.index == nullptr) return;
        if (*args.index >= 0 && *args.index < n) Retire(ts, args, *args.index, Single(args));
        return;
      case kCompleteSome:
        if (args.outcount == nullptr || args.indices == nullptr || *args.outcount == MPI_UNDEFINED)
          return;
        for (int k = 0; k < *args.outcount && k < n; ++k) {
          if (args.indices[k] >= 0 && args.indices[k] < n) {
            Retire(ts, args, args.indices[k], Element(args, k));
          }
        }
        return;
    }
    return;
  }
  // On an error (e.g. MPI_ERR_IN_STATUS) trust only what MPI visibly did: a nonpersistent
  // request it completed is now MPI_REQUEST_NULL. A failed receive (a truncated one) was
  // still matched, so it is counted from its status where the status is known.
  const uint64_t null_handle = HandleToU64(MPI_REQUEST_NULL);
  for (int i = 0; i < n; ++i) {
    if (ts->saved_handles[i] == null_handle || HandleToU64(args.requests[i]) != null_handle)
      continue;
    const MPI_Status* status = nullptr;
    if (args.kind == kCompleteAll) {
      status = Element(args, i);
    } else if (args.kind == kCompleteSome) {
      if (args.outcount != nullptr && args.indices != nullptr && *args.outcount != MPI_UNDEFINED) {
        for (int k = 0; k < *args.outcount && k < n; ++k) {
          if (args.indices[k] == i) status = Element(args, k);
        }
      }
    } else {
      status = Single(args);
    }
    Retire(ts, args, i, status);
  }
}

}  // namespace mpidbg::rt
