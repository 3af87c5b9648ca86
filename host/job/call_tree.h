// call_tree.h — ranks grouped by where they are, as STAT groups them: a prefix tree of
// call paths (outermost function first), each node holding the ranks whose path passes
// through it. The leaves' rank sets are the rank classes: ranks whose whole paths agree.
// A job of thousands of ranks reads as a handful of classes, not thousands of stacks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mpidbg::job {

// One rank's path, outermost first (e.g. {"main", "exchange", "MPI_Recv"}).
struct RankPath {
  int rank = -1;
  std::vector<std::string> path;
};

struct CallTreeNode {
  std::string name;                    // the function (or, at the top, "" for the root)
  std::vector<int> ranks;              // sorted world ranks whose path passes here
  std::vector<CallTreeNode> children;  // most ranks first, then by name
  bool ends_here = false;              // some ranks' paths end at this node
};

struct RankClass {
  std::vector<int> ranks;              // sorted world ranks
  std::vector<std::string> path;       // outermost first
};

struct CallTree {
  CallTreeNode root;                   // name "", every rank with a path
  std::vector<RankClass> classes;      // most ranks first, then by lowest rank
};

// Paths longer than this are cut at their outermost end: a runaway recursion still
// makes a tree of bounded depth (the innermost frames, where ranks differ, stay).
inline constexpr std::size_t kMaxCallPathDepth = 128;

// Ranks may come in any order; a rank listed twice keeps its first path.
CallTree BuildCallTree(const std::vector<RankPath>& paths);

}  // namespace mpidbg::job
