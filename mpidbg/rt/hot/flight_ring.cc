// flight_ring.cc — the out-of-line half of flight_ring.h that runs inside MPI calls:
// carrying an entry into an operation record (a persistent request's start into the
// request's own), and the lifetime checks' scans. Runs once
// per lap of a ring for a request still pending, and on the rare paths named in
// flight_ring.h. Making and handing on rings (they allocate) is in
// rt/process/flight_ring_setup.cc.
#include "rt/hot/flight_ring.h"

#include <string.h>

#include "rt/process/registry.h"
#include "rt/hot/operation_registry.h"

namespace mpidbg::rt {

mpidbg_flight_entry* g_flight_map[kFlightMapSize];

namespace {

// The ring `e` sits in: its owner's thread record (a reader's way, through the thread
// table), or nullptr.
const mpidbg_thread_record* OwnerOf(const mpidbg_flight_entry* e) {
  const mpidbg_thread_record* owner = nullptr;
  const uintptr_t at = reinterpret_cast<uintptr_t>(e);
  ForEachRecord(mpidbg_runtime_root.threads, [&](mpidbg_record_header* h) {
    const auto* t = reinterpret_cast<const mpidbg_thread_record*>(h);
    const uint64_t first = __atomic_load_n(&t->flight_entries, __ATOMIC_ACQUIRE);
    if (owner == nullptr && first != 0 && at >= first &&
        at < first + uint64_t{t->flight_capacity} * sizeof(mpidbg_flight_entry)) {
      owner = t;
    }
  });
  return owner;
}

// Calls fn(entry) for every POSTED entry of every thread's ring.
template <typename Fn>
void ForEachPosted(Fn fn) {
  ForEachRecord(mpidbg_runtime_root.threads, [&](mpidbg_record_header* h) {
    const auto* t = reinterpret_cast<const mpidbg_thread_record*>(h);
    auto* entries = reinterpret_cast<const mpidbg_flight_entry*>(
        static_cast<uintptr_t>(__atomic_load_n(&t->flight_entries, __ATOMIC_ACQUIRE)));
    if (entries == nullptr) return;
    for (uint32_t i = 0; i < t->flight_capacity; ++i) {
      if (__atomic_load_n(&entries[i].state, __ATOMIC_RELAXED) == MPIDBG_FLIGHT_POSTED) fn(entries[i]);
    }
  });
}

}  // namespace

void CarryFlightEntry(ThreadState* ts, mpidbg_flight_entry* e) {
  const mpidbg_thread_record* owner =
      ts->flight != nullptr && e >= ts->flight && e <= ts->flight + ts->flight_mask ? ts->rec : OwnerOf(e);
  const uint64_t tid = owner != nullptr ? owner->tid : ts->tid;
  // A persistent request's start goes into the request's own record.
  if ((e->flags & MPIDBG_FLIGHT_START) != 0 && CarryStartIntoRecord(*e, tid)) {
    e->state = MPIDBG_FLIGHT_CARRIED;
    return;
  }
  mpidbg_operation_record body;
  mpidbg_operation_from_flight(e, tid, &body);
  // The name from the type's record, not from MPI: a derived type may have been freed
  // by the application since (MPI keeps it for the request; its handle is no longer valid).
  if (e->datatype != 0) {
    if (const mpidbg_object_head* type = g_datatypes.Find(e->datatype)) {
      memcpy(body.datatype_name, type->name, sizeof body.datatype_name - 1);
    }
  }
  TrackCarriedRequest(ts, body);
  e->state = MPIDBG_FLIGHT_CARRIED;
}

mpidbg_flight_entry* LastCompletedPost(const ThreadState* ts, uint64_t request) {
  if (ts->flight == nullptr) return nullptr;
  const uint64_t head = ts->flight_head;
  const uint64_t oldest = head > ts->flight_mask ? head - ts->flight_mask - 1 : 0;
  for (uint64_t p = head; p > oldest; --p) {
    mpidbg_flight_entry* e = &ts->flight[(p - 1) & ts->flight_mask];
    if (e->seq == static_cast<uint32_t>(2 * p) && e->request == request &&
        e->state == MPIDBG_FLIGHT_DONE) {
      return e;
    }
  }
  return nullptr;
}

bool FlightRingsUseDatatype(uint64_t handle) {
  bool used = false;
  ForEachPosted([&](const mpidbg_flight_entry& e) { used = used || e.datatype == handle; });
  return used;
}

bool FlightRingsUseJobId(uint64_t job_id) {
  bool used = false;
  ForEachPosted([&](const mpidbg_flight_entry& e) { used = used || e.comm_job_id == job_id; });
  return used;
}

int PostedFlightRequests(const ThreadState* ts, uint64_t* out, int max) {
  if (ts->flight == nullptr) return 0;
  int n = 0;
  for (uint64_t i = 0; i <= ts->flight_mask; ++i) {
    const mpidbg_flight_entry& e = ts->flight[i];
    if (e.state != MPIDBG_FLIGHT_POSTED || e.request == 0) continue;  // 0: a blocking call's
    if (n < max) out[n] = e.request;
    ++n;
  }
  return n;
}

bool FlightRingHoldsPending(const ThreadState* ts) {
  if (ts->flight == nullptr) return false;
  for (uint64_t i = 0; i <= ts->flight_mask; ++i) {
    if (ts->flight[i].state == MPIDBG_FLIGHT_POSTED) return true;
  }
  return false;
}

}  // namespace mpidbg::rt
