// process_command.h — the common shape of the one-process commands: parse the target,
// read it, print one view as text or the snapshot document as JSON.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "host/model/snapshot.h"

namespace mpidbg::cli {

using TextView = std::function<std::string(const model::ProcessSnapshot&)>;

int RunProcessCommand(const std::string& name, const std::string& summary,
                      const std::vector<std::string>& args, const TextView& view,
                      bool want_mpit = false);

}  // namespace mpidbg::cli
