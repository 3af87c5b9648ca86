// handle_functions.h — a DLL's handle interface (mpidbg_handles.h) as a table of its
// mpidbg_* entry points, resolved with dlsym from a loaded DLL. Kept apart from loading
// (handle_dll.h) so the describer library (libmpidbg_describe) can resolve the table of
// a DLL another debugger loaded, without the host's target and symbol readers.
#pragma once

#include "mpidbg/mpidbg_handles.h"

namespace mpidbg::host {

// Version 1 entry points are required (a DLL without them has no handle interface);
// the extension's may be null, and a query whose function is null answers "not
// supported by this DLL".
struct HandleFunctions {
  decltype(&mpidbg_init_once) init_once = nullptr;
  decltype(&mpidbg_interface_version_compatibility) version_compatibility = nullptr;
  decltype(&mpidbg_version_string) version_string = nullptr;
  decltype(&mpidbg_dll_taddr_width) dll_taddr_width = nullptr;
  decltype(&mpidbg_init_per_image) init_per_image = nullptr;
  decltype(&mpidbg_finalize_per_image) finalize_per_image = nullptr;
  decltype(&mpidbg_init_per_process) init_per_process = nullptr;
  decltype(&mpidbg_finalize_per_process) finalize_per_process = nullptr;
  decltype(&mpidbg_comm_query) comm_query = nullptr;
  decltype(&mpidbg_comm_f2c) comm_f2c = nullptr;
  decltype(&mpidbg_errhandler_query) errhandler_query = nullptr;
  decltype(&mpidbg_errhandler_f2c) errhandler_f2c = nullptr;
  decltype(&mpidbg_request_query) request_query = nullptr;
  decltype(&mpidbg_request_f2c) request_f2c = nullptr;
  decltype(&mpidbg_status_query) status_query = nullptr;
  decltype(&mpidbg_status_f2c) status_f2c = nullptr;
  // Extension (Part 2).
  decltype(&mpidbg_handle_ext_version) extension_version = nullptr;
  decltype(&mpidbg_name_map_query) name_map_query = nullptr;
  decltype(&mpidbg_comm_query_ext) comm_query_extended = nullptr;
  decltype(&mpidbg_comm_query_remote_job) comm_query_remote_job = nullptr;  // may be absent
  decltype(&mpidbg_request_query_ext) request_query_extended = nullptr;
  decltype(&mpidbg_status_query_ext) status_query_extended = nullptr;
  decltype(&mpidbg_datatype_query) datatype_query = nullptr;
  decltype(&mpidbg_datatype_f2c) datatype_f2c = nullptr;
  decltype(&mpidbg_group_query) group_query = nullptr;
  decltype(&mpidbg_group_f2c) group_f2c = nullptr;
  decltype(&mpidbg_op_query) op_query = nullptr;
  decltype(&mpidbg_op_f2c) op_f2c = nullptr;
  decltype(&mpidbg_info_query) info_query = nullptr;
  decltype(&mpidbg_info_f2c) info_f2c = nullptr;
  decltype(&mpidbg_win_query) win_query = nullptr;
  decltype(&mpidbg_win_f2c) win_f2c = nullptr;
  decltype(&mpidbg_file_query) file_query = nullptr;
  decltype(&mpidbg_file_f2c) file_f2c = nullptr;
  decltype(&mpidbg_message_query) message_query = nullptr;
  decltype(&mpidbg_message_f2c) message_f2c = nullptr;
  // Extension version 2: may be absent from an older DLL.
  decltype(&mpidbg_object_list_query) object_list_query = nullptr;
  decltype(&mpidbg_latest_time_query) latest_time_query = nullptr;
};

// Fills `fn` from the dlopen handle `dl`; absent entry points stay null.
void ResolveHandleFunctions(void* dl, HandleFunctions* fn);

// Text for an MPIDBG_* return code.
const char* HandleErrorString(int code);

}  // namespace mpidbg::host
