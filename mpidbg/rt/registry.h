// registry.h — the runtime's process-wide state: the exported root and its three
// record tables, and this MPI's wildcard encodings.
#ifndef MPIDBG_RT_REGISTRY_H
#define MPIDBG_RT_REGISTRY_H

#include <mpi.h>

#include "core/normalise.h"
#include "core/slab_table.h"
#include "mpidbg/records.h"

extern "C" mpidbg_root mpidbg_runtime_root;

namespace mpidbg::rt {

extern core::SlabTable g_comm_table;
extern core::SlabTable g_op_table;
extern core::SlabTable g_thread_table;

constexpr core::MpiEncodings kEncodings{MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG};

// Next value of root.post_counter (1, 2, ...): the order operations were posted in.
inline uint64_t NextPostSerial() {
  return __atomic_add_fetch(&mpidbg_runtime_root.post_counter, 1, __ATOMIC_RELAXED);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_REGISTRY_H
