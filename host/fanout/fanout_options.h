// fanout_options.h — the command line's fan-out options (--slurm, --launcher,
// --remote-mpidbg, --remote-shell, --timeout, --plugin; cli/target_list_options) as a
// request for PlanFanout, the same for `job`, `matrix` and `profile`.
#pragma once

#include <string>
#include <vector>

#include "host/cli/target_list_options.h"
#include "host/fanout/fanout_collect.h"

namespace mpidbg::host {

// True when the options read ranks on other nodes (or may: --launcher) instead of
// this host's targets only.
bool ReadsAcrossNodes(const cli::TargetListOptions& t);

// The request; each node reader also gets `reader_extra` (e.g. --content monitor).
FanoutRequest FanoutRequestOf(const cli::TargetListOptions& t,
                              std::vector<std::string> reader_extra);

// The targets of this host a plan leaves to its caller (a launcher's local ranks).
std::vector<TargetSpec> LocalTargetsOf(const FanoutPlan& plan, const std::string& plugin);

}  // namespace mpidbg::host
