// runtime_locations.h — where `mpidbg` looks for the runtime libraries it injects.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::launch {

// In order: $MPIDBG_RUNTIME_DIR, the installed library directory relative to the
// running executable, the build tree's runtime directory.
std::vector<std::string> RuntimeSearchDirs();

}  // namespace mpidbg::launch
