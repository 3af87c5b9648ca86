// monitor_json.h — `mpidbg matrix --json`: the "mpidbg.matrix/1" document
// (docs/OUTPUT.md): every matrix dense, histograms per sender, collectives, files.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

// Writes the document row by row: dense matrices of a large job (ten of them, world
// size squared each) never exist in memory as JSON values.
void WriteMonitorJson(std::ostream& out, const JobMonitor& job);

// The same document as a value (for tests and small jobs).
nlohmann::json MonitorToJson(const JobMonitor& job);

}  // namespace mpidbg::monitor
