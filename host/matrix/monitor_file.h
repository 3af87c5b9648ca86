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

// The pieces a node record carries (`collect --content monitor`, monitor_document.h):
// the document's "job" object, which sizes `job` to its world size (the largest any
// node names) and must agree on `which`; and one entry of "ranks", claimed in `job`
// (a rank given twice, or out of range, is an error).
host::Status MonitorJobFromJson(const nlohmann::json& job_object, JobMonitor* job);
host::Status AddMonitorRankFromJson(const nlohmann::json& entry, JobMonitor* job);

}  // namespace mpidbg::monitor
