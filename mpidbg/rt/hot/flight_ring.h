// flight_ring.h — a thread's flight ring (records.h, mpidbg_flight_entry): the nonblocking
// point-to-point requests it posts below MPI_THREAD_MULTIPLE, one fixed-size entry
// each, appended with one release store; completion marks the entry DONE. A reader
// derives the pending requests from the POSTED entries. No index is kept on the call:
// completion finds an entry again through a direct-mapped table by handle.
//
// HOT PATH: no lock, no heap allocation, no system call. The ring is allocated on the
// thread's first post (flight_ring.cc), and an entry leaves the ring only through
// CarryFlightEntry, out of line: into an operation record with the same fields, before
// its slot is reused while still pending (so nothing pending is ever lost however long
// it waits), when its map slot is wanted by another pending request, and when the
// request is freed (MPI_Request_free keeps it as an orphan record).
//
// Only below MPI_THREAD_MULTIPLE, once MPI_Init has said so (core::Concurrent() false):
// one thread at a time is in MPI, so the map and the entries are read and written with
// plain accesses, and a handle MPI hands out again belongs to a request that completed
// (the previous entry under it is marked DONE: completed unseen). Under it requests get
// operation records as before (operation_registry.h).
#ifndef MPIDBG_RT_FLIGHT_RING_H
#define MPIDBG_RT_FLIGHT_RING_H

#include <stdint.h>

#include "core/inline.h"
#include "mpidbg/records.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// The direct-mapped table: a request handle's slot holds the entry last posted under a
// handle of that slot. Process-wide (a request may be completed by another thread than
// the one that posted it). An entry is found only if it still holds the handle and is
// POSTED, so a slot may name an entry since reused for another post.
constexpr uint32_t kFlightMapBits = 12;
constexpr uint32_t kFlightMapSize = 1u << kFlightMapBits;
extern mpidbg_flight_entry* g_flight_map[kFlightMapSize];

// Entries in a new ring (MPIDBG_FLIGHT_RING, a power of two, 64 to 65536; default 1024;
// 0 turns the rings off: every request gets an operation record).
extern uint32_t g_flight_capacity;

// Fibonacci hashing: MPICH's request handles differ in their low index bits, Open MPI's
// are object addresses; both spread over the slots.
MPIDBG_ALWAYS_INLINE uint32_t FlightSlot(uint64_t request) {
  return static_cast<uint32_t>((request * 0x9E3779B97F4A7C15ull) >> (64 - kFlightMapBits));
}

// --- out of line (flight_ring.cc) ---
// Allocates the thread's ring and publishes it in its record; false when rings are off
// or memory ran out (the caller then makes an operation record).
bool OpenFlightRing(ThreadState* ts);
// A POSTED entry becomes an operation record with the same fields, indexed under its
// request (a persistent request's start, MPIDBG_FLIGHT_START: the request's own record
// takes it as started), then the entry is marked CARRIED.
void CarryFlightEntry(ThreadState* ts, mpidbg_flight_entry* e);
// Whether a POSTED entry of any thread's ring names this datatype handle / this
// communicator job id (read the way a debugger reads the rings; for the lifetime checks
// of MPI_Type_free and MPI_Comm_free).
bool FlightRingsUseDatatype(uint64_t handle);
bool FlightRingsUseJobId(uint64_t job_id);
// The thread's newest whole entry of a post under `request` that is DONE (a shared
// completed request handle's: completed_request.h), or nullptr: for MPI_Request_free of
// that handle. Walks the ring back from its head (the post is usually the newest).
mpidbg_flight_entry* LastCompletedPost(const ThreadState* ts, uint64_t request);
// The requests of the thread's POSTED entries (blocking calls' aside), the first `max`
// into `out`; returns how many there are. For a pause (rt/hot/pause_drain.h).
int PostedFlightRequests(const ThreadState* ts, uint64_t* out, int max);
// Thread exit: whether the thread's ring still holds a POSTED entry. Such a ring (and its
// thread record, through which readers find it) is kept; entries of it can still be
// completed through the map by other threads.
bool FlightRingHoldsPending(const ThreadState* ts);
// Thread exit: the ring goes to the next thread that opens one. One that still holds a
// pending request (`holds_pending`, its record kept) is taken first, and its pending
// entries are carried into operation records and its record released before reuse.
void GiveBackFlightRing(ThreadState* ts, bool holds_pending);

