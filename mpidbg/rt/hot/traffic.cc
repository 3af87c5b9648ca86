// traffic.cc — see traffic.h (same hot-path rules), and this area's init steps
// (rt/process/init_steps.h): sizing and mapping the counters and the send log at MPI_Init,
// choosing the lock policy from the provided thread level.
#include "rt/hot/traffic.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "core/concurrency.h"
#include "core/job_id.h"
#include "core/normalise.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/process/init_steps.h"
#include "rt/hot/operation_registry.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

TrafficHot g_traffic_hot = {nullptr, nullptr, nullptr, 0, false};

namespace {

mpidbg_traffic_entry*& g_entries = g_traffic_hot.entries;

constexpr uint32_t kDefaultEntries = 4096;
constexpr uint32_t kDefaultLog = 1024;
constexpr uint32_t kMaxSlots = 1u << 24;
// Probes before a key counts as not placeable (the table is that full around it).
constexpr uint32_t kMaxProbe = 64;

// The block root.traffic points at; its arrays are mapped at MPI_Init and kept for the
// life of the process (a debugger or a core file reads them after MPI_Finalize too).
mpidbg_traffic g_traffic;
uint32_t g_entry_mask = 0;

uint32_t EnvCount(const char* name, uint32_t fallback) {
  const char* text = getenv(name);
  if (text == nullptr) return fallback;
  char* end = nullptr;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0') return fallback;
  return v > kMaxSlots ? kMaxSlots : static_cast<uint32_t>(v);
}

uint32_t PowerOfTwoAtLeast(uint32_t n) {
  uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

void* MapZeroed(uint64_t bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return mem == MAP_FAILED ? nullptr : mem;
}

uint32_t HomeSlot(uint64_t job_id, int32_t peer, int32_t tag) {
  const uint64_t key = (uint64_t{static_cast<uint32_t>(peer)} << 32) | static_cast<uint32_t>(tag);
  return static_cast<uint32_t>(core::Mix64(job_id ^ core::Mix64(key))) & g_entry_mask;
}


void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits out another thread's fill of a CLAIMED entry (a handful of stores).
uint32_t WaitFilled(mpidbg_traffic_entry* e) {
  uint32_t state;
  while ((state = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE)) == MPIDBG_TRAFFIC_CLAIMED) Pause();
  return state;
}

// The entry of (job_id, peer, tag), created if new; nullptr (and counted as dropped)
// when the table has no room for it. `world` gives the peer's world rank, asked only
// when the entry is created.
template <typename World>
mpidbg_traffic_entry* Lookup(uint64_t job_id, int32_t peer, int32_t tag, World world) {
  uint32_t i = HomeSlot(job_id, peer, tag);
  for (uint32_t n = 0; n < kMaxProbe && n <= g_entry_mask; ++n, i = (i + 1) & g_entry_mask) {
    mpidbg_traffic_entry* e = &g_entries[i];
    uint32_t state = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
    if (state == MPIDBG_TRAFFIC_CLAIMED) state = WaitFilled(e);
    if (state == MPIDBG_TRAFFIC_EMPTY) {
      const int32_t peer_world = world();
      uint32_t expected = MPIDBG_TRAFFIC_EMPTY;
      if (__atomic_compare_exchange_n(&e->state, &expected, MPIDBG_TRAFFIC_CLAIMED, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        e->tag = tag;
        e->comm_job_id = job_id;
        e->peer = peer;
        e->peer_world = peer_world;
        __atomic_store_n(&e->state, MPIDBG_TRAFFIC_READY, __ATOMIC_RELEASE);
        __atomic_fetch_add(&g_traffic.used, 1, __ATOMIC_RELAXED);
        return e;
      }
      // Another thread claimed it first: it may be filling in this very key.
      if (expected == MPIDBG_TRAFFIC_CLAIMED) WaitFilled(e);
    }
    if (TrafficMatches(e, job_id, peer, tag)) return e;
  }
  core::CounterAdd(&g_traffic.dropped, uint64_t{1});
  return nullptr;
}

int32_t SourceWorld(const SourceHint& hint, uint64_t job_id, int32_t source) {
  if (source == hint.peer) return hint.peer_world;
  if (hint.comm != nullptr) return PeerWorld(*hint.comm, source);
  if (hint.comm_handle == 0) return MPIDBG_RANK_UNKNOWN;
  // Only the handle: the communicator may have been freed (and its handle reused) since
  // the receive was posted, so the view counts only if it is still the same one.
  const CommView view = LookupComm(HandleFromU64<MPI_Comm>(hint.comm_handle));
  return view.job_id == job_id ? PeerWorld(view, source) : MPIDBG_RANK_UNKNOWN;
}

}  // namespace

mpidbg_traffic_entry* SendEntry(ThreadState* ts, const SendEnvelope& s) {
  mpidbg_traffic_entry* e = Lookup(s.comm_job_id, s.peer, s.tag, [&s] { return s.peer_world; });
  ts->send_entries[TrafficCacheSlot(s.peer, s.tag)] = e;
  return e;
}

mpidbg_traffic_entry* ReceiveEntry(ThreadState* ts, uint64_t job_id, int32_t source,
                                   int32_t tag, const SourceHint& hint) {
  mpidbg_traffic_entry* e =
      Lookup(job_id, source, tag, [&] { return SourceWorld(hint, job_id, source); });
  ts->receive_entries[TrafficCacheSlot(source, tag)] = e;
  return e;
}

void NoteCancelRequested() {
  __atomic_store_n(&g_traffic_hot.cancel_requested, true, __ATOMIC_RELAXED);
}

// --- init steps ---

void TrafficAfterInit() {
  mpidbg_root* root = &mpidbg_runtime_root;
  // Lock policy: below MPI_THREAD_MULTIPLE one thread at a time is inside MPI.
  core::SetConcurrent(root->thread_level == MPIDBG_THREAD_MULTIPLE);
  root->request_bytes = RequestBytes();

  const uint32_t entries = EnvCount("MPIDBG_TRAFFIC_ENTRIES", kDefaultEntries);
  const uint32_t log = EnvCount("MPIDBG_SEND_LOG", kDefaultLog);
  if (entries == 0) return;  // traffic recording switched off: root.traffic stays 0
  const uint32_t capacity = PowerOfTwoAtLeast(entries);
  const uint32_t log_capacity = log == 0 ? 0 : PowerOfTwoAtLeast(log);
  auto* table = static_cast<mpidbg_traffic_entry*>(
      MapZeroed(uint64_t{capacity} * sizeof(mpidbg_traffic_entry)));
  if (table == nullptr) return;
  mpidbg_send_log_entry* ring = nullptr;
  if (log_capacity != 0) {
    ring = static_cast<mpidbg_send_log_entry*>(
        MapZeroed(uint64_t{log_capacity} * sizeof(mpidbg_send_log_entry)));
  }

  g_traffic.size = sizeof(mpidbg_traffic);
  g_traffic.entry_size = sizeof(mpidbg_traffic_entry);
  g_traffic.entries = AddressOf(table);
  g_traffic.capacity = capacity;
  g_traffic.log_entry_size = sizeof(mpidbg_send_log_entry);
  g_traffic.used = 0;
  g_traffic.dropped = 0;
  g_traffic.log = AddressOf(ring);
  g_traffic.log_capacity = ring != nullptr ? log_capacity : 0;
  g_traffic.reserved = 0;
  g_traffic.log_head = 0;
  g_entry_mask = capacity - 1;
  g_traffic_hot.log_mask = ring != nullptr ? log_capacity - 1 : 0;
  g_traffic_hot.log_head = &g_traffic.log_head;
  g_traffic_hot.log = ring;
  __atomic_store_n(&g_entries, table, __ATOMIC_RELEASE);
  // Published last, complete.
  __atomic_store_n(&root->traffic, AddressOf(&g_traffic), __ATOMIC_RELEASE);
}

// The counters and the log stay mapped and readable after MPI_Finalize: a core file
// of a process that hung in MPI_Finalize, or a post-mortem look, still shows them.
void TrafficBeforeFinalize() {}

}  // namespace mpidbg::rt
