// isolated_child.h — the child process that runs a foreign message-queue DLL for
// ReadTarget (snapshot_reader.h): it opens the target itself, reads it and sends the
// result to its parent as one JSON document, the snapshot document (snapshot_json.h) or
// an error. A crash or endless loop in the DLL then ends only the child.
#pragma once

#include "host/plugin_host/plugin_choice.h"
#include "host/target/opened_target.h"

namespace mpidbg::host {

// Writes {"snapshot": ...} or {"error": {"kind": EXIT_STATUS, "message": ...}} on `fd`
// and exits.
[[noreturn]] void RunIsolatedChild(int fd, const TargetSpec& spec, const PluginChoice& choice);

}  // namespace mpidbg::host
