// flight_ring_setup.cc — making a thread's flight ring (rt/hot/flight_ring.h) on its
// first post, handing it on when the thread exits, and the ring size read at MPI_Init.
// Cold: allocates, takes a lock; once per thread.
#include <stdlib.h>

#include "core/spinlock.h"
#include "rt/hot/completed_request.h"
#include "rt/hot/flight_ring.h"
#include "rt/process/init_steps.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

uint32_t g_flight_capacity = 1024;

namespace {

constexpr uint32_t kMinCapacity = 64;
constexpr uint32_t kMaxCapacity = 65536;

// Rings of threads that exited, for the next thread that posts. A ring is never freed:
// the map may still name its entries (harmless, since a lookup checks the handle and the
// state), and freeing it would make that a read of freed memory.
//  - g_spare: rings that held nothing pending.
//  - g_held: rings that still held a pending request, with the exited thread's record
//    (`holder`) through which readers find them. The next thread that opens a ring takes
//    one of these first: inside its MPI call it carries the pending entries into
//    operation records (which other threads complete through the request index), then
//    the record goes. So threads that come and go, each leaving a request behind, keep
//    at most a few rings between them.
struct SpareRing {
  mpidbg_flight_entry* entries;
  uint64_t head;
  uint32_t capacity;
  mpidbg_thread_record* holder;  // g_held only
  SpareRing* next;
};
core::SpinLock g_spare_lock;
SpareRing* g_spare = nullptr;
SpareRing* g_held = nullptr;

// The first ring of `list` with `capacity` entries, unlinked; nullptr if none.
SpareRing* TakeFrom(SpareRing** list, uint32_t capacity) {
  for (SpareRing** at = list; *at != nullptr; at = &(*at)->next) {
    if ((*at)->capacity != capacity) continue;
    SpareRing* found = *at;
    *at = found->next;
    return found;
  }
  return nullptr;
}

// A held ring's pending entries become operation records (the exited thread's, by its
// record), then its record is released: the ring holds nothing a reader needs.
void TakeOver(ThreadState* ts, SpareRing* held) {
  for (uint32_t i = 0; i < held->capacity; ++i) {
    mpidbg_flight_entry* e = &held->entries[i];
    if (e->state == MPIDBG_FLIGHT_POSTED) CarryFlightEntry(ts, e);
  }
  if (held->holder != nullptr) g_thread_table.Release(&held->holder->hdr);
}

void Push(SpareRing** list, ThreadState* ts, mpidbg_thread_record* holder) {
  auto* spare = static_cast<SpareRing*>(malloc(sizeof(SpareRing)));
  if (spare == nullptr) return;  // the ring stays allocated, unused: never freed (above)
  spare->entries = ts->flight;
  spare->head = ts->flight_head;
  spare->capacity = ts->flight_mask + 1;
  spare->holder = holder;
  core::SpinGuard guard(g_spare_lock);
  spare->next = *list;
  *list = spare;
}

uint32_t ConfiguredCapacity() {
  const char* text = getenv("MPIDBG_FLIGHT_RING");
  if (text == nullptr) return 1024;
  char* end = nullptr;
  const unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0') return 1024;
  if (v == 0) return 0;
  uint32_t capacity = kMinCapacity;
  while (capacity < v && capacity < kMaxCapacity) capacity <<= 1;
  return capacity;
}

}  // namespace

void FlightAfterInit() {
  g_flight_capacity = ConfiguredCapacity();
  FindCompletedRequestHandle();
}

bool OpenFlightRing(ThreadState* ts) {
  if (g_flight_capacity == 0 || ts->rec == nullptr) return false;
  SpareRing* spare = nullptr;
  bool held = false;
  {
    core::SpinGuard guard(g_spare_lock);
    spare = TakeFrom(&g_held, g_flight_capacity);
    held = spare != nullptr;
    if (spare == nullptr) spare = TakeFrom(&g_spare, g_flight_capacity);
  }
  // Inside an MPI call below MPI_THREAD_MULTIPLE (the first post): the request index and
  // the operation table are this thread's to change.
  if (held) TakeOver(ts, spare);
  mpidbg_flight_entry* entries;
  uint64_t head = 0;
  if (spare != nullptr) {
    // Its head goes on: every entry's seq then still belongs to its position.
    entries = spare->entries;
    head = spare->head;
    free(spare);
  } else {
    entries = static_cast<mpidbg_flight_entry*>(calloc(g_flight_capacity, sizeof(mpidbg_flight_entry)));
    if (entries == nullptr) return false;
  }
  mpidbg_thread_record* rec = ts->rec;
  rec->flight_capacity = g_flight_capacity;
  rec->flight_entry_size = sizeof(mpidbg_flight_entry);
  __atomic_store_n(&rec->flight_head, head, __ATOMIC_RELAXED);
  __atomic_store_n(&rec->flight_entries, reinterpret_cast<uintptr_t>(entries), __ATOMIC_RELEASE);
  ts->flight = entries;
  ts->flight_head = head;
  ts->flight_mask = g_flight_capacity - 1;
  return true;
}

void GiveBackFlightRing(ThreadState* ts, bool holds_pending) {
  if (ts->flight == nullptr) return;
  if (holds_pending) {
    Push(&g_held, ts, ts->rec);
  } else {
    Push(&g_spare, ts, nullptr);
  }
}

}  // namespace mpidbg::rt
