// call_tree.cc — building the prefix tree: paths inserted one frame at a time, classes
// read off the nodes where paths end.
#include "job/call_tree.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace mpidbg::job {
namespace {

// While building, children are found by name; the finished tree keeps them in a
// vector ordered for reading.
struct Building {
  std::vector<int> ranks;
  std::map<std::string, Building> children;
  std::vector<int> ending;  // ranks whose path ends here
};

void SortRanks(std::vector<int>* ranks) { std::sort(ranks->begin(), ranks->end()); }

bool MoreRanksFirst(const CallTreeNode& a, const CallTreeNode& b) {
  if (a.ranks.size() != b.ranks.size()) return a.ranks.size() > b.ranks.size();
  return a.name < b.name;
}

CallTreeNode Finish(const std::string& name, Building& b, std::vector<std::string>* path,
                    std::vector<RankClass>* classes) {
  CallTreeNode node;
  node.name = name;
  node.ranks = std::move(b.ranks);
  SortRanks(&node.ranks);
  if (!b.ending.empty()) {
    node.ends_here = true;
    SortRanks(&b.ending);
    classes->push_back({std::move(b.ending), *path});
  }
  for (auto& [child_name, child] : b.children) {
    path->push_back(child_name);
    node.children.push_back(Finish(child_name, child, path, classes));
    path->pop_back();
  }
  std::sort(node.children.begin(), node.children.end(), MoreRanksFirst);
  return node;
}

}  // namespace

CallTree BuildCallTree(const std::vector<RankPath>& paths) {
  Building root;
  std::set<int> seen;
  for (const RankPath& p : paths) {
    if (!seen.insert(p.rank).second) continue;
    Building* at = &root;
    at->ranks.push_back(p.rank);
    std::size_t first = p.path.size() > kMaxCallPathDepth ? p.path.size() - kMaxCallPathDepth : 0;
    for (std::size_t i = first; i < p.path.size(); ++i) {
      at = &at->children[p.path[i]];
      at->ranks.push_back(p.rank);
    }
    at->ending.push_back(p.rank);
  }
  CallTree tree;
  std::vector<std::string> path;
  tree.root = Finish("", root, &path, &tree.classes);
  std::sort(tree.classes.begin(), tree.classes.end(), [](const RankClass& a, const RankClass& b) {
    if (a.ranks.size() != b.ranks.size()) return a.ranks.size() > b.ranks.size();
    return a.ranks.front() < b.ranks.front();
  });
  return tree;
}

}  // namespace mpidbg::job