// The POSTED entry of `request`, or nullptr.
MPIDBG_ALWAYS_INLINE mpidbg_flight_entry* FindFlight(uint64_t request) {
  mpidbg_flight_entry* e = g_flight_map[FlightSlot(request)];
  if (e == nullptr || e->request != request || e->state != MPIDBG_FLIGHT_POSTED) return nullptr;
  return e;
}

// The map forgets `request` (its request was freed): a later request under the same
// handle value finds no entry of this one's.
MPIDBG_ALWAYS_INLINE void ForgetFlightHandle(uint64_t request) {
  mpidbg_flight_entry** slot = &g_flight_map[FlightSlot(request)];
  if (*slot != nullptr && (*slot)->request == request) *slot = nullptr;
}

// MPI handed `request` out for a request that gets an operation record: a POSTED entry
// under it completed unseen.
MPIDBG_ALWAYS_INLINE void FlightHandleReused(uint64_t request) {
  if (mpidbg_flight_entry* e = FindFlight(request)) e->state = MPIDBG_FLIGHT_DONE;
}

// Opens the next entry of the thread's ring for a post of `request` (seq odd, state
// POSTED); kBlocking: a blocking call's envelope (request 0), which the map does not
// hold (it is DONE before the thread posts again). The caller writes every other field,
// then PublishFlightEntry. nullptr when the thread has no ring (then the caller makes an
// operation record).
// `completed`: an operation MPI completed inside the posting call (completed_request.h):
// its entry is DONE from the start and not in the map.
template <bool kBlocking>
MPIDBG_ALWAYS_INLINE mpidbg_flight_entry* OpenFlightEntry(ThreadState* ts, uint64_t request,
                                                          bool completed = false) {
  if (__builtin_expect(ts->flight == nullptr, 0) && !OpenFlightRing(ts)) return nullptr;
  const uint64_t p = ts->flight_head;
  mpidbg_flight_entry* e = &ts->flight[p & ts->flight_mask];
  // Still pending from a lap ago: carried before its slot is reused.
  if (__builtin_expect(e->state == MPIDBG_FLIGHT_POSTED, 0)) CarryFlightEntry(ts, e);
  if (kBlocking || completed) {
    __atomic_store_n(&e->seq, static_cast<uint32_t>(2 * p + 1), __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_RELEASE);
    e->state = kBlocking ? MPIDBG_FLIGHT_POSTED : MPIDBG_FLIGHT_DONE;
    e->flags = 0;
    e->request = request;
    return e;
  }
  mpidbg_flight_entry** slot = &g_flight_map[FlightSlot(request)];
  mpidbg_flight_entry* prev = *slot;
  if (prev != nullptr && prev->state == MPIDBG_FLIGHT_POSTED) {
    if (prev->request == request) {
      prev->state = MPIDBG_FLIGHT_DONE;  // its request completed unseen: MPI reused the handle
    } else if (FlightSlot(prev->request) == FlightSlot(request)) {
      CarryFlightEntry(ts, prev);  // another pending request's slot: it keeps a record
    }
  }
  __atomic_store_n(&e->seq, static_cast<uint32_t>(2 * p + 1), __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_RELEASE);  // seq odd before the body changes (same thread: a stop)
  e->state = MPIDBG_FLIGHT_POSTED;
  e->flags = 0;
  e->request = request;
  *slot = e;
  return e;
}

// Makes the opened entry whole: seq even (its position's), then the ring's head.
MPIDBG_ALWAYS_INLINE void PublishFlightEntry(ThreadState* ts, mpidbg_flight_entry* e) {
  const uint64_t p = ts->flight_head;
  __atomic_store_n(&e->seq, static_cast<uint32_t>(2 * p + 2), __ATOMIC_RELEASE);
  ts->flight_head = p + 1;
  __atomic_store_n(&ts->rec->flight_head, p + 1, __ATOMIC_RELEASE);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_FLIGHT_RING_H
