// launcher_ranks.cc — see launcher_ranks.h.
#include "host/proctable/launcher_ranks.h"

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "host/proctable/hydra_proxies.h"
#include "host/proctable/launcher_descendants.h"
#include "host/target/hydra_arguments.h"
#include "host/target/process_tree.h"
#include "host/target/rank_environment.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

std::string Joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

// Processes below a wrapper tried for a table (each costs its symbol tables).
constexpr int kMaxLaunchersBelow = 8;

// A wrapper named as the launcher (`timeout 600 mpirun ...`, a batch script's shell,
// `mpidbg run`): the table of the nearest process below it that keeps one. Ranks and
// what runs below them are passed over (a rank is no launcher, and its symbol tables are
// the costly ones). kNoSupport when none does.
Result<std::vector<LauncherProcess>> TableBelow(int64_t wrapper_pid,
                                                const std::map<int64_t, int64_t>& parents) {
  std::set<int64_t> ranks_and_below;
  int tried = 0;
  for (int64_t pid : DescendantsOf(wrapper_pid, parents)) {
    if (ranks_and_below.count(parents.at(pid)) != 0 ||
        NamedByMpiLauncher(RankOfEnvironment(LiveEnvironment(pid)))) {
      ranks_and_below.insert(pid);
      continue;
    }
    // Hydra's proxies and the remote shells that start them keep no table.
    const std::vector<std::string> argv = LiveCommandLine(pid);
    if (ParseHydraProxyCommandLine(argv) || ParseHydraBootstrap(argv)) continue;
    if (tried++ == kMaxLaunchersBelow) break;
    auto table = ReadLauncherProctable(pid);
    if (!table.ok()) continue;
    std::fprintf(stderr, "mpidbg: process %lld keeps no MPIR process table; launcher %lld "
                 "below it (%s) does: its ranks are read from there\n",
                 static_cast<long long>(wrapper_pid), static_cast<long long>(pid),
                 LiveExecutable(pid).c_str());
    return table;
  }
  return Status::NoSupport("no process below it keeps one");
}

}  // namespace

Result<LauncherJob> ReadLauncherRanks(int64_t launcher_pid) {
  LauncherJob job;
  auto table = ReadLauncherProctable(launcher_pid);
  if (table.ok()) {
    job.ranks = std::move(table.value());
    return job;
  }
  if (table.status().kind() != ErrorKind::kNoSupport) return table.status();
  // One parent table for the three walks below the launcher.
  const std::map<int64_t, int64_t> parents = ProcessParents();
  auto wrapped = TableBelow(launcher_pid, parents);
  if (wrapped.ok()) {
    job.ranks = std::move(wrapped.value());
    return job;
  }
  auto below = DescendantRanks(launcher_pid, parents);
  auto proxies = FindHydraRemoteProxies(launcher_pid, parents);
  if (!below.ok() && !proxies.ok()) {
    return Status::Error(table.status().kind(),
                         table.status().message() + "; no process below it on this host names "
                         "an MPI rank; " + proxies.status().message() + "; or give the rank "
                         "process ids with --pids");
  }
  if (below.ok()) job.ranks = std::move(below.value());
  std::string elsewhere = " (" + proxies.status().message() + ")";
  if (proxies.ok()) {
    job.remote_job_id = proxies->job_id;
    job.remote_hosts = proxies->hosts;
    elsewhere = ", and those of Hydra job " + job.remote_job_id + " on the " +
                std::to_string(job.remote_hosts.size()) + " other host" +
                (job.remote_hosts.size() == 1 ? "" : "s") + " it started proxies on (" +
                Joined(job.remote_hosts) + ")";
  }
  std::fprintf(stderr,
               "mpidbg: launcher %lld keeps no MPIR process table: its ranks are the %zu "
               "process%s below it on this host that name an MPI rank%s\n",
               static_cast<long long>(launcher_pid), job.ranks.size(),
               job.ranks.size() == 1 ? "" : "es", elsewhere.c_str());
  return job;
}

Result<std::vector<int64_t>> LauncherLocalRankPids(int64_t launcher_pid) {
  auto job = ReadLauncherRanks(launcher_pid);
  if (!job.ok()) return job.status();
  for (const std::string& host : job->remote_hosts) {
    std::fprintf(stderr, "mpidbg: the ranks of Hydra job %s on %s are on another host and are "
                 "left out\n", job->remote_job_id.c_str(), host.c_str());
  }
  if (job->ranks.empty()) {
    return Status::NoSupport("launcher " + std::to_string(launcher_pid) +
                             " has no rank on this host (its ranks run on " +
                             Joined(job->remote_hosts) + "); this command reads this host's "
                             "ranks only: run it there with --pids");
  }
  std::vector<std::string> remote;
  auto local = LocalRankPids(job->ranks, &remote);
  if (!local.ok()) return local.status();
  for (const std::string& r : remote) {
    std::fprintf(stderr, "mpidbg: %s is on another host and is left out\n", r.c_str());
  }
  return local;
}

}  // namespace mpidbg::host
