// profile_nodes.cc — node records of MPI-state samples merged into one job.
#include "host/profile/profile_nodes.h"

#include <cstdio>
#include <utility>

#include "host/collect/node_record_schema.h"
#include "host/fanout/fanout_options.h"
#include "host/fanout/phase_clock.h"
#include "host/profile/profile_file.h"
#include "host/profile/profile_plugin.h"

namespace mpidbg::profile {

host::NodeRecordSinks ProfileRecordSinks(JobProfile* job) {
  host::NodeRecordSinks sinks;
  sinks.content = host::kNodeContentProfile;
  sinks.on_section = [job](const nlohmann::json& job_object, const nlohmann::json& rank) {
    host::Status st = ProfileJobFromJson(job_object, job);
    return st.ok() ? AddProfileRankFromJson(rank, job) : st;
  };
  // Ranks a reader could not read were named on its stderr; they are left out.
  sinks.on_rank = [](model::ProcessSnapshot&&) {};
  return sinks;
}

host::Result<JobProfile> ReadProfileAcrossNodes(const cli::TargetListOptions& t) {
  host::PhaseClock clock;
  auto plan = host::PlanFanout(host::FanoutRequestOf(t, {"--content", host::kNodeContentProfile}),
                               clock);
  if (!plan.ok()) return plan.status();
  JobProfile job;
  job.source = "live";
  if (!plan->local_pids.empty()) {
    auto local = ReadJobProfile(host::LocalTargetsOf(*plan, t.plugin));
    if (local.ok()) job = std::move(local.value());
  }
  if (!plan->reads.empty()) {
    JobProfile remote;
    host::CollectFromReaders(*plan, t.timeout_seconds, clock, ProfileRecordSinks(&remote));
    bool local_ranks = !job.ranks.empty();
    if (!local_ranks) {
      job.id = remote.id;
      job.period_ns = remote.period_ns;
      job.clock = remote.clock;
      job.signal = remote.signal;
    }
    if (remote.world_size > job.world_size) {
      std::size_t had = job.ranks.size();
      job.world_size = remote.world_size;
      job.ranks.resize(static_cast<std::size_t>(remote.world_size));
      for (std::size_t i = had; i < job.ranks.size(); ++i) job.ranks[i].rank = static_cast<int>(i);
    }
    for (RankProfile& r : remote.ranks) {
      if (!r.present) continue;
      if (local_ranks && (remote.period_ns != job.period_ns || remote.clock != job.clock)) {
        std::fprintf(stderr, "mpidbg: rank %d was sampled with another period or clock; left out\n",
                     r.rank);
        continue;
      }
      RankProfile& slot = job.ranks[static_cast<std::size_t>(r.rank)];
      if (slot.present) {
        std::fprintf(stderr, "mpidbg: rank %d was read twice; the first is kept\n", r.rank);
        continue;
      }
      slot = std::move(r);
    }
  }
  int present = 0;
  for (const RankProfile& r : job.ranks) present += r.present ? 1 : 0;
  if (present == 0) return host::Status::Unreadable("no rank of the job could be read");
  MergeRanks(&job);  // the job-wide totals from every rank, local and remote alike
  return job;
}

}  // namespace mpidbg::profile
