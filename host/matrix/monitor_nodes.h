// monitor_nodes.h — `matrix --slurm` and `matrix --launcher` with ranks on other hosts:
// one node reader per node (`collect --content monitor`, through fanout/), their
// records merged into one JobMonitor as they arrive, the launcher's ranks on this host
// read here.
#pragma once

#include "host/cli/target_list_options.h"
#include "host/collect/node_record_parser.h"
#include "host/matrix/monitor_model.h"
#include "host/util/status.h"

namespace mpidbg::monitor {

// Node records of monitor content into `job` (sized by their headers): the sinks a
// node's record is read through.
host::NodeRecordSinks MonitorRecordSinks(JobMonitor* job);

// The whole read. `which` is MPIDBG_MONITOR_ACCUMULATED or _CURRENT. A node that fails
// is named on stderr and its ranks show "no data"; only a job of which no rank could be
// read fails.
host::Result<JobMonitor> ReadMonitorAcrossNodes(const cli::TargetListOptions& targets, int which);

}  // namespace mpidbg::monitor
