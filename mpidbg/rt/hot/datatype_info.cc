// datatype_info.cc — see datatype_info.h.
#include "rt/hot/datatype_info.h"

#include <string.h>

#include <atomic>

#include "core/handle_filter.h"
#include "core/inline.h"
#include "core/job_id.h"
#include "core/record_write.h"
#include "rt/handle_widening.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {
namespace {

// The named-type cache: open addressing with linear probing over a power-of-two table;
// a type goes into the first free entry from its hash's, and an entry, once filled, is
// never emptied or given to another type (only predefined types are cached, and they
// stay). Direct-mapped before (128 entries, each type in its hash's one), about one
// predefined type in five shared its entry with another, which one depending on where
// the loader put MPI's types (Open MPI's handles are addresses): such a type was
// described again, through MPI, whenever the other had taken the entry last.
constexpr uint32_t kCacheEntries = 256;  // MPI's predefined types are about 70
constexpr uint32_t kCacheProbes = 8;     // a type further than this is not cached
static_assert((kCacheEntries & (kCacheEntries - 1)) == 0, "a power of two");
constexpr uint32_t kNameWords = sizeof(DatatypeInfo::name) / sizeof(uint64_t);

// One cache entry, read without a lock: a per-entry sequence number detects a
// concurrent fill, and every field is an atomic word so readers never see a data race.
// `key` 0: free (no handle of either MPI is 0).
struct CacheEntry {
  std::atomic<uint32_t> seq;
  std::atomic<uint64_t> key;
  std::atomic<int64_t> size;
  std::atomic<uint64_t> name[kNameWords];
  // The bounds (TypeExtents; size above), for records of types built from this one
  // (rt/datatypes/type_extents.h). `bounds_known` false: MPI did not answer.
  std::atomic<bool> bounds_known;
  std::atomic<int64_t> lb, extent, true_lb, true_extent;
};
CacheEntry g_cache[kCacheEntries];

// Every derived datatype ever described (4096 bits, 512 bytes). An operation record names
// a derived datatype only after the runtime described it for the record's size, so a
// handle not in here is in no operation record: freeing such a type needs no walk of the
// operation table (rt/datatypes/datatype_lifetime.cc).
core::HandleFilter<64> g_described_derived;

uint32_t HomeOf(uint64_t key) { return static_cast<uint32_t>(core::Mix64(key)) & (kCacheEntries - 1); }

// Calls read(entry) on `key`'s entry and returns its answer, true only if the entry was
// whole throughout; false when `key` is not cached (or an entry on its way is being
// filled: the caller then takes its slow path, as for a type not cached).
template <typename Read>
MPIDBG_ALWAYS_INLINE bool ReadEntry(uint64_t key, Read&& read) {
  uint32_t i = HomeOf(key);
  for (uint32_t probe = 0; probe < kCacheProbes; ++probe, i = (i + 1) & (kCacheEntries - 1)) {
    CacheEntry& e = g_cache[i];
    const uint32_t before = e.seq.load(std::memory_order_acquire);
    if ((before & 1u) != 0) return false;
    const uint64_t k = e.key.load(std::memory_order_relaxed);
    if (k == 0) return false;  // fills take the first free entry: `key` is not further on
    if (k != key) continue;
    if (!read(e)) return false;
    std::atomic_thread_fence(std::memory_order_acquire);
    return e.seq.load(std::memory_order_relaxed) == before;
  }
  return false;
}

bool CacheLookup(uint64_t key, DatatypeInfo* out) {
  uint64_t words[kNameWords];
  int64_t size = 0;
  const bool found = ReadEntry(key, [&](CacheEntry& e) {
    size = e.size.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < kNameWords; ++i) words[i] = e.name[i].load(std::memory_order_relaxed);
    return true;
  });
  if (!found) return false;
  out->size = size;
  memcpy(out->name, words, sizeof words);
  out->name[sizeof out->name - 1] = '\0';
  return true;
}

