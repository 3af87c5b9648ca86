// registry.cc — the three record tables over the exported root.
#include "rt/registry.h"

namespace mpidbg::rt {

// Slab sizes: a few pages each; communicators and threads are few, operations many.
core::SlabTable g_comm_table(&mpidbg_runtime_root.comms, &mpidbg_runtime_root.generation,
                             MPIDBG_KIND_COMM, sizeof(mpidbg_comm_record), 64);
core::SlabTable g_op_table(&mpidbg_runtime_root.ops, &mpidbg_runtime_root.generation,
                           MPIDBG_KIND_OP, sizeof(mpidbg_op_record), 256);
core::SlabTable g_thread_table(&mpidbg_runtime_root.threads, &mpidbg_runtime_root.generation,
                               MPIDBG_KIND_THREAD, sizeof(mpidbg_thread_record), 32);

}  // namespace mpidbg::rt
