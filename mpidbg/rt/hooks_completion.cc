// hooks_completion.cc — the Wait and Test families.
//
// HOT PATH: no heap allocation except growing the per-thread scratch; PMPI_* only.
// Before the call the request handles are copied (MPI overwrites completed ones with
// MPI_REQUEST_NULL) together with their op records; after it, receives that completed
// are counted from their statuses (rt/traffic.h), and the records of the requests that
// completed are released, or marked inactive if persistent.
//
// Statuses: when a tracked request is a receive counted at completion and the caller
// passed MPI_STATUS(ES)_IGNORE, the call gets the thread's own status storage instead
// (the parameter is repointed before PMPI runs; the caller's view does not change).
// Both MPIs return the same codes either way, MPI_ERR_IN_STATUS included.
#include "rt/handles.h"
#include "rt/hook_args.h"
#include "rt/hooks.h"
#include "rt/op_registry.h"
#include "rt/traffic.h"

namespace mpidbg::rt {
namespace {

int RequestCount(const CompletionArgs& a) {
  if (a.requests == nullptr) return 0;
  if (a.kind == kCompleteOne) return 1;
  return a.count > 0 ? a.count : 0;
}

// How a completed request is counted as a receive.
enum ReceiveCounting {
  kNotCounted = 0,   // not a receive; a matched message's (MPI_Imrecv: counted at the
                     // probe); one from MPI_PROC_NULL
  kFromStatus = 1,   // under the status's source and tag
  kFromPosting = 2,  // MPI_Isendrecv: MPICH 4.0 leaves its status empty, so the posted
                     // source and tag (when not wildcards) and the posted size
};

int32_t CountingOf(const SavedRequest& r) {
  if (r.direction != MPIDBG_OP_RECV || r.call == MPIDBG_CALL_MPI_Imrecv ||
      r.peer == MPIDBG_RANK_PROC_NULL) {
    return kNotCounted;
  }
  if (r.call == MPIDBG_CALL_MPI_Isendrecv || r.call == MPIDBG_CALL_MPI_Isendrecv_replace) {
    return r.peer >= 0 && r.tag != MPIDBG_TAG_ANY ? kFromPosting : kNotCounted;
  }
  return kFromStatus;
}

void CountFrom(ThreadState* ts, const SavedRequest& r, const MPI_Status* status) {
  if (r.count_as == kNotCounted) return;
  SourceHint hint;
  hint.peer = r.peer;
  hint.peer_world = r.peer_world;
  hint.comm_handle = r.comm_handle;
  if (r.count_as == kFromPosting) {
    ReceivedMessage m;
    m.source = r.peer;
    m.tag = r.tag;
    m.bytes = r.bytes;
    CountReceived(ts, r.comm_job_id, m, hint);
  } else if (status != nullptr && status != MPI_STATUS_IGNORE) {
    CountReceive(ts, r.comm_job_id, *status, hint);
  }
}

// Request i completed with `status` (nullptr if unknown). Its record may already be
// gone (another thread got the handle again): only the saved copy is read.
void Retire(ThreadState* ts, int i, const MPI_Status* status) {
  CountFrom(ts, ts->saved_requests[i], status);
  RetireRequest(ts->saved_handles[i], ts->saved_ops[i]);
  if (HaveIdupPending()) CompleteIdup(ts->saved_handles[i]);
}

bool ReportedDone(const CompletionArgs& a) { return a.flag == nullptr || *a.flag != 0; }

const MPI_Status* Single(const CompletionArgs& a) {
  return a.status != nullptr ? *a.status : nullptr;
}

const MPI_Status* Element(const CompletionArgs& a, int i) {
  if (a.statuses == nullptr || *a.statuses == MPI_STATUSES_IGNORE) return nullptr;
  return *a.statuses + i;
}

}  // namespace

void PreCompletion(CallScope& scope, CompletionArgs& args) {
  const int n = RequestCount(args);
  scope.detail().requests = AddressOf(args.requests);
  scope.detail().request_count = n;
  ThreadState* ts = scope.thread();
  if (n == 0 || !ReserveScratch(ts, n)) return;
  for (int i = 0; i < n; ++i) ts->saved_handles[i] = HandleToU64(args.requests[i]);
  FindRequestOpsSaved(ts->saved_handles, n, ts->saved_ops, ts->saved_requests);
  args.tracked = n;
  for (int i = 0; i < n; ++i) {
    SavedRequest& r = ts->saved_requests[i];
    r.count_as = CountingOf(r);
    args.receives |= r.count_as == kFromStatus;
  }
  if (!args.receives) return;
  if (args.status != nullptr && *args.status == MPI_STATUS_IGNORE) *args.status = &ts->own_status[0];
  if (args.statuses != nullptr && *args.statuses == MPI_STATUSES_IGNORE) *args.statuses = ts->statuses;
}

void PostCompletion(CallScope& scope, CompletionArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  const int n = args.tracked;
  if (n == 0) return;
  if (rc == MPI_SUCCESS) {
    switch (args.kind) {
      case kCompleteOne:
        if (ReportedDone(args)) Retire(ts, 0, Single(args));
        return;
      case kCompleteAll:
        if (!ReportedDone(args)) return;
        for (int i = 0; i < n; ++i) Retire(ts, i, Element(args, i));
        return;
      case kCompleteAny:
        if (!ReportedDone(args) || args.index == nullptr) return;
        if (*args.index >= 0 && *args.index < n) Retire(ts, *args.index, Single(args));
        return;
      case kCompleteSome:
        if (args.outcount == nullptr || args.indices == nullptr || *args.outcount == MPI_UNDEFINED)
          return;
        for (int k = 0; k < *args.outcount && k < n; ++k) {
          if (args.indices[k] >= 0 && args.indices[k] < n) Retire(ts, args.indices[k], Element(args, k));
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
    Retire(ts, i, status);
  }
}

}  // namespace mpidbg::rt
