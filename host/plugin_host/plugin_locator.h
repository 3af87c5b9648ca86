// plugin_locator.h — where mpidbg's own message-queue DLL (libmpidbg_plugin.so) is.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mpidbg::host {

// Search order: $MPIDBG_PLUGIN; <exe_dir>/../lib/mpidbg/ (installed layout); the
// install directory relative to the executable; <exe_dir>/../plugin/ (build tree);
// the build tree's path compiled in. `tried` (optional) receives every path looked at.
// (--plugin is handled by the caller: it replaces any choice.)
std::optional<std::string> LocateOwnPlugin(std::vector<std::string>* tried = nullptr);

}  // namespace mpidbg::host
