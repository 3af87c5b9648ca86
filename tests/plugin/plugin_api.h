// plugin_api.h — the plugin as a debugger sees it: a shared object opened with
// dlopen(RTLD_NOW) and every interface function resolved by name.
#ifndef MPIDBG_TESTS_PLUGIN_PLUGIN_API_H
#define MPIDBG_TESTS_PLUGIN_PLUGIN_API_H

#include <string>

#include "mpidbg/mpidbg_ext.h"
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
  X(mpidbg_operation_get_detail)          \
  X(mpidbg_traffic_read)                 \
  X(mpidbg_traffic_get)                  \
  X(mpidbg_logged_send_get)              \
  X(mpidbg_process_get_launch)           \
  X(mpidbg_mpit_read)                    \
  X(mpidbg_mpit_cvar_get)                \
  X(mpidbg_mpit_pvar_get)                \
  X(mpidbg_mpit_category_get)            \
  X(mpidbg_mpit_category_member)

struct PluginApi {
#define MPIDBG_TEST_MEMBER(name) decltype(&::name) name = nullptr;
  MPIDBG_TEST_PLUGIN_FUNCTIONS(MPIDBG_TEST_MEMBER)
#undef MPIDBG_TEST_MEMBER
};

// The plugin under test (MPIDBG_PLUGIN_PATH), opened once per test program. Fails the
// calling test when it cannot be opened or a function is missing.
const PluginApi& plugin();

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_PLUGIN_API_H
