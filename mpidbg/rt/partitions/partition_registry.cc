// partition_registry.cc — see partition_registry.h.
#include "rt/partitions/partition_registry.h"

#include <stdlib.h>

#include "core/record_arrays.h"
#include "core/slab_table.h"
#include "core/spinlock.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

uint32_t g_partitioned_requests = 0;

namespace {

// A map of one bit per partition costs partitions / 8 bytes; past this many partitions
// only the count is kept (a program with millions of partitions is not one a person
// reads bit by bit).
constexpr int32_t kMaxMappedPartitions = 1 << 20;

core::SlabTable g_partition_table(&mpidbg_runtime_root.partitions, &mpidbg_runtime_root.generation, MPIDBG_KIND_PARTITIONS,
                                  sizeof(mpidbg_partition_record), 16);
core::SpinLock g_lock;
// Request -> record, searched linearly: partitioned requests are few (a handful per
// pattern of the program), and the runtime has no exceptions for a map's bad_alloc.
struct Entry {
  uint64_t request;
  mpidbg_partition_record* rec;
};
Entry* g_entries = nullptr;
uint32_t g_count = 0;
uint32_t g_capacity = 0;

mpidbg_partition_record* FindLocked(uint64_t request) {
  for (uint32_t i = 0; i < g_count; ++i) {
    if (g_entries[i].request == request) return g_entries[i].rec;
  }
  return nullptr;
}

mpidbg_partition_record* Find(uint64_t request) {
  core::SpinGuard guard(g_lock);
  return FindLocked(request);
}

// Removes the record of `request` from the index and returns it (nullptr if none).
mpidbg_partition_record* TakeLocked(uint64_t request) {
  for (uint32_t i = 0; i < g_count; ++i) {
    if (g_entries[i].request != request) continue;
    mpidbg_partition_record* rec = g_entries[i].rec;
    g_entries[i] = g_entries[--g_count];
    __atomic_store_n(&g_partitioned_requests, g_count, __ATOMIC_RELAXED);
    return rec;
  }
  return nullptr;
}

// False when memory ran out.
bool AddLocked(uint64_t request, mpidbg_partition_record* rec) {
  if (g_count == g_capacity) {
    const uint32_t capacity = g_capacity == 0 ? 16 : g_capacity * 2;
    void* grown = realloc(g_entries, sizeof(Entry) * capacity);
    if (grown == nullptr) return false;
    g_entries = static_cast<Entry*>(grown);
    g_capacity = capacity;
  }
  g_entries[g_count++] = Entry{request, rec};
  __atomic_store_n(&g_partitioned_requests, g_count, __ATOMIC_RELAXED);
  return true;
}

void Release(mpidbg_partition_record* rec) {
  const mpidbg_array bits = rec->done_bits;
  g_partition_table.Release(&rec->hdr);
  core::FreeArray(bits);  // only after no record points at it
}

void MarkOne(mpidbg_partition_record* rec, int64_t p) {
  if (p < 0 || p >= rec->partitions) return;
  uint8_t* bits = core::ArrayData<uint8_t>(rec->done_bits);
  if (bits != nullptr) {
    const uint8_t bit = static_cast<uint8_t>(1u << (p % 8));
    const uint8_t before = __atomic_fetch_or(&bits[p / 8], bit, __ATOMIC_RELAXED);
    if ((before & bit) != 0) return;  // marked before: counted then
  }
  __atomic_fetch_add(&rec->done, 1, __ATOMIC_RELAXED);
}

}  // namespace

void TrackPartitioned(uint64_t request, int32_t direction, int32_t partitions,
                      int64_t partition_count) {
  if (partitions < 0) return;
  mpidbg_array bits{0, 0, 1};
  if (partitions > 0 && partitions <= kMaxMappedPartitions) {
    const size_t bytes = (static_cast<size_t>(partitions) + 7) / 8;
    auto* map = static_cast<uint8_t*>(calloc(bytes, 1));
    if (map != nullptr) {
      bits.address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(map));
      bits.count = static_cast<uint32_t>(bytes);
    }
  }
  mpidbg_record_header* slot = g_partition_table.Create(0);
  if (slot == nullptr) {
    core::FreeArray(bits);
    return;
  }
  auto* rec = reinterpret_cast<mpidbg_partition_record*>(slot);
  rec->request = request;
  rec->partition_count = partition_count;
  rec->partitions = partitions;
  rec->direction = direction;
  rec->done = 0;
  rec->done_bits = bits;
  g_partition_table.EndCreate(slot);

  mpidbg_partition_record* stale = nullptr;
  bool indexed = false;
  {
    core::SpinGuard guard(g_lock);
    stale = TakeLocked(request);
    indexed = AddLocked(request, rec);
  }
  if (stale != nullptr) Release(stale);
  if (!indexed) Release(rec);
}

void MarkPartitionsDone(uint64_t request, int64_t low, int64_t high) {
  mpidbg_partition_record* rec = Find(request);
  if (rec == nullptr) return;
  if (low < 0) low = 0;
  if (high >= rec->partitions) high = rec->partitions - 1;
  for (int64_t p = low; p <= high; ++p) MarkOne(rec, p);
}

void MarkPartitionListDone(uint64_t request, const int* partitions, int count) {
  if (partitions == nullptr || count <= 0) return;
  mpidbg_partition_record* rec = Find(request);
  if (rec == nullptr) return;
  for (int i = 0; i < count; ++i) MarkOne(rec, partitions[i]);
}

void StartPartitionRound(uint64_t request) {
  mpidbg_partition_record* rec = Find(request);
  if (rec == nullptr) return;
  // A round starts only while no Pready of the request runs (MPI 4.0 §4.2.2: Pready
  // on an inactive request is erroneous), so plain stores suffice inside the window.
  g_partition_table.BeginUpdate(&rec->hdr);
  uint8_t* bits = core::ArrayData<uint8_t>(rec->done_bits);
  for (uint32_t i = 0; bits != nullptr && i < rec->done_bits.count; ++i) bits[i] = 0;
  rec->done = 0;
  rec->starts += 1;
  g_partition_table.EndUpdate(&rec->hdr);
}

void ForgetPartitioned(uint64_t request) {
  mpidbg_partition_record* rec;
  {
    core::SpinGuard guard(g_lock);
    rec = TakeLocked(request);
  }
  if (rec != nullptr) Release(rec);
}

}  // namespace mpidbg::rt
