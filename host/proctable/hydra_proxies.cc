// hydra_proxies.cc — see hydra_proxies.h.
#include "host/proctable/hydra_proxies.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "host/target/process_tree.h"
#include "host/target/rank_environment.h"
#include "host/target/target_live.h"

namespace mpidbg::host {

std::optional<HydraBootstrap> ParseHydraBootstrap(const std::vector<std::string>& argv) {
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (!IsHydraProxyPath(argv[i])) continue;
    auto options = ParseHydraProxyOptions(argv, i + 1);
    if (!options) return std::nullopt;
    if (!options->remote_shell()) return HydraBootstrap{"", std::move(*options)};
    const std::string& host = argv[i - 1];
    if (i == 1 || host.empty() || host.front() == '-') return std::nullopt;
    return HydraBootstrap{host, std::move(*options)};
  }
  return std::nullopt;
}

Result<HydraRemoteProxies> FindHydraRemoteProxies(int64_t launcher_pid) {
  return FindHydraRemoteProxies(launcher_pid, ProcessParents());
}

Result<HydraRemoteProxies> FindHydraRemoteProxies(int64_t launcher_pid,
                                                  const std::map<int64_t, int64_t>& parents) {
  std::vector<HydraBootstrap> found;
  std::string other_launcher;  // proxies started through a resource manager
  for (int64_t pid : DescendantsOf(launcher_pid, parents)) {
    auto b = ParseHydraBootstrap(LiveCommandLine(pid));
    if (!b.has_value()) continue;
    if (b->host.empty()) {
      other_launcher = b->proxy.launcher;
    } else {
      found.push_back(std::move(*b));
    }
  }
  const std::string who = "launcher " + std::to_string(launcher_pid);
  if (found.empty() && !other_launcher.empty()) {
    std::string how = who + " starts its Hydra proxies through " + other_launcher +
                      ", not a remote shell";
    if (other_launcher == "slurm") {
      std::string job;
      for (const std::string& entry : LiveEnvironment(launcher_pid)) {
        if (entry.rfind("SLURM_JOB_ID=", 0) == 0) job = entry.substr(13);
      }
      how += job.empty() ? ": read the job with --slurm JOBID"
                         : ": read the job with --slurm " + job;
    }
    return Status::NoSupport(how);
  }
  if (found.empty()) return Status::NoSupport(who + " started no Hydra proxy on another host");
  std::stable_sort(found.begin(), found.end(), [](const HydraBootstrap& a, const HydraBootstrap& b) {
    return a.proxy.proxy_id < b.proxy.proxy_id;
  });
  // The first job (the lowest pgid, mpiexec's own command line) is the one read.
  std::string first_pgid = found.front().proxy.pgid;
  for (const HydraBootstrap& b : found) {
    const std::string& pgid = b.proxy.pgid;
    if (pgid.size() < first_pgid.size() || (pgid.size() == first_pgid.size() && pgid < first_pgid)) {
      first_pgid = pgid;
    }
  }
  HydraRemoteProxies out;
  std::set<std::string> hosts;
  std::set<std::string> others;
  for (const HydraBootstrap& b : found) {
    if (b.proxy.pgid != first_pgid) {
      others.insert(b.proxy.job_id());
      continue;
    }
    if (out.job_id.empty()) out.job_id = b.proxy.job_id();
    if (hosts.insert(b.host).second) out.hosts.push_back(b.host);
  }
  for (const std::string& other : others) {
    std::fprintf(stderr, "mpidbg: launcher %lld also runs Hydra job %s (spawned); only %s is read\n",
                 static_cast<long long>(launcher_pid), other.c_str(), out.job_id.c_str());
  }
  return out;
}

}  // namespace mpidbg::host
