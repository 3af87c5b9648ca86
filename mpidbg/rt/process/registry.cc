// registry.cc — the record tables and registries over the exported root.
#include "rt/process/registry.h"

#include <stdlib.h>

#include "core/record_arrays.h"
#include "mpidbg/runtime_api.h"
#include "rt/datatypes/datatype_registry.h"

namespace mpidbg::rt {

namespace {

mpidbg_root& R = mpidbg_runtime_root;

constexpr uint32_t kDefaultOrphanBudget = 4096;

// What each kind owns beside its record (records.h); freed when the record goes.
template <typename Record>
Record* AsRecord(mpidbg_object_head* h) {
  return reinterpret_cast<Record*>(h);
}
void DropArray(mpidbg_array* a) {
  core::FreeArray(*a);
  *a = mpidbg_array{0, 0, a->elem_size};
}
void DropGroup(mpidbg_object_head* h) {
  auto* r = AsRecord<mpidbg_group_record>(h);
  DropArray(&r->world_ranks);
  DropArray(&r->args);
}
void DropDatatype(mpidbg_object_head* h) {
  DropDatatypeArrays(AsRecord<mpidbg_datatype_record>(h));
}
void DropInfo(mpidbg_object_head* h) { DropArray(&AsRecord<mpidbg_info_record>(h)->entries); }
void DropWindow(mpidbg_object_head* h) {
  auto* r = AsRecord<mpidbg_window_record>(h);
  DropArray(&r->target_locks);
  DropArray(&r->access_group);
  DropArray(&r->exposure_group);
  DropArray(&r->attached);
}

constexpr core::ObjectRegistryShared kShared{&R.create_counter, &R.free_counter, &g_orphans};

}  // namespace

// Slab sizes: a few pages each; communicators and threads are few, operations many.
core::SlabTable g_comm_table(&R.comms, &R.generation, MPIDBG_KIND_COMM,
                             sizeof(mpidbg_comm_record), 64);
core::SlabTable g_operation_table(&R.operations, &R.generation, MPIDBG_KIND_OPERATION,
                                sizeof(mpidbg_operation_record), 256);
core::SlabTable g_thread_table(&R.threads, &R.generation, MPIDBG_KIND_THREAD,
                               sizeof(mpidbg_thread_record), 32);

core::OrphanList g_orphans(core::OrphanList::Counters{
    &R.orphan_budget, &R.orphan_keep_all, &R.orphan_count, &R.orphan_evictions,
    &R.orphan_releases, &R.orphan_release_asked, &R.orphan_release_done});

namespace {
core::SlabTable g_group_table(&R.groups, &R.generation, MPIDBG_KIND_GROUP,
                              sizeof(mpidbg_group_record), 64);
core::SlabTable g_datatype_table(&R.datatypes, &R.generation, MPIDBG_KIND_DATATYPE,
                                 sizeof(mpidbg_datatype_record), 64);
core::SlabTable g_reduce_op_table(&R.reduce_ops, &R.generation, MPIDBG_KIND_REDUCE_OP,
                                  sizeof(mpidbg_reduce_op_record), 64);
core::SlabTable g_errhandler_table(&R.errhandlers, &R.generation, MPIDBG_KIND_ERRHANDLER,
                                   sizeof(mpidbg_errhandler_record), 32);
core::SlabTable g_info_table(&R.infos, &R.generation, MPIDBG_KIND_INFO,
                             sizeof(mpidbg_info_record), 32);
core::SlabTable g_window_table(&R.windows, &R.generation, MPIDBG_KIND_WINDOW,
                               sizeof(mpidbg_window_record), 16);
core::SlabTable g_file_table(&R.files, &R.generation, MPIDBG_KIND_FILE,
                             sizeof(mpidbg_file_record), 16);
core::SlabTable g_message_table(&R.messages, &R.generation, MPIDBG_KIND_MESSAGE,
                                sizeof(mpidbg_message_record), 64);
core::SlabTable g_session_table(&R.sessions, &R.generation, MPIDBG_KIND_SESSION,
                                sizeof(mpidbg_session_record), 8);
}  // namespace

// MPI reference counts groups and hands the same handle out again (MPI_Comm_group twice
// on one communicator): each such handle is one more reference, not a reuse.
core::ObjectRegistry g_groups(&g_group_table, kShared, &DropGroup,
                              core::ObjectRegistry::Rehandout::kCountReference);
core::ObjectRegistry g_datatypes(&g_datatype_table, kShared, &DropDatatype);
core::ObjectRegistry g_reduce_ops(&g_reduce_op_table, kShared);
core::ObjectRegistry g_errhandlers(&g_errhandler_table, kShared);
core::ObjectRegistry g_infos(&g_info_table, kShared, &DropInfo);
core::ObjectRegistry g_windows(&g_window_table, kShared, &DropWindow);
core::ObjectRegistry g_files(&g_file_table, kShared);
core::ObjectRegistry g_messages(&g_message_table, kShared);
core::ObjectRegistry g_sessions(&g_session_table, kShared);

void ConfigureOrphans() {
  uint32_t budget = kDefaultOrphanBudget;
  if (const char* text = getenv("MPIDBG_ORPHAN_BUDGET")) {
    char* end = nullptr;
    unsigned long long v = strtoull(text, &end, 10);
    if (end != text && *end == '\0' && v <= UINT32_MAX) budget = static_cast<uint32_t>(v);
  }
  g_orphans.SetBudget(budget);
}

// The clock thread runs beside the application's MPI calls: orphans whose release may
// not run there are left for the next MPI call (core/orphan_list.h).
void CarryOutDebuggerRequests() { g_orphans.CarryOutAskedRelease(/*beside_mpi=*/true); }

}  // namespace mpidbg::rt

// Exported for debuggers (mpidbg/runtime_api.h).
extern "C" __attribute__((visibility("default"))) int mpidbg_release_orphans(void) {
  uint64_t n = mpidbg::rt::g_orphans.ReleaseAll();
  return n > INT32_MAX ? INT32_MAX : static_cast<int>(n);
}
