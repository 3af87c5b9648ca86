// monitor_file.h — the "mpidbg.monitor/1" file the runtime writes at MPI_Finalize
// (docs/OUTPUT.md, last section) read into the model.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "host/matrix/monitor_model.h"
#include "host/util/status.h"

namespace mpidbg::monitor {

// Errors are "cannot be read" (exit status 3) with one sentence naming `name` and the
// offending key.
host::Result<JobMonitor> MonitorFromJson(const nlohmann::json& doc, const std::string& name);
host::Result<JobMonitor> LoadMonitorFile(const std::string& path);

}  // namespace mpidbg::monitor
