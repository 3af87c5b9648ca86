// job_processes.cc — see job_processes.h.
#include "host/collect/job_processes.h"

#include <unistd.h>

#include <map>
#include <optional>

#include "host/collect/runtime_processes.h"
#include "host/target/hydra_arguments.h"
#include "host/target/process_tree.h"
#include "host/target/rank_environment.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

// The Hydra job of the nearest proxy above `pid`, "" when there is none within
// kMaxProxyAncestors. `seen` caches each ancestor's answer (ranks share their proxy).
std::string HydraJobAbove(int64_t pid, const std::map<int64_t, int64_t>& parents,
                          std::map<int64_t, std::optional<std::string>>& seen) {
  int64_t at = pid;
  for (int up = 0; up < kMaxProxyAncestors; ++up) {
    auto parent = parents.find(at);
    if (parent == parents.end() || parent->second <= 1 || parent->second == at) return "";
    at = parent->second;
    auto known = seen.find(at);
    if (known == seen.end()) {
      auto options = ParseHydraProxyCommandLine(LiveCommandLine(at));
      known = seen.emplace(at, options ? std::optional<std::string>(options->job_id())
                                       : std::nullopt).first;
    }
    if (known->second) return *known->second;
  }
  return "";
}

}  // namespace

std::vector<int64_t> LauncherJobProcesses(const std::string& wanted) {
  const std::map<int64_t, int64_t> parents = ProcessParents();
  std::map<int64_t, std::optional<std::string>> proxies;
  std::vector<int64_t> out;
  const int64_t self = getpid();
  for (const auto& [pid, ppid] : parents) {
    if (pid == self) continue;
    if (RankOfEnvironment(LiveEnvironment(pid)).rank < 0) continue;
    if (JobIdMatches(SlurmAllocationOf(pid), wanted) ||
        HydraJobAbove(pid, parents, proxies) == wanted) {
      out.push_back(pid);
    }
  }
  return out;  // ascending: the parents table is ordered by pid
}

}  // namespace mpidbg::host
