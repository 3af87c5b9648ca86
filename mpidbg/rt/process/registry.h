// registry.h — the runtime's process-wide state: the exported root, its record tables,
// the registries of every handle kind, the shared orphan list, and this MPI's wildcard
// encodings.
#ifndef MPIDBG_RT_REGISTRY_H
#define MPIDBG_RT_REGISTRY_H

#include <mpi.h>

#include "core/normalise.h"
#include "core/object_registry.h"
#include "core/orphan_list.h"
#include "core/slab_table.h"
#include "mpidbg/records.h"

extern "C" mpidbg_root mpidbg_runtime_root;

namespace mpidbg::rt {

extern core::SlabTable g_comm_table;
extern core::SlabTable g_operation_table;
extern core::SlabTable g_thread_table;

// Orphans of every kind, within root.orphan_budget (MPIDBG_ORPHAN_BUDGET).
extern core::OrphanList g_orphans;

// One registry per handle kind recorded through mpidbg_object_head.
extern core::ObjectRegistry g_groups;
extern core::ObjectRegistry g_datatypes;
extern core::ObjectRegistry g_reduce_ops;
extern core::ObjectRegistry g_errhandlers;
extern core::ObjectRegistry g_infos;
extern core::ObjectRegistry g_windows;
extern core::ObjectRegistry g_files;
extern core::ObjectRegistry g_messages;
extern core::ObjectRegistry g_sessions;

constexpr core::MpiEncodings kEncodings{MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG};

// Next value of root.post_counter (1, 2, ...): the order operations were posted in.
inline uint64_t NextPostSerial() {
  return __atomic_add_fetch(&mpidbg_runtime_root.post_counter, 1, __ATOMIC_RELAXED);
}

// Reads MPIDBG_ORPHAN_BUDGET (a count; default 4096) into the root. Called at MPI_Init.
void ConfigureOrphans();

// Work a debugger asked for by writing the root (records.h, "requests a debugger
// writes"): today an orphan release. Cheap when nothing is asked; the clock thread
// calls it after each wake-up.
void CarryOutDebuggerRequests();

// Calls fn(header) for every slot of `table` in use (live or orphan), walking the slab
// chain as a debugger does. For the few places that need every record of a kind (is a
// freed communicator still used by a pending operation, is an errhandler still
// attached); never on a per-message path. Records may change while fn reads them.
template <typename Fn>
void ForEachRecord(const mpidbg_table& table, Fn fn) {
  if (__atomic_load_n(&table.live_count, __ATOMIC_ACQUIRE) == 0) return;  // nothing to walk
  uint64_t address = __atomic_load_n(&table.first_slab, __ATOMIC_ACQUIRE);
  const uint32_t slabs = __atomic_load_n(&table.slab_count, __ATOMIC_ACQUIRE);
  for (uint32_t n = 0; address != 0 && n < slabs; ++n) {
    auto* slab = reinterpret_cast<mpidbg_slab*>(static_cast<uintptr_t>(address));
    char* first = reinterpret_cast<char*>(slab) + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      auto* h = reinterpret_cast<mpidbg_record_header*>(first + uint64_t{i} * slab->record_size);
      if (__atomic_load_n(&h->kind, __ATOMIC_ACQUIRE) == table.kind) fn(h);
    }
    address = __atomic_load_n(&slab->next, __ATOMIC_ACQUIRE);
  }
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_REGISTRY_H
