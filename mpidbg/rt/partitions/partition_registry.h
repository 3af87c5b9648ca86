// partition_registry.h — the partition records of partitioned requests (records.h,
// mpidbg_partition_record), found by request handle.
//
// Partitioned requests are few and long-lived (made once, started many times), so the
// records sit in their own slab table and a small map under a spinlock finds them.
// MPI_Pready may come from many threads at once for different partitions of one
// request: a partition's bit is set with an atomic or, and only the thread that set it
// counts it, so `done` is exact however the calls interleave.
#ifndef MPIDBG_RT_PARTITION_REGISTRY_H
#define MPIDBG_RT_PARTITION_REGISTRY_H

#include <stdint.h>

namespace mpidbg::rt {

// Partitioned requests that have a record now; MPI_Start's hook looks no further when
// it is 0 (one relaxed load on the common path).
extern uint32_t g_partitioned_requests;

// A partitioned request was made (PMPI_Psend_init / PMPI_Precv_init succeeded). A stale
// record under the same handle (its free was not seen) is replaced.
void TrackPartitioned(uint64_t request, int32_t direction, int32_t partitions,
                      int64_t partition_count);
// Partitions low..high (inclusive) are done: marked ready (send) or seen arrived
// (receive). Out-of-range partitions are ignored (MPI reports the error).
void MarkPartitionsDone(uint64_t request, int64_t low, int64_t high);
// The same for a list of partitions.
void MarkPartitionListDone(uint64_t request, const int* partitions, int count);
// A new round of a started request: nothing is ready or arrived yet. A request
// without a partition record is ignored.
void StartPartitionRound(uint64_t request);
// The request was freed: its record goes.
void ForgetPartitioned(uint64_t request);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PARTITION_REGISTRY_H
