// monitor_nodes.cc — node records of communication counters merged into one job.
#include "host/matrix/monitor_nodes.h"

#include <cstdio>
#include <utility>

#include "host/collect/node_record_schema.h"
#include "host/fanout/fanout_options.h"
#include "host/fanout/phase_clock.h"
#include "host/matrix/monitor_file.h"
#include "host/matrix/monitor_plugin.h"
#include "mpidbg/mpidbg_ext.h"

namespace mpidbg::monitor {

host::NodeRecordSinks MonitorRecordSinks(JobMonitor* job) {
  host::NodeRecordSinks sinks;
  sinks.content = host::kNodeContentMonitor;
  sinks.on_section = [job](const nlohmann::json& job_object, const nlohmann::json& rank) {
    host::Status st = MonitorJobFromJson(job_object, job);
    return st.ok() ? AddMonitorRankFromJson(rank, job) : st;
  };
  // Ranks a reader could not read were named on its stderr; they show "no data".
  sinks.on_rank = [](model::ProcessSnapshot&&) {};
  return sinks;
}

host::Result<JobMonitor> ReadMonitorAcrossNodes(const cli::TargetListOptions& t, int which) {
  const std::string which_name = which == MPIDBG_MONITOR_CURRENT ? "current" : "accumulated";
  host::PhaseClock clock;
  auto plan = host::PlanFanout(
      host::FanoutRequestOf(t, {"--content", host::kNodeContentMonitor, "--which", which_name}),
      clock);
  if (!plan.ok()) return plan.status();
  JobMonitor job;
  job.which = which_name;
  job.source = "live";
  if (!plan->local_pids.empty()) {
    auto local = ReadJobMonitor(host::LocalTargetsOf(*plan, t.plugin), which);
    if (local.ok()) job = std::move(local.value());
  }
  if (!plan->reads.empty()) {
    JobMonitor remote;
    remote.which = which_name;
    host::CollectFromReaders(*plan, t.timeout_seconds, clock, MonitorRecordSinks(&remote));
    if (remote.world_size > job.world_size) {
      std::size_t had = job.ranks.size();
      job.world_size = remote.world_size;
      job.ranks.resize(static_cast<std::size_t>(remote.world_size));
      for (std::size_t i = had; i < job.ranks.size(); ++i) job.ranks[i].rank = static_cast<int>(i);
    }
    for (RankMonitor& r : remote.ranks) {
      if (!r.present) continue;
      RankMonitor& slot = job.ranks[static_cast<std::size_t>(r.rank)];
      if (slot.present) {
        std::fprintf(stderr, "mpidbg: rank %d was read twice; the first is kept\n", r.rank);
        continue;
      }
      slot = std::move(r);
    }
  }
  int present = 0;
  for (const RankMonitor& r : job.ranks) present += r.present ? 1 : 0;
  if (present == 0) return host::Status::Unreadable("no rank of the job could be read");
  return job;
}

}  // namespace mpidbg::monitor
