// monitor.cc — see monitor.h: the monitoring block (root.monitor), its one-time
// allocation, start/stop/reset, the exported read functions, and MPIDBG_MONITOR at
// MPI_Init (rt/process/init_steps.h). Nothing here runs per message.
#include "rt/monitor/monitor.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "mpidbg/runtime_api.h"
#include "rt/handle_widening.h"
#include "rt/process/init_steps.h"
#include "rt/process/launch_info.h"
#include "rt/process/registry.h"
#include "rt/report/job_file_name.h"

#define MPIDBG_EXPORT_API extern "C" __attribute__((visibility("default")))

namespace mpidbg::rt {

MonitorHot g_monitor_hot = {false, nullptr, 0};

namespace {

// Static storage, like root.traffic's block: in every core file, never freed.
mpidbg_monitor g_monitor;
mpidbg_monitor_peer* g_baseline_peers = nullptr;
mpidbg_monitor_file* g_accumulated_files = nullptr;
mpidbg_monitor_file* g_baseline_files = nullptr;
// Serialises the control calls (start, stop, reset, the first allocation) among
// themselves; the counting sites never take it.
core::SpinLock g_control;

constexpr uint32_t kDefaultFiles = 64;
constexpr uint32_t kMaxFiles = 1u << 16;

uint32_t FileCapacityFromEnvironment() {
  const char* text = getenv("MPIDBG_MONITOR_FILES");
  if (text == nullptr) return kDefaultFiles;
  char* end = nullptr;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0') return kDefaultFiles;
  return v > kMaxFiles ? kMaxFiles : static_cast<uint32_t>(v);
}

bool MpiUsable() {
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

uint64_t* Words(void* p) { return static_cast<uint64_t*>(p); }

uint64_t Load(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
void Store(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

// out = accumulated (CURRENT: minus baseline, never below 0), word by word.
void CopyCounters(uint64_t* out, const uint64_t* accumulated, const uint64_t* baseline,
                  size_t words, int which) {
  for (size_t i = 0; i < words; ++i) {
    const uint64_t a = Load(&accumulated[i]);
    uint64_t v = a;
    if (which == MPIDBG_MONITOR_CURRENT) {
      const uint64_t b = Load(&baseline[i]);
      v = b < a ? a - b : 0;
    }
    out[i] = v;
  }
}

void CopyToBaseline(uint64_t* baseline, const uint64_t* accumulated, size_t words) {
  for (size_t i = 0; i < words; ++i) Store(&baseline[i], Load(&accumulated[i]));
}

// The file counters: the words from `opens` to `write_bytes`.
constexpr size_t kFileCounterOffset = offsetof(mpidbg_monitor_file, opens);
constexpr size_t kFileCounterWords =
    (offsetof(mpidbg_monitor_file, name) - kFileCounterOffset) / sizeof(uint64_t);
static_assert(kFileCounterOffset % 8 == 0, "file counters are 64-bit words");

uint64_t* FileCounters(mpidbg_monitor_file* f) {
  return Words(reinterpret_cast<char*>(f) + kFileCounterOffset);
}


// Allocates and publishes the block (once; g_control held). False when MPI has not
// said the world size or memory ran out.
bool MakeBlock() {
  if (g_monitor_hot.peers != nullptr) return true;
  const int32_t world = mpidbg_runtime_root.world_size;
  if (world <= 0) return false;
  const uint32_t files = FileCapacityFromEnvironment();
  const uint64_t peer_bytes = uint64_t{static_cast<uint32_t>(world)} * sizeof(mpidbg_monitor_peer);
  const uint64_t file_bytes = uint64_t{files} * sizeof(mpidbg_monitor_file);
  const uint64_t hash_bytes = uint64_t{files} * sizeof(uint64_t);
  const uint64_t total = 2 * peer_bytes + 2 * file_bytes + hash_bytes;
  void* mem = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  char* p = static_cast<char*>(mem);
  auto* accumulated_peers = reinterpret_cast<mpidbg_monitor_peer*>(p);
  g_baseline_peers = reinterpret_cast<mpidbg_monitor_peer*>(p + peer_bytes);
  g_accumulated_files = reinterpret_cast<mpidbg_monitor_file*>(p + 2 * peer_bytes);
  g_baseline_files = reinterpret_cast<mpidbg_monitor_file*>(p + 2 * peer_bytes + file_bytes);
  auto* hashes = reinterpret_cast<uint64_t*>(p + 2 * peer_bytes + 2 * file_bytes);

  mpidbg_monitor& m = g_monitor;
  m.size = sizeof(mpidbg_monitor);
  m.peer_size = sizeof(mpidbg_monitor_peer);
  m.file_size = sizeof(mpidbg_monitor_file);
  m.buckets = MPIDBG_MONITOR_BUCKETS;
  m.world_size = world;
  m.file_capacity = files;
  m.accumulated_peers = AddressOf(accumulated_peers);
  m.baseline_peers = AddressOf(g_baseline_peers);
  m.accumulated_files = AddressOf(g_accumulated_files);
  m.baseline_files = AddressOf(g_baseline_files);
  m.mpit_state = MPIDBG_MONITOR_MPIT_NOT_READ;
  MonitorFilesInit(g_accumulated_files, hashes, files);

  g_monitor_hot.world_size = world;
  __atomic_store_n(&g_monitor_hot.peers, accumulated_peers, __ATOMIC_RELEASE);
  // Published last, complete.
  __atomic_store_n(&mpidbg_runtime_root.monitor, AddressOf(&g_monitor), __ATOMIC_RELEASE);
  __atomic_fetch_add(&mpidbg_runtime_root.generation, 1, __ATOMIC_RELEASE);
  return true;
}

// g_control held, block made.
void StartCounting() {
  if (g_monitor.active != 0) return;  // already counting: not another start
  const int64_t now = core::RealtimeNs();
  if (g_monitor.starts == 0) {
    g_monitor.first_start_time_ns = now;
    g_monitor.reset_time_ns = now;
  }
  __atomic_store_n(&g_monitor.starts, g_monitor.starts + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&g_monitor.active, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&g_monitor_hot.on, true, __ATOMIC_RELEASE);
}

bool ValidWhich(int which) {
  return which == MPIDBG_MONITOR_ACCUMULATED || which == MPIDBG_MONITOR_CURRENT;
}

}  // namespace

mpidbg_monitor& MonitorBlock() { return g_monitor; }

bool MonitorBlockReady() { return __atomic_load_n(&g_monitor_hot.peers, __ATOMIC_ACQUIRE) != nullptr; }

// MPIDBG_MONITOR set and not "0": the block is made and counting starts with MPI_Init;
// "1" names the job file after the job, any other value is the file's path.
void MonitorAfterInit() {
  const char* value = getenv("MPIDBG_MONITOR");
  if (value == nullptr || value[0] == '\0' || strcmp(value, "0") == 0) return;
  core::SpinGuard guard(g_control);
  if (g_monitor_hot.peers == nullptr) {
    char* path = g_monitor.output_path;
    if (strcmp(value, "1") == 0) {
      JobFileName("monitor", path, sizeof g_monitor.output_path);
    } else {
      core::CopyName(path, sizeof g_monitor.output_path, value);
    }
    if (!MakeBlock()) {
      path[0] = '\0';
      return;
    }
  }
  StartCounting();
}

}  // namespace mpidbg::rt

using mpidbg::rt::g_monitor_hot;
using mpidbg::rt::MonitorBlock;
using mpidbg::rt::MonitorBlockReady;

MPIDBG_EXPORT_API int mpidbg_monitor_start(void) {
  using namespace mpidbg::rt;
  if (!MpiUsable()) return -1;
  mpidbg::core::SpinGuard guard(g_control);
  if (!MakeBlock()) return -1;
  StartCounting();
  return 0;
}

MPIDBG_EXPORT_API int mpidbg_monitor_stop(void) {
  using namespace mpidbg::rt;
  mpidbg::core::SpinGuard guard(g_control);
  if (!MonitorBlockReady()) return -1;
  if (g_monitor.active == 0) return 0;
  __atomic_store_n(&g_monitor_hot.on, false, __ATOMIC_RELEASE);
  __atomic_store_n(&g_monitor.active, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&g_monitor.stops, g_monitor.stops + 1, __ATOMIC_RELAXED);
  return 0;
}

// The baseline becomes a copy of accumulated inside an odd reset_seq, so a reader that
// sees the same even value before and after its copy saw a consistent baseline. A
// thread counting meanwhile (MPI_THREAD_MULTIPLE) may land its add on either side.
MPIDBG_EXPORT_API int mpidbg_monitor_reset(void) {
  using namespace mpidbg::rt;
  mpidbg::core::SpinGuard guard(g_control);
  if (!MonitorBlockReady()) return -1;
  mpidbg_monitor& m = g_monitor;
  __atomic_store_n(&m.reset_seq, m.reset_seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  CopyToBaseline(Words(g_baseline_peers), Words(g_monitor_hot.peers),
                 uint64_t{static_cast<uint32_t>(m.world_size)} * sizeof(mpidbg_monitor_peer) / 8);
  CopyToBaseline(Words(m.baseline_coll), Words(m.accumulated_coll), sizeof m.accumulated_coll / 8);
  const uint32_t used = MonitorFilesUsed();
  for (uint32_t i = 0; i < used; ++i) {
    CopyToBaseline(FileCounters(&g_baseline_files[i]), FileCounters(&g_accumulated_files[i]),
                   kFileCounterWords);
  }
  __atomic_store_n(&m.resets, m.resets + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&m.reset_time_ns, mpidbg::core::RealtimeNs(), __ATOMIC_RELAXED);
  __atomic_store_n(&m.reset_seq, m.reset_seq + 1, __ATOMIC_RELEASE);
  return 0;
}

MPIDBG_EXPORT_API int mpidbg_monitor_active(void) {
  return __atomic_load_n(&g_monitor_hot.on, __ATOMIC_ACQUIRE) ? 1 : 0;
}

MPIDBG_EXPORT_API int mpidbg_monitor_read_peer(int world_rank, int which, mpidbg_monitor_peer* out) {
  using namespace mpidbg::rt;
  if (out == nullptr || !ValidWhich(which) || !MonitorBlockReady()) return -1;
  if (world_rank < 0 || world_rank >= g_monitor_hot.world_size) return -1;
  CopyCounters(Words(out), Words(&g_monitor_hot.peers[world_rank]),
               Words(&g_baseline_peers[world_rank]), sizeof(mpidbg_monitor_peer) / 8, which);
  return 0;
}

MPIDBG_EXPORT_API int mpidbg_monitor_read_collective(int kind, int which, mpidbg_monitor_coll* out) {
  using namespace mpidbg::rt;
  if (out == nullptr || !ValidWhich(which) || !MonitorBlockReady()) return -1;
  if (kind < 0 || kind >= MPIDBG_COLL_KINDS) return -1;
  CopyCounters(Words(out), Words(&g_monitor.accumulated_coll[kind]),
               Words(&g_monitor.baseline_coll[kind]), sizeof(mpidbg_monitor_coll) / 8, which);
  return 0;
}

MPIDBG_EXPORT_API int mpidbg_monitor_read_file(int index, int which, mpidbg_monitor_file* out) {
  using namespace mpidbg::rt;
  if (out == nullptr || !ValidWhich(which) || !MonitorBlockReady()) return -1;
  if (index < 0 || static_cast<uint32_t>(index) >= MonitorFilesUsed()) return -1;
  mpidbg_monitor_file* f = &g_accumulated_files[index];
  if (__atomic_load_n(&f->state, __ATOMIC_ACQUIRE) != MPIDBG_MONITOR_FILE_READY) return -1;
  out->state = MPIDBG_MONITOR_FILE_READY;
  out->reserved = 0;
  CopyCounters(FileCounters(out), FileCounters(f), FileCounters(&g_baseline_files[index]),
               kFileCounterWords, which);
  memcpy(out->name, f->name, sizeof out->name);
  out->name[sizeof out->name - 1] = '\0';
  return 0;
}
