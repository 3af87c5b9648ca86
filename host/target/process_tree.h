// process_tree.h — this host's processes as a tree, from /proc: who is whose parent, and
// what lies below a process (a launcher's proxies and ranks, a proxy's ranks).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace mpidbg::host {

// Upper bound on the processes walked below one process.
constexpr std::size_t kMaxDescendants = 1 << 16;

// Parent of every process of this host (/proc/PID/stat), pid -> ppid.
std::map<int64_t, int64_t> ProcessParents();

// The descendants of `root` in `parents`, nearest first (breadth-first).
std::vector<int64_t> DescendantsOf(int64_t root, const std::map<int64_t, int64_t>& parents);

}  // namespace mpidbg::host
