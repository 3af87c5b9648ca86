// datatype_info.cc — see datatype_info.h.
#include "rt/hot/datatype_info.h"

#include <string.h>

#include <atomic>

#include "core/handle_filter.h"
#include "core/job_id.h"
#include "core/record_write.h"
#include "rt/handle_widening.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {
namespace {

constexpr uint32_t kCacheEntries = 128;  // direct-mapped; predefined types are few
constexpr uint32_t kNameWords = sizeof(DatatypeInfo::name) / sizeof(uint64_t);

// One cache entry, read without a lock: a per-entry sequence number detects a
// concurrent fill, and every field is an atomic word so readers never see a data race.
struct CacheEntry {
  std::atomic<uint32_t> seq;
  std::atomic<uint64_t> key;
  std::atomic<int64_t> size;
  std::atomic<uint64_t> name[kNameWords];
};
CacheEntry g_cache[kCacheEntries];

// Every derived datatype ever described (4096 bits, 512 bytes). An operation record names
// a derived datatype only after the runtime described it for the record's size, so a
// handle not in here is in no operation record: freeing such a type needs no walk of the
// operation table (rt/datatypes/datatype_lifetime.cc).
core::HandleFilter<64> g_described_derived;

CacheEntry& EntryFor(uint64_t key) {
  return g_cache[core::Mix64(key) % kCacheEntries];
}

bool CacheLookup(uint64_t key, DatatypeInfo* out) {
  CacheEntry& e = EntryFor(key);
  uint32_t before = e.seq.load(std::memory_order_acquire);
  if ((before & 1u) != 0 || e.key.load(std::memory_order_relaxed) != key) return false;
  out->size = e.size.load(std::memory_order_relaxed);
  uint64_t words[kNameWords];
  for (uint32_t i = 0; i < kNameWords; ++i) words[i] = e.name[i].load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  if (e.seq.load(std::memory_order_relaxed) != before) return false;
  memcpy(out->name, words, sizeof words);
  out->name[sizeof out->name - 1] = '\0';
  return true;
}

void CacheStore(uint64_t key, const DatatypeInfo& info) {
  CacheEntry& e = EntryFor(key);
  uint32_t seq = e.seq.load(std::memory_order_relaxed);
  // Another thread filling the same entry: skip, the next call fills it.
  if ((seq & 1u) != 0 || !e.seq.compare_exchange_strong(seq, seq + 1, std::memory_order_acquire))
    return;
  std::atomic_thread_fence(std::memory_order_release);
  e.key.store(key, std::memory_order_relaxed);
  e.size.store(info.size, std::memory_order_relaxed);
  uint64_t words[kNameWords];
  memcpy(words, info.name, sizeof words);
  for (uint32_t i = 0; i < kNameWords; ++i) e.name[i].store(words[i], std::memory_order_relaxed);
  e.seq.store(seq + 2, std::memory_order_release);
}

void AskLibrary(MPI_Datatype datatype, DatatypeInfo* out) {
  int size = 0;
  if (PMPI_Type_size(datatype, &size) == MPI_SUCCESS) out->size = size;
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  name[0] = '\0';
  if (PMPI_Type_get_name(datatype, name, &len) != MPI_SUCCESS) name[0] = '\0';
  name[MPI_MAX_OBJECT_NAME - 1] = '\0';
  core::CopyName(out->name, sizeof out->name, name);
}

bool IsNamed(MPI_Datatype datatype) {
  int combiner = 0;
#if MPI_VERSION >= 4
  // MPICH refuses the int query on a type made by a large-count constructor (an error,
  // fatal by default); the _c query answers for every type.
  MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
  return PMPI_Type_get_envelope_c(datatype, &ni, &na, &nc, &nd, &combiner) == MPI_SUCCESS &&
         combiner == MPI_COMBINER_NAMED;
#else
  int ni = 0, na = 0, nd = 0;
  return PMPI_Type_get_envelope(datatype, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
         combiner == MPI_COMBINER_NAMED;
#endif
}

// Describes `datatype`; true if it is a predefined type (cacheable for good).
bool Describe(MPI_Datatype datatype, DatatypeInfo* out) {
  *out = DatatypeInfo{};
  if (datatype == MPI_DATATYPE_NULL) return false;
  const uint64_t key = HandleToU64(datatype);
  if (CacheLookup(key, out)) return true;
  AskLibrary(datatype, out);
  if (!IsNamed(datatype)) {
    g_described_derived.Add(key);
    return false;
  }
  CacheStore(key, *out);
  return true;
}

}  // namespace

void DescribeDatatype(MPI_Datatype datatype, DatatypeInfo* out) { Describe(datatype, out); }

const DatatypeInfo& DescribeIntoThread(ThreadState* ts, MPI_Datatype datatype) {
  DatatypeInfo info;
  if (Describe(datatype, &info)) {
    const uint64_t key = HandleToU64(datatype);
    ThreadState::TypeCacheEntry& e = ts->type_cache[TypeCacheSlot(key)];
    e.key = key;
    e.info = info;
    return e.info;
  }
  ts->type_scratch_next ^= 1;
  DatatypeInfo& out = ts->type_scratch[ts->type_scratch_next];
  out = info;
  return out;
}

bool DatatypeMayBeInOperations(uint64_t handle) { return g_described_derived.MayContain(handle); }

bool IsDescribedPredefined(MPI_Datatype datatype) {
  if (datatype == MPI_DATATYPE_NULL) return false;
  // Only whether the entry holds the key (no copy of its name): a concurrent fill makes
  // the answer "no", which costs the caller a look-up, never a wrong record.
  const uint64_t key = HandleToU64(datatype);
  CacheEntry& e = EntryFor(key);
  const uint32_t before = e.seq.load(std::memory_order_acquire);
  if ((before & 1u) != 0 || e.key.load(std::memory_order_relaxed) != key) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  return e.seq.load(std::memory_order_relaxed) == before;
}

int64_t DatatypeSize(MPI_Datatype datatype) {
  ThreadState* ts = t_state;
  if (ts != nullptr) return DatatypeOf(ts, datatype).size;
  DatatypeInfo info;
  Describe(datatype, &info);
  return info.size;
}

}  // namespace mpidbg::rt
