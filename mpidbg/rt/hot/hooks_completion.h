// hooks_completion.h — the hooks of the Wait and Test families, inline in the generated
// wrappers for the common case: below MPI_THREAD_MULTIPLE, a Wait/Test of one request,
// of all of them or of any of them that succeeded, and a Testsome that found none.
// Everything else (under MPI_THREAD_MULTIPLE, Some that completed requests, errors) is
// in hooks_completion.cc.
//
// HOT PATH: no heap allocation except growing the per-thread scratch; PMPI_* only.
// Before the call the request handles are copied (MPI overwrites completed ones with
// MPI_REQUEST_NULL); after it, receives that completed are counted from their statuses
// (rt/hot/completion_count.h), and the records of the requests that completed are released,
// or marked inactive if persistent.
//
// Below MPI_THREAD_MULTIPLE no other thread can touch the request index or a record
// while this one is in MPI, so each record is looked up once, after the call. Under it,
// MPI may hand a completed request's handle to another thread before this thread's Post
// hook runs, so the records are looked up, and what counting needs of them copied,
// before the call (hooks_completion.cc).
//
// Statuses: when the caller passed MPI_STATUS(ES)_IGNORE and the runtime may need a
// status to count a receive (below MPI_THREAD_MULTIPLE: always, since MPI writing a
// status costs less than looking every request up twice; under it: when a tracked
// request is a receive counted at completion), the call gets the thread's own status
// storage instead (the parameter is repointed before PMPI runs; the caller's view does
// not change). Both MPIs return the same codes either way, MPI_ERR_IN_STATUS included.
#ifndef MPIDBG_RT_HOOKS_COMPLETION_H
#define MPIDBG_RT_HOOKS_COMPLETION_H

#include <mpi.h>

#include "core/concurrency.h"
#include "core/inline.h"
#include "rt/handle_widening.h"
#include "rt/hot/completed_request.h"
#include "rt/hot/flight_ring.h"
#include "rt/hot/hook_args.h"
#include "rt/hot/operation_registry.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/traffic.h"

