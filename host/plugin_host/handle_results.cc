// handle_results.cc — freeing handle query results with the host's mqs_free.
#include "host/plugin_host/handle_results.h"

#include "host/plugin_host/mq_callbacks.h"

namespace mpidbg::host {
namespace {

void Free(void* p) {
  if (p != nullptr) BasicCallbacks()->mqs_free_fp(p);
}

// The arrays of the version 1 communicator structure (also the base of the extension).
void FreeCommArrays(mpidbg_comm_info_t* c) {
  Free(c->comm_local_procs);
  Free(c->comm_remote_procs);
  Free(c->comm_cart_dims);
  Free(c->comm_cart_periods);
  Free(c->comm_graph_index);
  Free(c->comm_graph_edges);
  if (c->comm_attrs != nullptr) {
    // The count bounds the walk; the DLL sized the array to it.
    for (int i = 0; i < c->comm_num_attrs; ++i) {
      Free(c->comm_attrs[i].keyval_name);
      Free(c->comm_attrs[i].value);
    }
    Free(c->comm_attrs);
  }
  Free(c->comm_pending_requests);
  Free(c->comm_derived_windows);
  Free(c->comm_derived_files);
}

}  // namespace

void FreeHandleResult(mpidbg_comm_info_t* info) {
  if (info == nullptr) return;
  FreeCommArrays(info);
  Free(info);
}

void FreeHandleResult(mpidbg_comm_ext_info_t* info) {
  if (info == nullptr) return;
  FreeCommArrays(&info->base);
  Free(info->dist_sources);
  Free(info->dist_destinations);
  Free(info);
}

void FreeHandleResult(mpidbg_comm_remote_job_t* info) {
  if (info == nullptr) return;
  Free(info->world_ranks);
  Free(info);
}

void FreeHandleResult(mpidbg_request_info_t* info) { Free(info); }
void FreeHandleResult(mpidbg_request_ext_info_t* info) { Free(info); }
void FreeHandleResult(mpidbg_status_info_t* info) { Free(info); }
void FreeHandleResult(mpidbg_status_ext_info_t* info) { Free(info); }

void FreeHandleResult(mpidbg_errhandler_info_t* info) {
  if (info == nullptr) return;
  Free(info->eh_handles);
  Free(info);
}

void FreeHandleResult(mpidbg_datatype_info_t* info) {
  if (info == nullptr) return;
  Free(info->dt_integers);
  Free(info->dt_addresses);
  Free(info->dt_datatypes);
  Free(info->dt_map);
  Free(info);
}

void FreeHandleResult(mpidbg_group_info_t* info) {
  if (info == nullptr) return;
  Free(info->group_procs);
  Free(info->group_args);
  Free(info);
}

void FreeHandleResult(mpidbg_op_info_t* info) { Free(info); }

void FreeHandleResult(mpidbg_info_info_t* info) {
  if (info == nullptr) return;
  if (info->info_pairs != nullptr) {
    for (int i = 0; i < info->info_num_pairs; ++i) {
      Free(info->info_pairs[i].key);
      Free(info->info_pairs[i].value);
    }
    Free(info->info_pairs);
  }
  Free(info);
}

void FreeHandleResult(mpidbg_win_info_t* info) {
  if (info == nullptr) return;
  Free(info->win_target_locks);
  Free(info->win_access_group);
  Free(info->win_exposure_group);
  Free(info->win_regions);
  Free(info->win_pending_requests);
  Free(info);
}

void FreeHandleResult(mpidbg_file_info_t* info) {
  if (info == nullptr) return;
  Free(info->file_pending_requests);
  Free(info);
}

void FreeHandleResult(mpidbg_message_info_t* info) { Free(info); }

void FreeHandleResult(mpidbg_object_entry_t* entries) { Free(entries); }

void FreeHandleResult(mpidbg_name_map_t* map) {
  if (map == nullptr) return;
  // The array ends with map_name == NULL; the bound guards a DLL that forgot the end.
  for (int i = 0; i < (1 << 20) && map[i].map_name != nullptr; ++i) Free(map[i].map_name);
  Free(map);
}

}  // namespace mpidbg::host
