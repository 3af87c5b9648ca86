// runtime_locations.cc — the runtime search path. The relative install directory and
// the build directory come from CMake, so an installed tree and a build tree both work
// without configuration.
#include "host/run/runtime_locations.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef MPIDBG_LIBDIR_FROM_BINDIR
#define MPIDBG_LIBDIR_FROM_BINDIR "../lib"
#endif
#ifndef MPIDBG_BUILD_RUNTIME_DIR
#define MPIDBG_BUILD_RUNTIME_DIR ""
#endif

namespace mpidbg::launch {

std::vector<std::string> RuntimeSearchDirs() {
  std::vector<std::string> dirs;
  if (const char* env = getenv("MPIDBG_RUNTIME_DIR"); env && *env) dirs.emplace_back(env);
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    std::string dir(exe);
    dir.erase(dir.rfind('/'));
    dirs.push_back(dir + "/" + MPIDBG_LIBDIR_FROM_BINDIR);
  }
  if (*MPIDBG_BUILD_RUNTIME_DIR) dirs.emplace_back(MPIDBG_BUILD_RUNTIME_DIR);
  return dirs;
}

}  // namespace mpidbg::launch
