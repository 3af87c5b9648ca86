// read_with_dll.h — one opened target read through a DLL loaded in this process: the
// read itself, shared by ReadTarget (mpidbg's own plugin) and the isolated child that
// runs a foreign DLL (isolated_child.h).
#pragma once

#include "host/model/snapshot.h"
#include "host/plugin_host/plugin_choice.h"
#include "host/snapshot/read_cost.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

// Loads the chosen DLL, reads the target and lets it go (a live process resumed).
// `cost` (optional) receives the session, records, stacks and detach times.
Result<model::ProcessSnapshot> ReadWithDll(OpenedTarget& target, const PluginChoice& choice,
                                           bool want_mpit, ReadCost* cost = nullptr);

}  // namespace mpidbg::host
