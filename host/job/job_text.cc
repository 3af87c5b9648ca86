// job_text.cc — the job for a person at a terminal: the verdict first, then what the
// ranks do, who waits for whom, stray messages and hints.
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "job/call_info.h"
#include "job/job_analysis.h"
#include "job/stacks_view.h"

namespace mpidbg::job {
namespace {

// "rank 2", and with several jobs which job's rank that is (analysis ranks, job_join.h).
std::string RankLabel(const JobReport& report, int rank) {
  std::string out = "rank " + std::to_string(rank);
  if (!report.jobs.empty()) out += " (" + RankName(report, rank) + ")";
  return out;
}

// "pid 4242" or "core of pid 4242".
std::string ProcessLabel(const std::string& source, int64_t pid) {
  return (source == "core" ? "core of pid " : "pid ") + std::to_string(pid);
}

// Processes named among the targets that are no MPI process: one line, before all else
// (stderr said why for each).
void LeftOut(const JobReport& report, std::ostringstream& out) {
  if (report.left_out.empty()) return;
  out << "left out: ";
  for (std::size_t i = 0; i < report.left_out.size(); ++i) {
    const LeftOutProcess& p = report.left_out[i];
    out << (i == 0 ? "" : ", ") << ProcessLabel(p.source, p.pid);
  }
  out << (report.left_out.size() == 1 ? ": not an MPI process" : ": not MPI processes")
      << " (no MPI library loaded)\n";
}

// Said before the verdict: what the verdict does not cover, one line per rank or input.
void Coverage(const JobReport& report, std::ostringstream& out) {
  if (!report.Incomplete()) return;
  int read = 0;
  for (const RankReport& r : report.ranks) read += r.state != RankState::kUnreadable && r.rank >= 0;
  out << "INCOMPLETE: ";
  if (report.world_size > 0) {
    out << read << " of " << report.world_size << " ranks read";
  } else {
    out << read << (read == 1 ? " rank read" : " ranks read");
  }
  if (!report.partial.empty()) {
    out << ", " << report.partial.size() << " in part; the verdict covers only what was read\n";
  } else {
    out << "; the verdict covers only " << (read == 1 ? "that rank" : "those") << "\n";
  }
  for (const UnreadRank& u : report.unread) {
    out << "  ";
    if (u.rank) out << RankLabel(report, *u.rank);
    if (u.pid > 0) out << (u.rank ? " (" : "") << ProcessLabel(u.source, u.pid) << (u.rank ? ")" : "");
    out << ": " << u.reason << "\n";
  }
  for (const PartialRank& r : report.partial) {
    // A rank < 0: read before MPI_Init said its rank.
    out << "  " << (r.rank >= 0 ? RankLabel(report, r.rank) : "a process of unknown rank");
    if (r.pid > 0) out << " (" << ProcessLabel(r.source, r.pid) << ")";
    out << ": read in part: " << r.reason << "\n";
  }
  for (const UnreadableInput& u : report.unreadable_inputs) {
    out << "  " << (u.input == "-" ? std::string("standard input") : u.input);
    if (!u.hostname.empty()) out << " (node " << u.hostname << ")";
    out << ": " << u.error << "; " << u.ranks_read << (u.ranks_read == 1 ? " rank" : " ranks")
        << " read from it\n";
  }
}

void StateCounts(const JobReport& report, std::ostringstream& out);

// "job A rank 0, job B rank 0" (several jobs: analysis ranks named in their jobs).
std::string JobRanksPhrase(const JobReport& report, const std::vector<int>& ranks) {
  std::string out;
  for (int r : ranks) {
    if (!out.empty()) out += ", ";
    out += RankName(report, r);
  }
  return out;
}

// Several jobs: which analysis ranks are which job's (job_join.h).
void Jobs(const JobReport& report, std::ostringstream& out) {
  if (report.jobs.empty()) return;
  out << "\njobs (" << report.jobs.size() << "; ranks here are numbered across them):\n";
  for (const JobSpan& j : report.jobs) {
    out << "  job " << j.label << ": rank" << (j.size > 1 ? "s " : " ") << j.first_rank;
    if (j.size > 1) out << "-" << j.first_rank + j.size - 1;
    out << " = its world rank" << (j.size > 1 ? "s 0-" + std::to_string(j.size - 1) : std::string(" 0"))
        << ", launcher job id "
        << (j.job_id.empty() ? "(none recorded)" : j.job_id) << "\n";
  }
}

void Verdict(const JobReport& report, std::ostringstream& out) {
  const DeadlockReport& d = report.deadlock;
  const bool incomplete = report.Incomplete();
  if (d.detected) {
    // Ranks not read count as able to proceed, so this holds whatever they do.
    out << "DEADLOCK: " << RanksPhrase(d.ranks) << " can never proceed\n";
    if (!report.jobs.empty()) out << "  that is: " << JobRanksPhrase(report, d.ranks) << "\n";
    if (!report.partial.empty()) {
      // A rank read in part may hold the operation another rank waits for.
      std::vector<int> partial;
      for (const PartialRank& r : report.partial) {
        if (r.rank >= 0) partial.push_back(r.rank);
      }
      out << "  proven from what was read: "
          << (partial.empty() ? std::string("a process of unknown rank") : RanksPhrase(partial))
          << (partial.size() > 1 ? " were" : " was") << " read in part\n";
    }
    if (!d.cycle.empty()) {
      out << "cycle: ";
      for (int r : d.cycle) out << r << " -> ";
      out << d.cycle.front() << "\n";
    }
  } else if (!incomplete) {
    out << "no deadlock detected\n";
  } else if (!report.waiting_on_unread.empty()) {
    out << "no verdict: " << RanksPhrase(report.waiting_on_unread)
        << (report.waiting_on_unread.size() == 1 ? " waits" : " wait")
        << " for ranks not read, which may be stuck as well\n";
  } else {
    out << "no deadlock among the ranks read\n";
  }
  StateCounts(report, out);
}

void StateCounts(const JobReport& report, std::ostringstream& out) {
  std::map<RankState, int> counts;
  for (const RankReport& r : report.ranks) ++counts[r.state];
  out << report.ranks.size() << (report.ranks.size() == 1 ? " rank" : " ranks");
  const char* sep = ": ";
  for (const auto& [state, count] : counts) {
    out << sep << count << ' ' << RankStateText(state);
    sep = ", ";
  }
  out << "\n";
}

// The reduced view's verdict (stacks_view.h): only what the stacks prove.
void StacksVerdictText(const JobReport& report, std::ostringstream& out) {
  const StacksVerdict& v = report.stacks;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g s", v.second_read_seconds);
  if (StacksHung(report)) {
    out << "HUNG: all ranks blocked in MPI (" << FormatRankRanges(v.blocked)
        << "); no stack moved in " << seconds << " between two reads\n"
        << "  the stacks show where each rank waits, not for whom: no cycle is claimed\n";
  } else if (!v.progressing.empty()) {
    out << "not hung: " << RanksPhrase(v.progressing) << " moved between two reads " << seconds
        << " apart\n";
  } else if (v.all_blocked && report.Incomplete()) {
    out << "no verdict: every rank read is blocked in MPI, but not every rank was read\n";
  } else if (v.all_blocked) {
    out << "ALL RANKS BLOCKED IN MPI (" << FormatRankRanges(v.blocked)
        << "), read once: whether they still progress was not measured (a core, or --confirm 0)\n";
  } else {
    out << "no verdict from the stacks: " << RanksPhrase(v.not_blocked)
        << (v.not_blocked.size() == 1 ? " is" : " are") << " not blocked in MPI\n";
  }
  for (const CollectiveMismatch& m : report.collective_mismatches) {
    out << "COLLECTIVE MISMATCH on " << m.comm_name << ":";
    const char* sep = " ";
    for (const CollectiveMismatch::Side& side : m.sides) {
      out << sep << RanksPhrase(side.ranks) << " in " << side.call;
      if (side.root) out << " (root " << *side.root << ")";
      sep = ", ";
    }
    out << "\n";
  }
  bool from_callers = false;
  for (const RankReport& r : report.ranks) from_callers = from_callers || !r.arguments_from.empty();
  if (from_callers) {
    out << "arguments read from the callers' frames (their DWARF call sites), not from MPI\n";
  }
  if (v.ranks_by_order) {
    out << "ranks numbered by the order of the targets: no launcher variable (PMI_RANK, "
           "OMPI_COMM_WORLD_RANK, ...) named them\n";
  }
  StateCounts(report, out);
}

// Ranks in different collectives, as the stacks show them: no verdict, since the stacks
// do not say which communicator each call is on.
void StacksCollectives(const JobReport& report, std::ostringstream& out) {
  const std::vector<CollectiveMismatch::Side>& sides = report.stacks.collectives;
  if (sides.empty() || !report.collective_mismatches.empty()) return;  // said as a verdict
  out << "\nthe stacks show ranks in different collectives:\n";
  for (const CollectiveMismatch::Side& side : sides) {
    out << "  " << RanksPhrase(side.ranks) << ": " << side.call << "\n";
  }
  out << "  a collective mismatch if these calls are on one communicator (the stacks do not "
         "say which)\n";
}

void Groups(const JobReport& report, std::ostringstream& out) {
  out << "\nranks:\n";
  for (const RankGroup& g : report.groups) {
    out << "  " << RanksPhrase(g.ranks) << ": " << g.summary << "\n";
  }
}

// One line of the "waits" section: ranks that wait for the same ranks in the same call.
struct WaitLine {
  bool any = false;        // OR: any one of `to` suffices
  std::vector<int> to;     // AND: the ranks of every requirement behind the line
  RankSet any_of;          // OR: the one requirement's ranks, shared rather than copied
  std::string reason;
  bool met = true;         // every requirement behind the line can be met
  std::vector<int> from;
};

// A thread's AND requirements from one call become one line ("all of"); lines that
// differ only in the waiting rank are merged, so a 4096-rank barrier is one line.
std::vector<WaitLine> WaitLines(const std::vector<WaitRequirement>& waits) {
  std::vector<WaitLine> per_thread;
  std::map<std::tuple<int, int64_t, std::string>, std::size_t> and_line;
  for (const WaitRequirement& w : waits) {
    std::size_t at = per_thread.size();
    if (w.kind == WaitKind::kAnd) {
      auto [it, fresh] = and_line.try_emplace(std::make_tuple(w.from, w.tid, w.reason), at);
      at = it->second;
      if (fresh) per_thread.push_back(WaitLine{false, {}, {}, w.reason, true, {w.from}});
    } else {
      per_thread.push_back(WaitLine{true, {}, {}, w.reason, true, {w.from}});
    }
    WaitLine& line = per_thread[at];
    if (line.any) {
      line.any_of = w.to;
    } else {
      line.to.insert(line.to.end(), w.to.begin(), w.to.end());
    }
    line.met = line.met && w.satisfied;
  }
  std::vector<WaitLine> merged;
  std::map<std::string, std::size_t> by_key;
  for (WaitLine& line : per_thread) {
    const std::string key = std::string(line.any ? "any " : "all ") +
                            (line.any ? FormatRankSet(line.any_of) : FormatRankRanges(line.to)) +
                            (line.met ? " met " : " ") + line.reason;
    auto [it, fresh] = by_key.try_emplace(key, merged.size());
    if (fresh) {
      merged.push_back(std::move(line));
    } else {
      merged[it->second].from.push_back(line.from.front());
    }
  }
  return merged;
}

void Waits(const JobReport& report, std::ostringstream& out) {
  if (report.deadlock.waits.empty()) return;
  out << "\nwaits:\n";
  for (const WaitLine& line : WaitLines(report.deadlock.waits)) {
    out << "  " << FormatRankRanges(line.from) << " -> ";
    const std::size_t count = line.any ? line.any_of.size() : line.to.size();
    if (count == 0) {
      out << "nobody";
    } else if (count == 1) {
      out << (line.any ? line.any_of.front() : line.to.front());
    } else if (line.any) {
      out << "any of " << FormatRankSet(line.any_of);
    } else {
      out << "all of " << FormatRankRanges(line.to);
    }
    out << ": " << line.reason;
    if (line.met) out << " [can be met]";
    out << "\n";
  }
}

void Unmatched(const JobReport& report, std::ostringstream& out) {
  if (report.unmatched.empty()) return;
  out << "\nunmatched messages:\n";
  for (const UnmatchedMessage& m : report.unmatched) {
    out << "  " << m.from << " -> " << m.to << ": " << m.call << " tag " << TagText(m.tag)
        << ", " << m.bytes << " bytes on " << m.comm_name;
    if (m.arrived) out << " (arrived, not received)";
    if (m.from_counts) out << " (message #" << m.ordinal << " of its kind: sent, not received)";
    out << "\n";
  }
}

// Where a rank's call was made: " at hang.c:7 in wait_for_token ← main". The folded
// MPI frame is the call the summary already names; the path ends at main or a thread's
// start, whose callers are the C library's.
std::string StackPhrase(const RankReport& r) {
  const std::vector<model::Frame>& frames = r.frames;
  std::size_t i = 0;
  if (!frames.empty() && r.call && frames[0].function == r.call) i = 1;
  if (i >= frames.size()) return "";
  std::string out;
  bool located = false;
  for (std::size_t k = i; k < frames.size(); ++k) {
    const model::Frame& f = frames[k];
    const std::string name = FrameName(f);
    if (k == i) {
      out += (f.file && f.line) ? " at " + FrameFileLine(f) + " in " + name : " in " + name;
      located = f.file && f.line;
    } else {
      out += " \u2190 " + name;
      if (!located && f.file && f.line) {
        out += " (" + FrameFileLine(f) + ")";
        located = true;
      }
    }
    if (name == "main" || name == "start_thread") break;
  }
  return out;
}

// The class's call as its ranks share it: the summary when every rank has the same
// one (arguments and all), else the call's name.
std::string ClassCall(const RankClass& c, const std::map<int, const RankReport*>& by_rank) {
  const RankReport* first = by_rank.at(c.ranks.front());
  bool same = true;
  for (int r : c.ranks) same = same && by_rank.at(r)->summary == first->summary;
  if (same) return first->summary;
  return first->call.value_or(first->summary);
}

// The ranks by where they are (rank_classes.h), innermost first as one reads a stack:
// "ranks 0-3 (4): MPI_Recv(source=1, ...) at ring.c:12 in exchange ← main". A job of
// thousands of ranks reads as its few classes.
void Classes(const JobReport& report, std::ostringstream& out) {
  const std::vector<RankClass>& classes = report.classes.classes;
  if (classes.empty()) return;
  std::map<int, const RankReport*> by_rank;
  for (const RankReport& r : report.ranks) by_rank.emplace(r.rank, &r);
  bool any_stack = false;
  for (const RankReport& r : report.ranks) any_stack = any_stack || !r.frames.empty();
  if (!any_stack) return;  // without stacks the classes are the "ranks" section again
  out << "\nrank classes (" << classes.size() << "):\n";
  for (const RankClass& c : classes) {
    out << "  " << RanksPhrase(c.ranks);
    if (c.ranks.size() > 1) out << " (" << c.ranks.size() << ")";
    out << ": " << ClassCall(c, by_rank) << StackPhrase(*by_rank.at(c.ranks.front())) << "\n";
  }
}

// The prefix tree behind the classes, as STAT draws it: each call path's frames from
// main inwards, the ranks that pass through each. Only where paths part.
void Tree(const CallTreeNode& node, int depth, std::ostringstream& out) {
  for (const CallTreeNode& child : node.children) {
    out << std::string(static_cast<std::size_t>(2 + 2 * depth), ' ') << child.name << " ["
        << FormatRankRanges(child.ranks) << "]\n";
    Tree(child, depth + 1, out);
  }
}

void CallTreeText(const JobReport& report, std::ostringstream& out) {
  if (report.classes.classes.size() < 2) return;
  bool any_stack = false;
  for (const RankReport& r : report.ranks) any_stack = any_stack || !r.frames.empty();
  if (!any_stack) return;
  out << "\ncall tree:\n";
  Tree(report.classes.root, 0, out);
}

void Hints(const JobReport& report, std::ostringstream& out) {
  if (report.hints.empty()) return;
  out << "\nhints:\n";
  for (const std::string& hint : report.hints) out << "  - " << hint << "\n";
}

}  // namespace

std::string ToText(const JobReport& report) {
  std::ostringstream out;
  if (report.view == "stacks") {
    out << "REDUCED VIEW (stacks only): this job does not carry mpidbg's runtime; run it under "
           "`mpidbg run` to see communicators, pending messages, requests and a deadlock proof.\n";
    LeftOut(report, out);
    Coverage(report, out);
    StacksVerdictText(report, out);
    Groups(report, out);
    StacksCollectives(report, out);
    Classes(report, out);
    CallTreeText(report, out);
    return out.str();
  }
  LeftOut(report, out);
  Coverage(report, out);
  Verdict(report, out);
  Jobs(report, out);
  Groups(report, out);
  Classes(report, out);
  CallTreeText(report, out);
  Waits(report, out);
  Unmatched(report, out);
  Hints(report, out);
  return out.str();
}

}  // namespace mpidbg::job
