/* A plain C program loads the plugin the way a C debugger does: dlopen with RTLD_NOW
 * (every undefined symbol must resolve at once) and dlsym of every interface function. */
#include <dlfcn.h>
#include <stdio.h>

static const char* const kFunctions[] = {
    "mqs_setup_basic_callbacks", "mqs_version_string",
    "mqs_version_compatibility", "mqs_dll_taddr_width",
    "mqs_dll_error_string",      "mqs_setup_image",
    "mqs_image_has_queues",      "mqs_destroy_image_info",
    "mqs_setup_process",         "mqs_process_has_queues",
    "mqs_destroy_process_info",  "mqs_update_communicator_list",
    "mqs_setup_communicator_iterator", "mqs_get_communicator",
    "mqs_get_comm_group",        "mqs_next_communicator",
    "mqs_setup_operation_iterator", "mqs_next_operation",
    "mpidbg_ext_version",        "mpidbg_process_get_summary",
    "mpidbg_thread_count",       "mpidbg_thread_get",
    "mpidbg_thread_waited_operation", "mpidbg_comm_get_detail",
    "mpidbg_comm_get_remote_group", "mpidbg_operation_get_detail",
};

int main(void) {
  void* handle = dlopen(MPIDBG_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", MPIDBG_PLUGIN_PATH, dlerror());
    return 1;
  }
  int missing = 0;
  for (size_t i = 0; i < sizeof kFunctions / sizeof kFunctions[0]; ++i) {
    if (dlsym(handle, kFunctions[i]) == NULL) {
      fprintf(stderr, "missing %s\n", kFunctions[i]);
      ++missing;
    }
  }
  int (*compat)(void) = (int (*)(void))dlsym(handle, "mqs_version_compatibility");
  char* (*version)(void) = (char* (*)(void))dlsym(handle, "mqs_version_string");
  if (compat == NULL || compat() != 2 || version == NULL) {
    fprintf(stderr, "wrong compatibility level\n");
    ++missing;
  } else {
    printf("%s\n", version());
  }
  if (dlclose(handle) != 0) {
    fprintf(stderr, "dlclose: %s\n", dlerror());
    ++missing;
  }
  return missing == 0 ? 0 : 1;
}
