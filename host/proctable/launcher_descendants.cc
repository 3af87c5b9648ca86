// launcher_descendants.cc — see launcher_descendants.h.
#include "host/proctable/launcher_descendants.h"

#include <algorithm>
#include <set>
#include <string>

#include "host/target/process_tree.h"
#include "host/target/rank_environment.h"
#include "host/target/target_live.h"

namespace mpidbg::host {

Result<std::vector<LauncherProcess>> DescendantRanks(int64_t launcher_pid) {
  return DescendantRanks(launcher_pid, ProcessParents());
}

Result<std::vector<LauncherProcess>> DescendantRanks(int64_t launcher_pid,
                                                     const std::map<int64_t, int64_t>& parents) {
  if (parents.count(launcher_pid) == 0) {
    return Status::Unreadable("no process " + std::to_string(launcher_pid));
  }
  // Nearest first, so a parent comes before its children: a process below a rank is
  // that rank's child (a shell it ran, a helper it forked), not a rank.
  std::set<int64_t> ranks_and_below;
  std::vector<std::pair<int, LauncherProcess>> found;
  for (int64_t pid : DescendantsOf(launcher_pid, parents)) {
    if (ranks_and_below.count(parents.at(pid)) != 0) {
      ranks_and_below.insert(pid);
      continue;
    }
    const RankFromEnvironment rank = RankOfEnvironment(LiveEnvironment(pid));
    if (!NamedByMpiLauncher(rank)) continue;
    ranks_and_below.insert(pid);
    LauncherProcess process;
    process.pid = pid;
    process.executable_name = LiveExecutable(pid);
    found.emplace_back(rank.rank, std::move(process));
  }
  if (found.empty()) {
    return Status::NoSupport("no process below launcher " + std::to_string(launcher_pid) +
                             " names an MPI rank in its environment");
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<LauncherProcess> out;
  for (auto& [rank, process] : found) out.push_back(std::move(process));
  return out;
}

}  // namespace mpidbg::host
