// hydra_proxies.cc — see hydra_proxies.h.
#include "host/proctable/hydra_proxies.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "host/proctable/launcher_descendants.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

constexpr const char* kProxyName = "hydra_pmi_proxy";

// Hydra quotes the proxy's path for the remote shell ("\"/usr/bin/hydra_pmi_proxy\"").
std::string Unquoted(const std::string& word) {
  if (word.size() >= 2 && (word.front() == '"' || word.front() == '\'') &&
      word.back() == word.front()) {
    return word.substr(1, word.size() - 2);
  }
  return word;
}

bool IsProxyPath(const std::string& word) {
  const std::string path = Unquoted(word);
  const std::size_t slash = path.rfind('/');
  return path.compare(slash == std::string::npos ? 0 : slash + 1, std::string::npos,
                      kProxyName) == 0;
}

}  // namespace

std::optional<HydraBootstrap> ParseHydraBootstrap(const std::vector<std::string>& argv) {
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (!IsProxyPath(argv[i])) continue;
    const std::string& host = argv[i - 1];
    if (i == 1 || host.empty() || host.front() == '-') return std::nullopt;
    HydraBootstrap b;
    b.host = host;
    for (std::size_t k = i + 1; k + 1 < argv.size(); ++k) {
      const std::string& option = argv[k];
      const std::string& value = argv[k + 1];
      if (option == "--control-port") b.control_port = value;
      if (option == "--pgid") b.pgid = value;
      if (option == "--proxy-id") {
        try {
          b.proxy_id = std::stoi(value);
        } catch (...) {
          b.proxy_id = -1;
        }
      }
    }
    if (b.control_port.empty()) return std::nullopt;
    return b;
  }
  return std::nullopt;
}

std::string HydraJobId(const HydraBootstrap& b) { return b.control_port + "/" + b.pgid; }

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
    return a.proxy_id < b.proxy_id;
  });
  // The first job (the lowest pgid, mpiexec's own command line) is the one read.
  std::string first_pgid = found.front().pgid;
  for (const HydraBootstrap& b : found) {
    if (b.pgid.size() < first_pgid.size() ||
        (b.pgid.size() == first_pgid.size() && b.pgid < first_pgid)) {
      first_pgid = b.pgid;
    }
  }
  HydraRemoteProxies out;
  std::set<std::string> hosts;
  std::set<std::string> others;
  for (const HydraBootstrap& b : found) {
    if (b.pgid != first_pgid) {
      others.insert(HydraJobId(b));
      continue;
    }
    if (out.job_id.empty()) out.job_id = HydraJobId(b);
    if (hosts.insert(b.host).second) out.hosts.push_back(b.host);
  }
  for (const std::string& other : others) {
    std::fprintf(stderr, "mpidbg: launcher %lld also runs Hydra job %s (spawned); only %s is read\n",
                 static_cast<long long>(launcher_pid), other.c_str(), out.job_id.c_str());
  }
  return out;
}

}  // namespace mpidbg::host
