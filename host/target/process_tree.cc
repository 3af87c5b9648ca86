// process_tree.cc — see process_tree.h.
#include "host/target/process_tree.h"

#include <dirent.h>

#include <cctype>
#include <deque>
#include <set>
#include <string>

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

}  // namespace mpidbg::host
