// pause_drain.cc — see pause_drain.h. Runs at a pause and in the completion calls a
// paused thread makes while requests from before its pause are pending: off the
// recording path.
#include "rt/hot/pause_drain.h"

#include "rt/handle_widening.h"
#include "rt/hot/flight_ring.h"
#include "rt/hot/operation_registry.h"

namespace mpidbg::rt {

void NotePausePending(ThreadState* ts) {
  uint64_t* const out = ts->pause_drain_requests;
  const int posted = PostedFlightRequests(ts, out, kPauseDrainMax);
  const int room = posted < kPauseDrainMax ? kPauseDrainMax - posted : 0;
  const int recorded = PendingOperationRequests(ts->tid, out + (kPauseDrainMax - room), room);
  const int n = posted + recorded;
  ts->pause_drain = n <= kPauseDrainMax ? n : kPauseDrainEvery;
}

namespace {
// Whether one of `count` handles, widened by `widen`, is a noted request.
template <typename Handle, typename Widen>
bool NamesNoted(const ThreadState* ts, const Handle* requests, int count, Widen widen) {
  if (ts->pause_drain == kPauseDrainEvery) return true;
  if (requests == nullptr) return false;
  for (int i = 0; i < count; ++i) {
    const uint64_t request = widen(requests[i]);
    for (int j = 0; j < ts->pause_drain; ++j) {
      if (ts->pause_drain_requests[j] == request) return true;
    }
  }
  return false;
}
}  // namespace

bool NamesPausePending(const ThreadState* ts, const MPI_Request* requests, int count) {
  return NamesNoted(ts, requests, count, [](MPI_Request r) { return HandleToU64(r); });
}

bool NamesPausePendingFortran(const ThreadState* ts, const MPI_Fint* requests, int count) {
  return NamesNoted(ts, requests, count,
                    [](MPI_Fint f) { return HandleToU64(PMPI_Request_f2c(f)); });
}

void DropCollectedPausePending(ThreadState* ts) {
  if (ts->pause_drain == kPauseDrainEvery) {
    NotePausePending(ts);
    return;
  }
  int kept = 0;
  for (int j = 0; j < ts->pause_drain; ++j) {
    const uint64_t h = ts->pause_drain_requests[j];
    if (FindFlight(h) != nullptr || OperationRequestPending(h)) ts->pause_drain_requests[kept++] = h;
  }
  ts->pause_drain = kept;
}

}  // namespace mpidbg::rt
