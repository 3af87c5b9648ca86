#include "job/deadlock.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace mpidbg::job {
namespace {

// "Any one of a group but one rank" (rank_set.h): settled by counting the group's
// members that can proceed, not edge by edge, since every member of a big communicator
// may wait so on all the others.
bool DrawnAny(const WaitRequirement& r) {
  return r.kind == WaitKind::kOr && r.to.shared() != nullptr;
}

// Requirement ids that name each snapshot index, in compressed rows (the rows hold one
// entry per edge, so they are kept narrow). Drawn OR requirements are not listed.
struct Watchers {
  std::vector<std::size_t> start;  // size ranks + 1
  std::vector<uint32_t> ids;
};

Watchers BuildWatchers(const JobIndex& job, const WaitGraph& graph) {
  Watchers w;
  w.start.assign(job.size() + 1, 0);
  for (const WaitRequirement& r : graph.requirements) {
    if (DrawnAny(r)) continue;
    for (int rank : r.to) {
      const int i = job.IndexOf(rank);
      if (i >= 0) ++w.start[static_cast<std::size_t>(i) + 1];
    }
  }
  for (std::size_t i = 0; i < job.size(); ++i) w.start[i + 1] += w.start[i];
  std::vector<std::size_t> fill(w.start.begin(), w.start.end() - 1);
  w.ids.resize(w.start.back());
  for (std::size_t id = 0; id < graph.requirements.size(); ++id) {
    if (DrawnAny(graph.requirements[id])) continue;
    for (int rank : graph.requirements[id].to) {
      const int i = job.IndexOf(rank);
      if (i >= 0) w.ids[fill[static_cast<std::size_t>(i)]++] = static_cast<uint32_t>(id);
    }
  }
  return w;
}

// The groups drawn OR requirements draw on: each group's requirements still unmet, and
// for each snapshot index the groups it is a member of (compressed rows).
struct DrawnGroups {
  std::vector<std::vector<std::size_t>> pending;  // by group: requirement ids
  std::vector<std::size_t> start;                 // size ranks + 1
  std::vector<uint32_t> groups;
};

DrawnGroups BuildDrawnGroups(const JobIndex& job, const WaitGraph& graph) {
  DrawnGroups d;
  std::unordered_map<const SharedRanks*, std::size_t> id_of;
  std::vector<const SharedRanks*> shared;
  for (std::size_t id = 0; id < graph.requirements.size(); ++id) {
    const WaitRequirement& r = graph.requirements[id];
    if (!DrawnAny(r)) continue;
    auto [it, fresh] = id_of.try_emplace(r.to.shared(), shared.size());
    if (fresh) {
      shared.push_back(r.to.shared());
      d.pending.emplace_back();
    }
    d.pending[it->second].push_back(id);
  }
  d.start.assign(job.size() + 1, 0);
  for (const SharedRanks* group : shared) {
    for (int rank : group->ranks) {
      const int i = job.IndexOf(rank);
      if (i >= 0) ++d.start[static_cast<std::size_t>(i) + 1];
    }
  }
  for (std::size_t i = 0; i < job.size(); ++i) d.start[i + 1] += d.start[i];
  std::vector<std::size_t> fill(d.start.begin(), d.start.end() - 1);
  d.groups.resize(d.start.back());
  for (std::size_t g = 0; g < shared.size(); ++g) {
    for (int rank : shared[g]->ranks) {
      const int i = job.IndexOf(rank);
      if (i >= 0) d.groups[fill[static_cast<std::size_t>(i)]++] = static_cast<uint32_t>(g);
    }
  }
  return d;
}

std::vector<bool> ComputeProceeds(const JobIndex& job, const std::vector<RankState>& states,
                                  const std::vector<bool>& finalizing, WaitGraph& graph) {
  const std::size_t n = job.size();
  std::vector<bool> proceeds(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const RankState s = states[i];
    proceeds[i] = job.participates(i) &&
                  (s == RankState::kNotInMpi || s == RankState::kInMpi || s == RankState::kUnreadable);
  }

  // A requirement is met when `missing` reaches zero: one rank for kOr, all for kAnd.
  std::vector<std::size_t> owner(graph.requirements.size());
  std::vector<std::size_t> missing(graph.requirements.size());
  for (std::size_t id = 0; id < graph.requirements.size(); ++id) {
    const WaitRequirement& r = graph.requirements[id];
    missing[id] = r.kind == WaitKind::kOr ? 1 : r.to.size();
  }
  std::vector<std::size_t> remaining(graph.threads.size());
  for (std::size_t t = 0; t < graph.threads.size(); ++t) {
    const ThreadWaits& thread = graph.threads[t];
    remaining[t] = thread.requirements.size();
    for (std::size_t id : thread.requirements) owner[id] = t;
    if (thread.unknown || remaining[t] == 0) proceeds[thread.rank_index] = true;
  }

  std::vector<std::size_t> queue;
  for (std::size_t i = 0; i < n; ++i) {
    if (proceeds[i] && !finalizing[i]) queue.push_back(i);
  }
  const Watchers watchers = BuildWatchers(job, graph);
  DrawnGroups drawn = BuildDrawnGroups(job, graph);
  const auto satisfy = [&](std::size_t id) {
    graph.requirements[id].satisfied = true;
    const std::size_t t = owner[id];
    if (--remaining[t] != 0) return;
    const std::size_t j = graph.threads[t].rank_index;
    if (proceeds[j]) return;
    proceeds[j] = true;
    if (!finalizing[j]) queue.push_back(j);
  };
  while (!queue.empty()) {
    const std::size_t i = queue.back();
    queue.pop_back();
    for (std::size_t k = watchers.start[i]; k < watchers.start[i + 1]; ++k) {
      const std::size_t id = watchers.ids[k];
      if (graph.requirements[id].satisfied || --missing[id] != 0) continue;
      satisfy(id);
    }
    // A member that can proceed meets every wait on its group but its own; those are
    // met by the next member, so each group's list is walked about twice in all.
    const int self = job.world_rank(i);
    for (std::size_t k = drawn.start[i]; k < drawn.start[i + 1]; ++k) {
      std::vector<std::size_t>& pending = drawn.pending[drawn.groups[k]];
      std::size_t kept = 0;
      for (std::size_t id : pending) {
        if (graph.requirements[id].to.excluded() == self) {
          pending[kept++] = id;
        } else {
          satisfy(id);
        }
      }
      pending.resize(kept);
    }
  }
  return proceeds;
}

// One cycle among the deadlocked ranks, by depth-first search from the lowest rank,
// following unsatisfied requirements.
std::vector<int> FindCycle(const JobIndex& job, const WaitGraph& graph,
                           const std::vector<bool>& deadlocked) {
  const std::size_t n = job.size();
  std::vector<std::vector<std::size_t>> out(n);  // unsatisfied requirement ids per rank
  for (const ThreadWaits& thread : graph.threads) {
    if (!deadlocked[thread.rank_index]) continue;
    for (std::size_t id : thread.requirements) {
      if (!graph.requirements[id].satisfied) out[thread.rank_index].push_back(id);
    }
  }
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < n; ++i) {
    if (deadlocked[i]) starts.push_back(i);
  }
  std::sort(starts.begin(), starts.end(), [&](std::size_t a, std::size_t b) {
    return job.world_rank(a) < job.world_rank(b);
  });

