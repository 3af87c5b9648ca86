// monitor_text.h — `mpidbg matrix` as text.
#pragma once

#include <string>

#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

// Jobs above this many ranks get the list of the largest pairs instead of the grid.
constexpr int kDenseTextMaxRanks = 32;
// Pairs listed for a large job.
constexpr size_t kTopPairs = 50;

// The chosen matrix (grid, or top pairs and totals for a large job), per-rank totals,
// the size histogram, collectives, files and the MPI_T section.
std::string MonitorToText(const JobMonitor& job, View view, Metric metric);

}  // namespace mpidbg::monitor
