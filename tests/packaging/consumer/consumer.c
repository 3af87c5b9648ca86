/* consumer.c — a tool built against an installed mpidbg: compiles against the public
 * headers and loads the plugin from the path the package gives (argv[1]), as a
 * debugger does. Prints the plugin's version string; exit 1 if anything is missing. */
#include <dlfcn.h>
#include <stdio.h>

#include <mpidbg/mpidbg_handles.h>
#include <mpidbg/mqs_interface.h>

typedef char* (*version_fn)(void);
typedef int (*compatibility_fn)(void);

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer PLUGIN\n");
    return 2;
  }
  void* dll = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (dll == NULL) {
    fprintf(stderr, "consumer: %s\n", dlerror());
    return 1;
  }
  /* The prototypes of the headers, checked against what the DLL exports. */
  version_fn version = (version_fn)dlsym(dll, "mqs_version_string");
  compatibility_fn compat = (compatibility_fn)dlsym(dll, "mqs_version_compatibility");
  if (version == NULL || compat == NULL) {
    fprintf(stderr, "consumer: %s exports no message-queue interface\n", argv[1]);
    return 1;
  }
  printf("plugin %s, compatibility %d, handle interface %d (record %zu bytes)\n", version(),
         compat(), MPIDBG_INTERFACE_VERSION, sizeof(struct mpidbg_handle_info_t));
  return 0;
}
