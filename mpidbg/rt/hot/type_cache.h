// type_cache.h — the datatype description of the hot path: each thread keeps the
// predefined datatypes it used last (one compare, no copy, no lock).
#ifndef MPIDBG_RT_TYPE_CACHE_H
#define MPIDBG_RT_TYPE_CACHE_H

#include <mpi.h>

#include "rt/hot/datatype_info.h"
#include "rt/handle_widening.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// Fills the thread's cache entry (predefined types) or one of its two scratch entries
// (other types) and returns it. datatype_info.cc.
const DatatypeInfo& DescribeIntoThread(ThreadState* ts, MPI_Datatype datatype);

MPIDBG_ALWAYS_INLINE uint32_t TypeCacheSlot(uint64_t key) {
  return static_cast<uint32_t>(key ^ (key >> 7) ^ (key >> 17)) & (ThreadState::kTypeCacheSize - 1);
}

// Size and name of `datatype`. The reference stays valid until the thread describes two
// more non-predefined types.
MPIDBG_ALWAYS_INLINE const DatatypeInfo& DatatypeOf(ThreadState* ts, MPI_Datatype datatype) {
  const uint64_t key = HandleToU64(datatype);
  const ThreadState::TypeCacheEntry& e = ts->type_cache[TypeCacheSlot(key)];
  if (e.key == key && key != 0) return e.info;
  return DescribeIntoThread(ts, datatype);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_TYPE_CACHE_H