// The entry `key` is to be filled in, opened for writing (seq odd), or nullptr: cached
// already, no free entry within reach, or another thread filling one on the way (the
// next description fills it).
CacheEntry* OpenFreeEntry(uint64_t key) {
  uint32_t i = HomeOf(key);
  for (uint32_t probe = 0; probe < kCacheProbes; ++probe, i = (i + 1) & (kCacheEntries - 1)) {
    CacheEntry& e = g_cache[i];
    uint32_t seq = e.seq.load(std::memory_order_relaxed);
    if ((seq & 1u) != 0) return nullptr;
    const uint64_t k = e.key.load(std::memory_order_relaxed);
    if (k == key) return nullptr;
    if (k != 0) continue;
    // Free: claim it. A writer that filled it since we looked changed seq, so the
    // exchange fails and this fill is skipped.
    if (!e.seq.compare_exchange_strong(seq, seq + 1, std::memory_order_acquire)) return nullptr;
    return &e;
  }
  return nullptr;
}

void CacheStore(uint64_t key, const DatatypeInfo& info, const TypeExtents* bounds) {
  CacheEntry* entry = OpenFreeEntry(key);
  if (entry == nullptr) return;
  CacheEntry& e = *entry;
  const uint32_t seq = e.seq.load(std::memory_order_relaxed);  // odd: ours
  std::atomic_thread_fence(std::memory_order_release);
  e.key.store(key, std::memory_order_relaxed);
  e.size.store(info.size, std::memory_order_relaxed);
  uint64_t words[kNameWords];
  memcpy(words, info.name, sizeof words);
  for (uint32_t i = 0; i < kNameWords; ++i) e.name[i].store(words[i], std::memory_order_relaxed);
  e.bounds_known.store(bounds != nullptr, std::memory_order_relaxed);
  if (bounds != nullptr) {
    e.lb.store(bounds->lb, std::memory_order_relaxed);
    e.extent.store(bounds->extent, std::memory_order_relaxed);
    e.true_lb.store(bounds->true_lb, std::memory_order_relaxed);
    e.true_extent.store(bounds->true_extent, std::memory_order_relaxed);
  }
  e.seq.store(seq + 1, std::memory_order_release);
}

// A named type's bounds; false when MPI does not answer. Asked once per named type,
// when it is first described.
bool AskBounds(MPI_Datatype datatype, TypeExtents* out) {
  MPI_Count lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (PMPI_Type_get_extent_x(datatype, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent_x(datatype, &true_lb, &true_extent) != MPI_SUCCESS) {
    return false;
  }
  out->lb = lb;
  out->extent = extent;
  out->true_lb = true_lb;
  out->true_extent = true_extent;
  return true;
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
  TypeExtents bounds;
  CacheStore(key, *out, AskBounds(datatype, &bounds) ? &bounds : nullptr);
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

bool DescribedPredefinedExtents(MPI_Datatype datatype, TypeExtents* out) {
  if (datatype == MPI_DATATYPE_NULL) return false;
  // Written straight into `out`: the caller reads it only when this returns true.
  return ReadEntry(HandleToU64(datatype), [out](CacheEntry& e) {
    if (!e.bounds_known.load(std::memory_order_relaxed)) return false;
    out->size = e.size.load(std::memory_order_relaxed);
    out->lb = e.lb.load(std::memory_order_relaxed);
    out->extent = e.extent.load(std::memory_order_relaxed);
    out->true_lb = e.true_lb.load(std::memory_order_relaxed);
    out->true_extent = e.true_extent.load(std::memory_order_relaxed);
    return true;
  });
}

bool IsDescribedPredefined(MPI_Datatype datatype) {
  if (datatype == MPI_DATATYPE_NULL) return false;
  // Only whether the entry holds the key (no copy of its name): a concurrent fill makes
  // the answer "no", which costs the caller a look-up, never a wrong record.
  return ReadEntry(HandleToU64(datatype), [](CacheEntry&) { return true; });
}

int64_t DatatypeSize(MPI_Datatype datatype) {
  ThreadState* ts = t_state;
  if (ts != nullptr) return DatatypeOf(ts, datatype).size;
  DatatypeInfo info;
  Describe(datatype, &info);
  return info.size;
}

}  // namespace mpidbg::rt
