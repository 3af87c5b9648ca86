// launcher_descendants.cc — see launcher_descendants.h.
#include "host/proctable/launcher_descendants.h"

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>
#include <string>

#include "host/target/rank_environment.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

// The parent of a process: the field after the state in its main thread's stat. -1
// when it cannot be read or parsed.
int64_t ParentOf(int64_t pid) {
  const std::string fields = ThreadStatFields(pid, pid);  // "S 1234 ..."
  const std::size_t space = fields.find(' ');
  if (space == std::string::npos) return -1;
  try {
    return std::stoll(fields.substr(space + 1));
  } catch (...) {
    return -1;
  }
}

bool AllDigits(const char* s) {
  if (*s == '\0') return false;
  for (; *s != '\0'; ++s) {
    if (!std::isdigit(static_cast<unsigned char>(*s))) return false;
  }
  return true;
}

}  // namespace

std::map<int64_t, int64_t> ProcessParents() {
  std::map<int64_t, int64_t> parents;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return parents;
  while (dirent* e = readdir(proc)) {
    if (!AllDigits(e->d_name)) continue;
    const int64_t pid = std::stoll(e->d_name);
    const int64_t ppid = ParentOf(pid);
    if (ppid >= 0) parents[pid] = ppid;
  }
  closedir(proc);
  return parents;
}

std::vector<int64_t> DescendantsOf(int64_t root, const std::map<int64_t, int64_t>& parents) {
  std::map<int64_t, std::vector<int64_t>> children;
  for (const auto& [pid, ppid] : parents) {
    if (pid != ppid) children[ppid].push_back(pid);
  }
  std::vector<int64_t> out;
  std::set<int64_t> seen = {root};
  std::deque<int64_t> queue = {root};
  while (!queue.empty() && out.size() < kMaxDescendants) {
    const int64_t pid = queue.front();
    queue.pop_front();
    auto it = children.find(pid);
    if (it == children.end()) continue;
    for (int64_t child : it->second) {
      if (!seen.insert(child).second) continue;  // a loop in a table read mid-change
      out.push_back(child);
      queue.push_back(child);
    }
  }
  return out;
}

Result<std::vector<LauncherProcess>> DescendantRanks(int64_t launcher_pid) {
  const std::map<int64_t, int64_t> parents = ProcessParents();
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
