// job_text.cc — the job for a person at a terminal: the verdict first, then what the
// ranks do, who waits for whom, stray messages and hints.
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "job/call_info.h"
#include "job/job_analysis.h"

namespace mpidbg::job {
namespace {

// A state as a person says it (the JSON keeps the enum names).
const char* StateText(RankState state) {
  switch (state) {
    case RankState::kBlocked: return "blocked";
    case RankState::kInMpi: return "in MPI";
    case RankState::kNotInMpi: return "not in MPI";
    case RankState::kFinalized: return "finalized";
    case RankState::kUnreadable: return "not readable";
  }
  return "not readable";
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
  out << "; the verdict covers only " << (read == 1 ? "that rank" : "those") << "\n";
  for (const UnreadRank& u : report.unread) {
    out << "  ";
    if (u.rank) out << "rank " << *u.rank;
    if (u.pid > 0) {
      out << (u.rank ? " (" : "") << (u.source == "core" ? "core of pid " : "pid ") << u.pid
          << (u.rank ? ")" : "");
    }
    out << ": " << u.reason << "\n";
  }
  for (const UnreadableInput& u : report.unreadable_inputs) {
    out << "  " << (u.input == "-" ? std::string("standard input") : u.input);
    if (!u.hostname.empty()) out << " (node " << u.hostname << ")";
    out << ": " << u.error << "; " << u.ranks_read << (u.ranks_read == 1 ? " rank" : " ranks")
        << " read from it\n";
  }
}

void Verdict(const JobReport& report, std::ostringstream& out) {
  const DeadlockReport& d = report.deadlock;
  const bool incomplete = report.Incomplete();
  if (d.detected) {
    // Ranks not read count as able to proceed, so this holds whatever they do.
    out << "DEADLOCK: " << RanksPhrase(d.ranks) << " can never proceed\n";
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
  std::map<RankState, int> counts;
  for (const RankReport& r : report.ranks) ++counts[r.state];
  out << report.ranks.size() << (report.ranks.size() == 1 ? " rank" : " ranks");
  const char* sep = ": ";
  for (const auto& [state, count] : counts) {
    out << sep << count << ' ' << StateText(state);
    sep = ", ";
  }
  out << "\n";
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

// A frame's name in a call path: its function, else its pc in its module.
std::string FrameName(const model::Frame& f) {
  if (f.function) return *f.function;
  char pc[32];
  std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
  return f.module.empty() ? std::string(pc) : std::string(pc) + " in " + f.module;
}

std::string FileLine(const model::Frame& f) {
  const std::size_t slash = f.file->rfind('/');
  return (slash == std::string::npos ? *f.file : f.file->substr(slash + 1)) + ":" +
         std::to_string(*f.line);
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
      out += (f.file && f.line) ? " at " + FileLine(f) + " in " + name : " in " + name;
      located = f.file && f.line;
    } else {
      out += " \u2190 " + name;
      if (!located && f.file && f.line) {
        out += " (" + FileLine(f) + ")";
        located = true;
      }
    }
    if (name == "main" || name == "start_thread") break;
  }
  return out;
}

// Each rank's call and where it was made, ranks with the same line together.
void Stacks(const JobReport& report, std::ostringstream& out) {
  std::map<std::string, std::vector<int>> lines;
  std::vector<std::string> order;
  for (const RankReport& r : report.ranks) {
    const std::string where = StackPhrase(r);
    if (where.empty()) continue;
    const std::string line = r.summary + where;
    auto [it, fresh] = lines.try_emplace(line);
    if (fresh) order.push_back(line);
    it->second.push_back(r.rank);
  }
  if (order.empty()) return;
  out << "\nstacks:\n";
  for (const std::string& line : order) {
    const std::vector<int>& ranks = lines[line];
    out << "  " << (ranks.size() == 1 ? "rank " : "ranks ") << FormatRankRanges(ranks) << ": "
        << line << "\n";
  }
}

void Hints(const JobReport& report, std::ostringstream& out) {
  if (report.hints.empty()) return;
  out << "\nhints:\n";
  for (const std::string& hint : report.hints) out << "  - " << hint << "\n";
}

}  // namespace

std::string ToText(const JobReport& report) {
  std::ostringstream out;
  Coverage(report, out);
  Verdict(report, out);
  Groups(report, out);
  Stacks(report, out);
  Waits(report, out);
  Unmatched(report, out);
  Hints(report, out);
  return out.str();
}

}  // namespace mpidbg::job
