#include "plugin_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstdio>

namespace mpidbg::test {

const PluginApi& plugin() {
  static const PluginApi api = [] {
    PluginApi a;
    void* handle = dlopen(MPIDBG_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      std::fprintf(stderr, "cannot dlopen %s: %s\n", MPIDBG_PLUGIN_PATH, dlerror());
      std::abort();
    }
#define MPIDBG_TEST_RESOLVE(name)                                               \
  a.name = reinterpret_cast<decltype(a.name)>(dlsym(handle, #name));            \
  if (a.name == nullptr) {                                                      \
    std::fprintf(stderr, "%s does not export %s\n", MPIDBG_PLUGIN_PATH, #name); \
    std::abort();                                                               \
  }
    MPIDBG_TEST_PLUGIN_FUNCTIONS(MPIDBG_TEST_RESOLVE)
    MPIDBG_TEST_HANDLE_DATA(MPIDBG_TEST_RESOLVE)
#undef MPIDBG_TEST_RESOLVE
    return a;
  }();
  return api;
}

}  // namespace mpidbg::test
