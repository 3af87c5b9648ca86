// monitor_document.h — the pieces of an "mpidbg.monitor/1" document (docs/OUTPUT.md, the
// file the runtime writes at MPI_Finalize) written from the model, for node records
// (`collect --content monitor`): the "job" object and one entry of "ranks". The file's
// reader (monitor_file.h) reads them back; the runtime writes the whole file in the
// target, where this cannot run.
#pragma once

#include <nlohmann/json.hpp>

#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

nlohmann::json MonitorJobObject(const JobMonitor& job);

// Peers without counts, and the optional parts without data, are left out.
nlohmann::json MonitorRankObject(const RankMonitor& rank);

}  // namespace mpidbg::monitor
