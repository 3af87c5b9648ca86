// plugin_choice.h — which message-queue DLL reads a target.
#pragma once

#include <cstdint>
#include <string>

#include "host/symbols/symbol_index.h"
#include "host/target/target_memory.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct PluginChoice {
  std::string path;
  bool ours = false;   // mpidbg's own plugin (trusted to run in-process)
  std::string reason;  // how it was chosen, for messages
};

// --plugin wins; else the mpidbg runtime's root symbol selects our plugin; else the
// DLL the MPI library names in MPIR_dll_name. Neither: "no MPI debugging support",
// naming what was looked for and in which modules.
Result<PluginChoice> ChoosePlugin(SymbolIndex& symbols, TargetMemory& memory,
                                  const std::string& override_path, int64_t pid);

}  // namespace mpidbg::host
