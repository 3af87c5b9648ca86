// job_dot.cc — the wait-for graph as Graphviz: one node per rank (deadlocked ones red),
// solid edges for requirements a rank needs all of, dotted ones for "any of" (an
// ANY_SOURCE receive, MPI_Waitany), dashed gray ones for messages nobody receives.
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "job/call_info.h"
#include "job/job_analysis.h"

namespace mpidbg::job {
namespace {

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Node(int rank) { return "r" + std::to_string(rank); }

// A Wait-class summary lists its requests; one per line keeps nodes narrow.
std::string Wrap(std::string summary) {
  auto break_after = [&summary](const std::string& mark) {
    for (std::size_t at = summary.find(mark); at != std::string::npos;
         at = summary.find(mark, at + mark.size())) {
      summary[at + mark.size() - 1] = '\n';  // the mark ends with a space
    }
  };
  break_after("requests: ");
  break_after("), ");
  return summary;
}

void RankNode(const RankReport& r, const std::unordered_set<int>& deadlocked,
              std::ostringstream& out) {
  out << "  " << Node(r.rank) << " [label="
        << Quote("rank " + std::to_string(r.rank) + "\n" + Wrap(r.summary));
    if (deadlocked.count(r.rank) != 0) {
      out << ", color=red, fontcolor=red, penwidth=2";
    } else if (r.state == RankState::kFinalized || r.state == RankState::kUnreadable) {
      out << ", style=dashed, color=gray40";
  }
  out << "];\n";
}

// With stacks, each rank class (rank_classes.h) is a box of its own labelled with its
// path, so ranks that are in the same place read as one group.
void Nodes(const JobReport& report, const std::unordered_set<int>& deadlocked,
           std::ostringstream& out) {
  std::unordered_map<int, const RankReport*> by_rank;
  bool stacks = false;
  for (const RankReport& r : report.ranks) {
    by_rank.emplace(r.rank, &r);
    stacks = stacks || !r.frames.empty();
  }
  std::unordered_set<int> placed;
  if (stacks && report.classes.classes.size() > 1) {
    int k = 0;
    for (const RankClass& c : report.classes.classes) {
      std::string path;
      for (auto it = c.path.rbegin(); it != c.path.rend(); ++it) {
        path += (path.empty() ? "" : "\n\u2190 ") + *it;
      }
      out << "  subgraph cluster_class" << k++ << " {\n"
          << "    label=" << Quote(RanksPhrase(c.ranks) + ": " + path) << ";\n"
          << "    style=rounded; color=gray60; fontsize=10;\n";
      for (int r : c.ranks) {
        auto found = by_rank.find(r);
        if (found == by_rank.end()) continue;
        out << "  ";
        RankNode(*found->second, deadlocked, out);
        placed.insert(r);
      }
      out << "  }\n";
    }
  }
  for (const RankReport& r : report.ranks) {
    if (r.rank < 0 || placed.count(r.rank) != 0) continue;
    RankNode(r, deadlocked, out);
  }
}

// A wait on many ranks points at one node standing for the set (see kMaxEdgesPerWait).
void WaitSetEdge(const WaitRequirement& w, std::unordered_map<std::string, int>* set_nodes,
                 std::ostringstream& out) {
  const std::string ranks = FormatRankSet(w.to);
  auto [it, fresh] = set_nodes->try_emplace(ranks, static_cast<int>(set_nodes->size()));
  const std::string node = "set" + std::to_string(it->second);
  if (fresh) {
    out << "  " << node << " [shape=ellipse, label="
        << Quote((w.kind == WaitKind::kOr ? "any of " : "all of ") + RankSetPhrase(w.to) + "\n(" +
                 std::to_string(w.to.size()) + " ranks)")
        << "];\n";
  }
  out << "  " << Node(w.from) << " -> " << node
      << " [style=" << (w.kind == WaitKind::kOr ? "dotted" : "solid")
      << ", label=" << Quote(WaitKindName(w.kind)) << ", tooltip=" << Quote(w.reason) << "];\n";
}

void WaitEdges(const JobReport& report, const std::unordered_set<int>& deadlocked,
               std::ostringstream& out) {
  std::unordered_map<std::string, int> set_nodes;
  for (const WaitRequirement& w : report.deadlock.waits) {
    const bool any = w.kind == WaitKind::kOr;
    if (w.to.size() > kMaxEdgesPerWait) {
      WaitSetEdge(w, &set_nodes, out);
      continue;
    }
    for (int to : w.to) {
      out << "  " << Node(w.from) << " -> " << Node(to) << " [style=" << (any ? "dotted" : "solid")
          << ", label=" << Quote(WaitKindName(w.kind)) << ", tooltip=" << Quote(w.reason);
      if (deadlocked.count(w.from) != 0 && deadlocked.count(to) != 0) out << ", color=red";
      out << "];\n";
    }
  }
}

void UnmatchedEdges(const JobReport& report, std::ostringstream& out) {
  for (const UnmatchedMessage& m : report.unmatched) {
    out << "  " << Node(m.from) << " -> " << Node(m.to) << " [style=dashed, color=gray50, "
        << "fontcolor=gray50, label=" << Quote(m.call + " tag " + TagText(m.tag))
        << ", tooltip=" << Quote("unmatched on " + m.comm_name) << "];\n";
  }
}

void Legend(std::ostringstream& out) {
  out << "  subgraph cluster_legend {\n"
      << "    label=\"legend\";\n"
      << "    style=dashed;\n"
      << "    node [shape=plaintext, label=\"\", width=0.1, height=0.1];\n"
      << "    legend_and_a -> legend_and_b [style=solid, label=\"waits for all (and)\"];\n"
      << "    legend_or_a -> legend_or_b [style=dotted, label=\"waits for any (or)\"];\n"
      << "    legend_msg_a -> legend_msg_b [style=dashed, color=gray50, "
         "label=\"message nobody receives\"];\n"
      << "    legend_dead [shape=box, label=\"deadlocked rank\", color=red, fontcolor=red, "
         "penwidth=2, width=0.75, height=0.5];\n"
      << "  }\n";
}

}  // namespace

std::string ToDot(const JobReport& report) {
  const std::unordered_set<int> deadlocked(report.deadlock.ranks.begin(),
                                           report.deadlock.ranks.end());
  // As in the text: what was not read first; no "no deadlock" without it.
  const bool incomplete = report.Incomplete();
  std::string label = incomplete ? "INCOMPLETE: not every rank was read; " : "";
  if (report.deadlock.detected) {
    label += "DEADLOCK: ranks " + FormatRankRanges(report.deadlock.ranks);
  } else {
    label += incomplete ? "no deadlock among the ranks read" : "no deadlock detected";
  }
  std::ostringstream out;
  out << "digraph mpidbg_job {\n"
      << "  rankdir=LR;\n"
      << "  node [shape=box, fontname=\"Helvetica\"];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=10];\n"
      << "  label=" << Quote(label) << ";\n";
  Nodes(report, deadlocked, out);
  WaitEdges(report, deadlocked, out);
  UnmatchedEdges(report, out);
  Legend(out);
  out << "}\n";
  return out.str();
}

}  // namespace mpidbg::job
