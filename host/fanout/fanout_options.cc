// fanout_options.cc — command-line options into a fan-out request.
#include "host/fanout/fanout_options.h"

#include <utility>

namespace mpidbg::host {

bool ReadsAcrossNodes(const cli::TargetListOptions& t) {
  return !t.slurm.empty() || t.launcher != 0;
}

FanoutRequest FanoutRequestOf(const cli::TargetListOptions& t,
                              std::vector<std::string> reader_extra) {
  FanoutRequest r;
  r.slurm = t.slurm;
  r.launcher = t.launcher;
  r.remote_shell = t.remote_shell;
  r.reader.mpidbg = t.remote_mpidbg;
  r.reader.plugin = t.plugin;
  r.reader.extra = std::move(reader_extra);
  r.timeout_seconds = t.timeout_seconds;
  return r;
}

std::vector<TargetSpec> LocalTargetsOf(const FanoutPlan& plan, const std::string& plugin) {
  std::vector<TargetSpec> targets;
  for (int64_t pid : plan.local_pids) {
    TargetSpec spec;
    spec.pid = pid;
    spec.plugin = plugin;
    targets.push_back(spec);
  }
  return targets;
}

}  // namespace mpidbg::host
