// handle_functions.cc — resolving a DLL's handle interface entry points.
#include "host/plugin_host/handle_functions.h"

#include <dlfcn.h>

namespace mpidbg::host {
namespace {

template <typename Fn>
void Resolve(void* handle, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(handle, name));
}

}  // namespace

void ResolveHandleFunctions(void* dl, HandleFunctions* fn) {
  Resolve(dl, "mpidbg_init_once", &fn->init_once);
  Resolve(dl, "mpidbg_interface_version_compatibility", &fn->version_compatibility);
  Resolve(dl, "mpidbg_version_string", &fn->version_string);
  Resolve(dl, "mpidbg_dll_taddr_width", &fn->dll_taddr_width);
  Resolve(dl, "mpidbg_init_per_image", &fn->init_per_image);
  Resolve(dl, "mpidbg_finalize_per_image", &fn->finalize_per_image);
  Resolve(dl, "mpidbg_init_per_process", &fn->init_per_process);
  Resolve(dl, "mpidbg_finalize_per_process", &fn->finalize_per_process);
  Resolve(dl, "mpidbg_comm_query", &fn->comm_query);
  Resolve(dl, "mpidbg_comm_f2c", &fn->comm_f2c);
  Resolve(dl, "mpidbg_errhandler_query", &fn->errhandler_query);
  Resolve(dl, "mpidbg_errhandler_f2c", &fn->errhandler_f2c);
  Resolve(dl, "mpidbg_request_query", &fn->request_query);
  Resolve(dl, "mpidbg_request_f2c", &fn->request_f2c);
  Resolve(dl, "mpidbg_status_query", &fn->status_query);
  Resolve(dl, "mpidbg_status_f2c", &fn->status_f2c);
  Resolve(dl, "mpidbg_handle_ext_version", &fn->extension_version);
  Resolve(dl, "mpidbg_name_map_query", &fn->name_map_query);
  Resolve(dl, "mpidbg_comm_query_ext", &fn->comm_query_extended);
  Resolve(dl, "mpidbg_comm_query_remote_job", &fn->comm_query_remote_job);
  Resolve(dl, "mpidbg_request_query_ext", &fn->request_query_extended);
  Resolve(dl, "mpidbg_status_query_ext", &fn->status_query_extended);
  Resolve(dl, "mpidbg_datatype_query", &fn->datatype_query);
  Resolve(dl, "mpidbg_datatype_f2c", &fn->datatype_f2c);
  Resolve(dl, "mpidbg_group_query", &fn->group_query);
  Resolve(dl, "mpidbg_group_f2c", &fn->group_f2c);
  Resolve(dl, "mpidbg_op_query", &fn->op_query);
  Resolve(dl, "mpidbg_op_f2c", &fn->op_f2c);
  Resolve(dl, "mpidbg_info_query", &fn->info_query);
  Resolve(dl, "mpidbg_info_f2c", &fn->info_f2c);
  Resolve(dl, "mpidbg_win_query", &fn->win_query);
  Resolve(dl, "mpidbg_win_f2c", &fn->win_f2c);
  Resolve(dl, "mpidbg_file_query", &fn->file_query);
  Resolve(dl, "mpidbg_file_f2c", &fn->file_f2c);
  Resolve(dl, "mpidbg_message_query", &fn->message_query);
  Resolve(dl, "mpidbg_message_f2c", &fn->message_f2c);
  Resolve(dl, "mpidbg_object_list_query", &fn->object_list_query);
  Resolve(dl, "mpidbg_latest_time_query", &fn->latest_time_query);
}

const char* HandleErrorString(int code) {
  switch (code) {
    case MPIDBG_SUCCESS:
      return "no error";
    case MPIDBG_ERR_NOT_FOUND:
      return "no such handle in this process (never created, or its record is gone)";
    case MPIDBG_ERR_NOT_SUPPORTED:
      return "not supported for this process";
    case MPIDBG_ERR_OUT_OF_RANGE:
      return "value out of range";
    case MPIDBG_ERR_UNAVAILABLE:
      return "the information cannot be read now";
    case MPIDBG_ERR_NO_MEM:
      return "out of memory";
    default:
      return "unknown handle-interface error";
  }
}

}  // namespace mpidbg::host