  enum : uint8_t { kWhite, kGray, kBlack };
  std::vector<uint8_t> color(n, kWhite);
  struct Frame {
    std::size_t node;
    std::size_t requirement = 0;  // position in out[node]
    std::size_t member = 0;       // position in that requirement's `to`
  };
  for (std::size_t start : starts) {
    if (color[start] != kWhite) continue;
    std::vector<Frame> stack{{start}};
    color[start] = kGray;
    while (!stack.empty()) {
      Frame& top = stack.back();
      int next = -1;
      while (next < 0 && top.requirement < out[top.node].size()) {
        const RankSet& to = graph.requirements[out[top.node][top.requirement]].to;
        if (top.member >= to.size()) {
          ++top.requirement;
          top.member = 0;
          continue;
        }
        const int v = job.IndexOf(to[top.member++]);
        if (v >= 0 && deadlocked[static_cast<std::size_t>(v)] &&
            color[static_cast<std::size_t>(v)] != kBlack) {
          next = v;
        }
      }
      if (next < 0) {
        color[top.node] = kBlack;
        stack.pop_back();
        continue;
      }
      const std::size_t v = static_cast<std::size_t>(next);
      if (color[v] == kGray) {  // back edge: the stack from v to here is a cycle
        std::vector<int> cycle;
        bool on = false;
        for (const Frame& frame : stack) {
          if (frame.node == v) on = true;
          if (on) cycle.push_back(job.world_rank(frame.node));
        }
        return cycle;
      }
      color[v] = kGray;
      stack.push_back({v});
    }
  }
  return {};
}

}  // namespace

DeadlockReport FindDeadlock(const JobIndex& job, const std::vector<RankState>& states,
                            const std::vector<bool>& finalizing, WaitGraph& graph) {
  const std::vector<bool> proceeds = ComputeProceeds(job, states, finalizing, graph);
  std::vector<bool> deadlocked(job.size(), false);
  DeadlockReport report;
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (job.participates(i) && states[i] == RankState::kBlocked && !proceeds[i]) {
      deadlocked[i] = true;
      report.ranks.push_back(job.world_rank(i));
    }
  }
  std::sort(report.ranks.begin(), report.ranks.end());
  report.detected = !report.ranks.empty();
  if (report.detected) report.cycle = FindCycle(job, graph, deadlocked);
  return report;
}

}  // namespace mpidbg::job
