// plugin_api.h — the plugin as a debugger sees it: a shared object opened with
// dlopen(RTLD_NOW) and every interface function resolved by name.
#ifndef MPIDBG_TESTS_PLUGIN_PLUGIN_API_H
#define MPIDBG_TESTS_PLUGIN_PLUGIN_API_H

#include <string>

#include "mpidbg/mpidbg_ext.h"
#include "mpidbg/mpidbg_handles.h"
#include "mpidbg/mqs_interface.h"

namespace mpidbg::test {

#define MPIDBG_TEST_PLUGIN_FUNCTIONS(X)  \
  X(mqs_setup_basic_callbacks)           \
  X(mqs_version_string)                  \
  X(mqs_version_compatibility)           \
  X(mqs_dll_taddr_width)                 \
  X(mqs_dll_error_string)                \
  X(mqs_setup_image)                     \
  X(mqs_image_has_queues)                \
  X(mqs_destroy_image_info)              \
  X(mqs_setup_process)                   \
  X(mqs_process_has_queues)              \
  X(mqs_destroy_process_info)            \
  X(mqs_update_communicator_list)        \
  X(mqs_setup_communicator_iterator)     \
  X(mqs_get_communicator)                \
  X(mqs_get_comm_group)                  \
  X(mqs_next_communicator)               \
  X(mqs_setup_operation_iterator)        \
  X(mqs_next_operation)                  \
  X(mpidbg_ext_version)                  \
  X(mpidbg_process_get_summary)          \
  X(mpidbg_thread_count)                 \
  X(mpidbg_thread_get)                   \
  X(mpidbg_thread_waited_operation)      \
  X(mpidbg_comm_get_detail)              \
  X(mpidbg_comm_get_remote_group)        \
  X(mpidbg_comm_get_neighbors)           \
  X(mpidbg_comm_get_remote_job_group)    \
  X(mpidbg_operation_get_detail)          \
  X(mpidbg_traffic_read)                 \
  X(mpidbg_traffic_get)                  \
  X(mpidbg_logged_send_get)              \
  X(mpidbg_process_get_launch)           \
  X(mpidbg_mpit_read)                    \
  X(mpidbg_mpit_cvar_get)                \
  X(mpidbg_mpit_pvar_get)                \
  X(mpidbg_mpit_category_get)            \
  X(mpidbg_mpit_category_member)          \
  X(mpidbg_monitor_read)                 \
  X(mpidbg_monitor_peer_get)             \
  X(mpidbg_monitor_coll_get)             \
  X(mpidbg_monitor_file_get)             \
  X(mpidbg_monitor_mpit_peer_get)        \
  X(mpidbg_monitor_mpit_coll_get)        \
  X(mpidbg_profile_read)                 \
  X(mpidbg_profile_function_get)         \
  X(mpidbg_profile_site_get)             \
  MPIDBG_TEST_HANDLE_FUNCTIONS(X)

// The handle interface (mpidbg_handles.h), version 1 and extensions.
#define MPIDBG_TEST_HANDLE_FUNCTIONS(X)  \
  X(mpidbg_init_once)                    \
  X(mpidbg_interface_version_compatibility) \
  X(mpidbg_version_string)               \
  X(mpidbg_dll_taddr_width)              \
  X(mpidbg_init_per_image)               \
  X(mpidbg_finalize_per_image)           \
  X(mpidbg_init_per_process)             \
  X(mpidbg_finalize_per_process)         \
  X(mpidbg_comm_query)                   \
  X(mpidbg_comm_f2c)                     \
  X(mpidbg_comm_cxx2c)                   \
  X(mpidbg_errhandler_query)             \
  X(mpidbg_errhandler_f2c)               \
  X(mpidbg_errhandler_cxx2c)             \
  X(mpidbg_request_query)                \
  X(mpidbg_request_f2c)                  \
  X(mpidbg_request_cxx2c)                \
  X(mpidbg_status_query)                 \
  X(mpidbg_status_f2c)                   \
  X(mpidbg_status_cxx2c)                 \
  X(mpidbg_handle_ext_version)           \
  X(mpidbg_name_map_query)               \
  X(mpidbg_object_list_query)            \
  X(mpidbg_latest_time_query)            \
  X(mpidbg_comm_query_ext)               \
  X(mpidbg_request_query_ext)            \
  X(mpidbg_status_query_ext)             \
  X(mpidbg_datatype_query)               \
  X(mpidbg_datatype_f2c)                 \
  X(mpidbg_group_query)                  \
  X(mpidbg_group_f2c)                    \
  X(mpidbg_op_query)                     \
  X(mpidbg_op_f2c)                       \
  X(mpidbg_info_query)                   \
  X(mpidbg_info_f2c)                     \
  X(mpidbg_win_query)                    \
  X(mpidbg_win_f2c)                      \
  X(mpidbg_file_query)                   \
  X(mpidbg_file_f2c)                     \
  X(mpidbg_message_query)                \
  X(mpidbg_message_f2c)

// The data the handle interface publishes.
#define MPIDBG_TEST_HANDLE_DATA(X)       \
  X(mpidbg_dll_is_big_endian)            \
  X(mpidbg_dll_bitness)                  \
  X(mpidbg_comm_capabilities)            \
  X(mpidbg_comm_name_map)                \
  X(mpidbg_errhandler_capabilities)      \
  X(mpidbg_errhandler_name_map)

struct PluginApi {
#define MPIDBG_TEST_MEMBER(name) decltype(&::name) name = nullptr;
  MPIDBG_TEST_PLUGIN_FUNCTIONS(MPIDBG_TEST_MEMBER)
  // Data: the address of each object in the plugin.
  MPIDBG_TEST_HANDLE_DATA(MPIDBG_TEST_MEMBER)
#undef MPIDBG_TEST_MEMBER
};

// The plugin under test (MPIDBG_PLUGIN_PATH), opened once per test program. Fails the
// calling test when it cannot be opened or a function is missing.
const PluginApi& plugin();

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_PLUGIN_API_H
