// hydra_proxies.cc — see hydra_proxies.h.
#include "host/proctable/hydra_proxies.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "host/target/process_tree.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
std::optional<HydraBootstrap> ParseHydraBootstrap(const std::vector<std::string>& argv) {
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (!IsHydraProxyPath(argv[i])) continue;
    const std::string& host = argv[i - 1];
    if (i == 1 || host.empty() || host.front() == '-') return std::nullopt;
    auto options = ParseHydraProxyOptions(argv, i + 1);
    if (!options) return std::nullopt;
    return HydraBootstrap{host, std::move(*options)};
  }
  return std::nullopt;
}

Result<HydraRemoteProxies> FindHydraRemoteProxies(int64_t launcher_pid) {
  std::vector<HydraBootstrap> found;
  for (int64_t pid : DescendantsOf(launcher_pid, ProcessParents())) {
    auto b = ParseHydraBootstrap(LiveCommandLine(pid));
    if (b.has_value()) found.push_back(std::move(*b));
  }
  if (found.empty()) {
    return Status::NoSupport("launcher " + std::to_string(launcher_pid) +
                             " started no Hydra proxy on another host");
  }
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
