// flight_ring_setup.cc — making a thread's flight ring (rt/hot/flight_ring.h) on its
// first post, handing it on when the thread exits, and the ring size read at MPI_Init.
// Cold: allocates, takes a lock; once per thread.
#include <stdlib.h>

#include "core/spinlock.h"
#include "rt/hot/completed_request.h"
#include "rt/hot/flight_ring.h"
#include "rt/process/init_steps.h"

namespace mpidbg::rt {

uint32_t g_flight_capacity = 1024;

namespace {

constexpr uint32_t kMinCapacity = 64;
constexpr uint32_t kMaxCapacity = 65536;

// Rings of threads that exited with nothing pending, for the next thread. A ring is never
// freed: the map may still name its entries (harmless, since a lookup checks the handle
// and the state), and freeing it would make that a read of freed memory.
struct SpareRing {
  mpidbg_flight_entry* entries;
  uint64_t head;
  uint32_t capacity;
  SpareRing* next;
};
core::SpinLock g_spare_lock;
SpareRing* g_spare = nullptr;

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
  {
    core::SpinGuard guard(g_spare_lock);
    if (g_spare != nullptr && g_spare->capacity == g_flight_capacity) {
      spare = g_spare;
      g_spare = spare->next;
    }
  }
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

void GiveBackFlightRing(ThreadState* ts) {
  if (ts->flight == nullptr) return;
  auto* spare = static_cast<SpareRing*>(malloc(sizeof(SpareRing)));
  if (spare == nullptr) return;  // the ring stays allocated, unused: never freed (above)
  spare->entries = ts->flight;
  spare->head = ts->flight_head;
  spare->capacity = ts->flight_mask + 1;
  core::SpinGuard guard(g_spare_lock);
  spare->next = g_spare;
  g_spare = spare;
}

}  // namespace mpidbg::rt
