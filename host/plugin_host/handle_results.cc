// handle_results.cc — freeing handle query results with the debugger's mqs_free.
#include "host/plugin_host/handle_results.h"

namespace mpidbg::host {
namespace {

void Free(ResultFree release, void* p) {
  if (p != nullptr) release(p);
}

// The arrays of the version 1 communicator structure (also the base of the extension).
void FreeCommArrays(mpidbg_comm_info_t* c, ResultFree release) {
  Free(release, c->comm_local_procs);
  Free(release, c->comm_remote_procs);
  Free(release, c->comm_cart_dims);
  Free(release, c->comm_cart_periods);
  Free(release, c->comm_graph_index);
  Free(release, c->comm_graph_edges);
  if (c->comm_attrs != nullptr) {
    // The count bounds the walk; the DLL sized the array to it.
    for (int i = 0; i < c->comm_num_attrs; ++i) {
      Free(release, c->comm_attrs[i].keyval_name);
      Free(release, c->comm_attrs[i].value);
    }
    Free(release, c->comm_attrs);
  }
  Free(release, c->comm_pending_requests);
  Free(release, c->comm_derived_windows);
  Free(release, c->comm_derived_files);
}

}  // namespace

void FreeHandleResult(mpidbg_comm_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  FreeCommArrays(info, release);
  Free(release, info);
}

void FreeHandleResult(mpidbg_comm_ext_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  FreeCommArrays(&info->base, release);
  Free(release, info->dist_sources);
  Free(release, info->dist_destinations);
  Free(release, info);
}

void FreeHandleResult(mpidbg_comm_remote_job_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->world_ranks);
  Free(release, info);
}

void FreeHandleResult(mpidbg_request_info_t* info, ResultFree release) { Free(release, info); }
void FreeHandleResult(mpidbg_request_ext_info_t* info, ResultFree release) { Free(release, info); }
void FreeHandleResult(mpidbg_status_info_t* info, ResultFree release) { Free(release, info); }
void FreeHandleResult(mpidbg_status_ext_info_t* info, ResultFree release) { Free(release, info); }

void FreeHandleResult(mpidbg_errhandler_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->eh_handles);
  Free(release, info);
}

void FreeHandleResult(mpidbg_datatype_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->dt_integers);
  Free(release, info->dt_addresses);
  Free(release, info->dt_datatypes);
  Free(release, info->dt_map);
  Free(release, info);
}

void FreeHandleResult(mpidbg_group_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->group_procs);
  Free(release, info->group_args);
  Free(release, info);
}

void FreeHandleResult(mpidbg_op_info_t* info, ResultFree release) { Free(release, info); }

void FreeHandleResult(mpidbg_info_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  if (info->info_pairs != nullptr) {
    for (int i = 0; i < info->info_num_pairs; ++i) {
      Free(release, info->info_pairs[i].key);
      Free(release, info->info_pairs[i].value);
    }
    Free(release, info->info_pairs);
  }
  Free(release, info);
}

void FreeHandleResult(mpidbg_win_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->win_target_locks);
  Free(release, info->win_access_group);
  Free(release, info->win_exposure_group);
  Free(release, info->win_regions);
  Free(release, info->win_pending_requests);
  Free(release, info);
}

void FreeHandleResult(mpidbg_file_info_t* info, ResultFree release) {
  if (info == nullptr) return;
  Free(release, info->file_pending_requests);
  Free(release, info);
}

void FreeHandleResult(mpidbg_message_info_t* info, ResultFree release) { Free(release, info); }

void FreeHandleResult(mpidbg_object_entry_t* entries, ResultFree release) { Free(release, entries); }

void FreeHandleResult(mpidbg_name_map_t* map, ResultFree release) {
  if (map == nullptr) return;
  // The array ends with map_name == NULL; the bound guards a DLL that forgot the end.
  for (int i = 0; i < (1 << 20) && map[i].map_name != nullptr; ++i) Free(release, map[i].map_name);
  Free(release, map);
}

}  // namespace mpidbg::host
