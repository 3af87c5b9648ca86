// monitor_html.h — `matrix --html`: the job's communication on one self-contained page:
// the chosen view as heat maps (messages and bytes; values in human units, exact on
// hover), per-rank totals, message sizes as bars, collectives; each rank's totals on
// demand.
#pragma once

#include <string>

#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

std::string MonitorToHtml(const JobMonitor& job, View view);

}  // namespace mpidbg::monitor