namespace mpidbg::rt {

// --- out of line (hooks_completion.cc); values in, values out (see hooks_p2p.h) ---
// Pre, under MPI_THREAD_MULTIPLE: the records of the saved handles and what counting
// needs of them, and the statuses kept if a receive is among them. Returns only what it
// changed of the arguments, so the wrapper's constant roles (kind) stay folded.
struct SharedCompletion {
  bool saved;
  bool receives;
};
SharedCompletion PreCompletionShared(ThreadState* ts, CompletionArgs args);
// Post, every case but the inline ones.
void PostCompletionGeneral(ThreadState* ts, CompletionArgs args, int rc);
// Completion of an MPI_Comm_idup request publishes the new communicator (hooks_comm.cc).
void CompleteIdup(uint64_t request);
bool HaveIdupPending();

MPIDBG_ALWAYS_INLINE int RequestCount(const CompletionArgs& a) {
  if (a.requests == nullptr) return 0;
  if (a.kind == kCompleteOne) return 1;
  return a.count > 0 ? a.count : 0;
}

// The thread's own status storage in place of MPI_STATUS(ES)_IGNORE (the scratch holds
// at least as many statuses as the call has requests).
MPIDBG_ALWAYS_INLINE void KeepStatuses(ThreadState* ts, CompletionArgs& a) {
  if (a.status != nullptr && *a.status == MPI_STATUS_IGNORE) *a.status = &ts->own_status[0];
  if (a.statuses != nullptr && *a.statuses == MPI_STATUSES_IGNORE) *a.statuses = ts->statuses;
}

MPIDBG_ALWAYS_INLINE bool ReportedDone(const CompletionArgs& a) {
  return a.flag == nullptr || *a.flag != 0;
}

MPIDBG_ALWAYS_INLINE const MPI_Status* Single(const CompletionArgs& a) {
  return a.status != nullptr ? *a.status : nullptr;
}

MPIDBG_ALWAYS_INLINE const MPI_Status* Element(const CompletionArgs& a, int i) {
  if (a.statuses == nullptr || *a.statuses == MPI_STATUSES_IGNORE) return nullptr;
  return *a.statuses + i;
}

// A receive's flight entry completed with message `m` (hooks_completion.cc): counted
// the general way, the entry's envelope the hint for the source's world rank.
void CountFlightReceive(ThreadState* ts, const mpidbg_flight_entry& e, ReceivedMessage m);

// A flight entry's request completed with `status`: DONE, and a receive counted. The
// traffic entry the thread counted its last receive of that source and tag into is
// tried first (flight entries exist only below MPI_THREAD_MULTIPLE: a plain add); a new
// key, or monitoring on, goes out of line.
MPIDBG_ALWAYS_INLINE void CompleteFlight(ThreadState* ts, mpidbg_flight_entry* e,
                                         const MPI_Status* status) {
  e->state = MPIDBG_FLIGHT_DONE;
  if (e->direction != MPIDBG_OPERATION_RECV || e->peer == MPIDBG_RANK_PROC_NULL ||
      status == nullptr || status == MPI_STATUS_IGNORE) {
    return;
  }
  ReceivedMessage m;
  if ((g_traffic_hot.entries == nullptr && !MonitorOn()) || !ReadStatus(*status, &m)) return;
  mpidbg_traffic_entry* t = ts->receive_entries[TrafficCacheSlot(m.source, m.tag)];
  if (__builtin_expect(t != nullptr && TrafficMatches(t, e->comm_job_id, m.source, m.tag) &&
                           !MonitorOn(), 1)) {
    AddMessage(&t->receives, &t->receive_bytes, static_cast<uint64_t>(m.bytes), false);
    return;
  }
  CountFlightReceive(ts, *e, m);
}

// Request i (below MPI_THREAD_MULTIPLE) completed with `status` (nullptr if unknown);
// `idup`: an MPI_Comm_idup was pending when the call returned (none can start during
// the Post hook, which makes no MPI call).
MPIDBG_ALWAYS_INLINE void RetireOwned(ThreadState* ts, int i, const MPI_Status* status,
                                      bool idup) {
  const uint64_t request = ts->saved_handles[i];
  // An operation MPI completed when it was posted has a DONE entry outside the map
  // (completed_request.h): nothing to find.
  mpidbg_flight_entry* e = CompletedRequestHandle(request) ? nullptr : FindFlight(request);
  if (e != nullptr) {
    CompleteFlight(ts, e, status);
  } else if (g_requests.size() != 0) {
    // With nothing indexed there is nothing to retire: MPICH's shared handle of sends
    // that completed at once comes back often, its entry already DONE.
    RetireOwnedRequest(ts, request, status);
  }
  if (idup) CompleteIdup(request);
}

MPIDBG_ALWAYS_INLINE void PreCompletion(CallScope& scope, CompletionArgs& args) {
  const int n = RequestCount(args);
  scope.SetRequests(AddressOf(args.requests), n);
  ThreadState* ts = scope.thread();
  if (n == 0 || !ReserveScratch(ts, n)) return;
  for (int i = 0; i < n; ++i) ts->saved_handles[i] = HandleToU64(args.requests[i]);
  args.tracked = n;
  if (__builtin_expect(core::Concurrent(), 0)) {
    const SharedCompletion shared = PreCompletionShared(ts, args);
    args.saved = shared.saved;
    args.receives = shared.receives;
    return;
  }
  KeepStatuses(ts, args);
}

MPIDBG_ALWAYS_INLINE void PostCompletion(CallScope& scope, CompletionArgs& args, int rc) {
  const int n = args.tracked;
  if (n == 0) return;
  ThreadState* ts = scope.thread();
  if (!args.saved && rc == MPI_SUCCESS) {
    if (args.kind == kCompleteOne) {
      if (ReportedDone(args)) RetireOwned(ts, 0, Single(args), HaveIdupPending());
      return;
    }
    if (args.kind == kCompleteAll) {
      if (!ReportedDone(args)) return;
      const bool idup = HaveIdupPending();
      for (int i = 0; i < n; ++i) RetireOwned(ts, i, Element(args, i), idup);
      return;
    }
    // A poll that found nothing (Testany's flag 0, Testsome's outcount 0) retires
    // nothing: programs that wait by testing make it millions of times.
    if (args.kind == kCompleteAny) {
      if (!ReportedDone(args) || args.index == nullptr) return;
      const int i = *args.index;
      if (i >= 0 && i < n) RetireOwned(ts, i, Single(args), HaveIdupPending());
      return;
    }
    if (args.kind == kCompleteSome && args.outcount != nullptr && *args.outcount == 0) return;
  }
  PostCompletionGeneral(ts, args, rc);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_COMPLETION_H
