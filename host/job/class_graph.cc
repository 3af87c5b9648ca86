// class_graph.cc — ranks' waits gathered per class; collective mismatches as marks.
#include "job/class_graph.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "job/call_info.h"

namespace mpidbg::job {
namespace {

// The call a class shows: the one summary its ranks share, else the call names.
std::string ClassCall(const std::vector<int>& ranks,
                      const std::unordered_map<int, const RankReport*>& by_rank) {
  std::string summary;
  std::string call;
  bool same = true;
  for (int r : ranks) {
    auto found = by_rank.find(r);
    if (found == by_rank.end()) continue;
    const RankReport& report = *found->second;
    const std::string& s = report.summary;
    const std::string c = report.call ? *report.call : RankStateText(report.state);
    if (call.empty()) {
      summary = s;
      call = c;
    } else {
      same = same && s == summary;
      if (c != call && call.find(" or ") == std::string::npos) call += " or " + c;
    }
  }
  if (same) return summary;
  return call + " (arguments differ by rank)";
}

// Each class of a shared group and how many of the group's members it holds, worked out
// once per group however many waits draw on it.
using ClassCounts = std::vector<std::pair<std::size_t, std::size_t>>;

ClassCounts CountClasses(const std::vector<int>& ranks, const ClassGraph& graph) {
  std::map<std::size_t, std::size_t> counts;
  for (int r : ranks) {
    if (auto c = graph.ClassOf(r)) ++counts[*c];
  }
  return ClassCounts(counts.begin(), counts.end());
}

class EdgeSink {
 public:
  explicit EdgeSink(ClassGraph* graph) : graph_(graph) {}

  void Add(std::size_t from, std::size_t to, const WaitRequirement& w, std::size_t waits,
           bool deadlocked) {
    auto key = std::make_tuple(from, to, w.kind);
    auto [it, fresh] = index_.try_emplace(key, graph_->edges.size());
    if (fresh) {
      ClassEdge e;
      e.from = from;
      e.to = to;
      e.kind = w.kind;
      e.reason = w.reason;
      graph_->edges.push_back(std::move(e));
    }
    ClassEdge& e = graph_->edges[it->second];
    e.waits += waits;
    e.deadlocked = e.deadlocked || deadlocked;
  }

 private:
  ClassGraph* graph_;
  std::map<std::tuple<std::size_t, std::size_t, WaitKind>, std::size_t> index_;
};

void Mismatches(const JobReport& report, ClassGraph* graph,
                std::unordered_map<int, std::size_t>* rank_mismatch) {
  for (std::size_t k = 0; k < report.collective_mismatches.size(); ++k) {
    const CollectiveMismatch& m = report.collective_mismatches[k];
    ClassMismatch out;
    out.comm_name = m.comm_name.empty() ? m.comm : m.comm_name;
    std::set<std::pair<std::size_t, std::string>> seen;
    for (const CollectiveMismatch::Side& side : m.sides) {
      std::string call = side.call;
      if (side.root) call += " (root " + std::to_string(*side.root) + ")";
      for (int r : side.ranks) {
        rank_mismatch->emplace(r, k);
        auto c = graph->ClassOf(r);
        if (c && seen.insert({*c, call}).second) out.sides.push_back({*c, call});
      }
    }
    graph->mismatches.push_back(std::move(out));
  }
}

}  // namespace

std::optional<std::size_t> ClassGraph::ClassOf(int rank) const {
  auto it = std::lower_bound(rank_class.begin(), rank_class.end(), std::make_pair(rank, std::size_t{0}));
  if (it == rank_class.end() || it->first != rank) return std::nullopt;
  return it->second;
}

ClassGraph BuildClassGraph(const JobReport& report, std::size_t max_nodes) {
  ClassGraph graph;
  std::unordered_map<int, const RankReport*> by_rank;
  for (const RankReport& r : report.ranks) by_rank.emplace(r.rank, &r);
  const std::unordered_set<int> deadlocked(report.deadlock.ranks.begin(),
                                           report.deadlock.ranks.end());
  const std::vector<RankClass>& classes = report.classes.classes;
  const std::size_t own = classes.size() <= std::max<std::size_t>(max_nodes, 1)
                              ? classes.size()
                              : std::max<std::size_t>(max_nodes, 1) - 1;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const RankClass& c = classes[k];
    if (k <= own && graph.nodes.size() <= k) graph.nodes.emplace_back();
    ClassNode& node = graph.nodes[std::min(k, own)];
    if (k < own) {
      node.ranks = c.ranks;
      node.path = c.path;
      node.call = ClassCall(c.ranks, by_rank);
    } else {
      node.ranks.insert(node.ranks.end(), c.ranks.begin(), c.ranks.end());
      node.call = std::to_string(classes.size() - own) + " other classes";
    }
    for (int r : c.ranks) {
      node.deadlocked += deadlocked.count(r);
      auto found = by_rank.find(r);
      node.blocked += found != by_rank.end() && found->second->state == RankState::kBlocked;
      graph.rank_class.emplace_back(r, std::min(k, own));
    }
  }
  if (own < classes.size()) std::sort(graph.nodes.back().ranks.begin(), graph.nodes.back().ranks.end());
  std::sort(graph.rank_class.begin(), graph.rank_class.end());

  std::unordered_map<int, std::size_t> rank_mismatch;
  Mismatches(report, &graph, &rank_mismatch);
  auto same_mismatch = [&rank_mismatch](int a, int b) {
    auto x = rank_mismatch.find(a);
    if (x == rank_mismatch.end()) return false;
    auto y = rank_mismatch.find(b);
    return y != rank_mismatch.end() && x->second == y->second;
  };

  EdgeSink sink(&graph);
  std::unordered_map<const SharedRanks*, ClassCounts> group_classes;
  for (const WaitRequirement& w : report.deadlock.waits) {
    auto from = graph.ClassOf(w.from);
    if (!from) continue;
    const bool from_dead = deadlocked.count(w.from) != 0;
    if (const SharedRanks* group = w.to.shared()) {
      auto [it, fresh] = group_classes.try_emplace(group);
      if (fresh) it->second = CountClasses(group->ranks, graph);
      std::optional<std::size_t> left_out;
      if (w.to.excluded()) {
        const int x = *w.to.excluded();
        if (std::binary_search(group->ranks.begin(), group->ranks.end(), x)) left_out = graph.ClassOf(x);
      }
      for (const auto& [c, count] : it->second) {
        const std::size_t n = count - (left_out == c ? 1 : 0);
        if (n > 0) sink.Add(*from, c, w, n, from_dead && graph.nodes[c].deadlocked > 0);
      }
      continue;
    }
    for (int to : w.to) {
      if (same_mismatch(w.from, to)) continue;
      auto c = graph.ClassOf(to);
      if (c) sink.Add(*from, *c, w, 1, from_dead && deadlocked.count(to) != 0);
    }
  }

  std::map<std::pair<std::size_t, std::size_t>, std::size_t> unmatched_index;
  for (const UnmatchedMessage& m : report.unmatched) {
    auto from = graph.ClassOf(m.from);
    auto to = graph.ClassOf(m.to);
    if (!from || !to) continue;
    auto [it, fresh] = unmatched_index.try_emplace({*from, *to}, graph.unmatched.size());
    if (fresh) graph.unmatched.push_back({*from, *to, 0, m.call + " tag " + TagText(m.tag)});
    ++graph.unmatched[it->second].messages;
  }
  return graph;
}

}  // namespace mpidbg::job
