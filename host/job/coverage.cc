#include "job/coverage.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace mpidbg::job {
namespace {

// A world size read from a target is not trusted to size a loop beyond this.
constexpr int kMaxWorldSize = 1 << 20;

// The sentence for an unreadable process, else a generic one.
std::string Reason(const RankReport& r) {
  if (r.error && !r.error->empty()) return *r.error;
  return "could not be read";
}

bool SetHas(const RankSet& set, int rank) {
  std::size_t lo = 0, hi = set.size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (set[mid] < rank) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < set.size() && set[lo] == rank;
}

}  // namespace

std::vector<UnreadRank> FindUnreadRanks(const JobIndex& job, const std::vector<RankReport>& ranks) {
  std::vector<UnreadRank> known;    // unreadable with a rank
  std::vector<UnreadRank> nameless; // unreadable, rank not known (e.g. a core cut short)
  int size = 0;
  for (std::size_t i = 0; i < job.size(); ++i) {
    size = std::max(size, std::min(job.snapshot(i).process.size, kMaxWorldSize));
    const RankReport& r = ranks[i];
    if (r.state != RankState::kUnreadable) continue;
    UnreadRank u;
    u.pid = r.pid;
    u.source = r.source;
    u.reason = Reason(r);
    if (r.rank >= 0 && job.participates(i)) {
      u.rank = r.rank;
      known.push_back(std::move(u));
    } else if (r.rank < 0) {
      nameless.push_back(std::move(u));
    }
  }
  std::vector<int> missing;
  for (int r = 0; r < size; ++r) {
    if (job.IndexOf(r) < 0) missing.push_back(r);
  }
  std::vector<UnreadRank> out = std::move(known);
  if (missing.size() == 1 && nameless.size() == 1) {
    // One rank absent and one process that failed before its rank was read: the same.
    nameless.front().rank = missing.front();
    out.push_back(std::move(nameless.front()));
  } else {
    for (UnreadRank& u : nameless) out.push_back(std::move(u));
    for (int r : missing) {
      UnreadRank u;
      u.rank = r;
      u.reason = nameless.empty() ? "not read: no process, core or record of it was given"
                                  : "not read: not given, or one of the processes that could "
                                    "not be read";
      out.push_back(std::move(u));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const UnreadRank& a, const UnreadRank& b) {
    return a.rank.value_or(-1) < b.rank.value_or(-1);
  });
  return out;
}

std::vector<int> RanksWaitingOnUnread(const DeadlockReport& deadlock,
                                      const std::vector<UnreadRank>& unread,
                                      const std::vector<int>& outside_view) {
  if (unread.empty()) return {};
  std::vector<int> targets;
  for (const UnreadRank& u : unread) {
    if (u.rank) targets.push_back(*u.rank);
  }
  std::sort(targets.begin(), targets.end());
  std::vector<int> waiting = outside_view;
  for (const WaitRequirement& w : deadlock.waits) {
    bool names_unread = false;
    // Whichever side is smaller is walked, the other searched: a wait on a big group
    // with few ranks unread costs the few.
    if (w.to.size() <= targets.size()) {
      for (int r : w.to) {
        if (std::binary_search(targets.begin(), targets.end(), r)) {
          names_unread = true;
          break;
        }
      }
    } else {
      for (int r : targets) {
        if (SetHas(w.to, r)) {
          names_unread = true;
          break;
        }
      }
    }
    if (names_unread) waiting.push_back(w.from);
  }
  std::sort(waiting.begin(), waiting.end());
  waiting.erase(std::unique(waiting.begin(), waiting.end()), waiting.end());
  std::vector<int> open;
  std::set_difference(waiting.begin(), waiting.end(), deadlock.ranks.begin(),
                      deadlock.ranks.end(), std::back_inserter(open));
  return open;
}

std::vector<PartialRank> FindPartialRanks(const JobIndex& job) {
  std::vector<PartialRank> out;
  for (std::size_t i = 0; i < job.size(); ++i) {
    const model::ProcessInfo& p = job.snapshot(i).process;
    if (!p.damage || !p.damage->Partial()) continue;
    out.push_back(PartialRank{p.rank, p.pid, p.source, p.damage->Sentence()});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const PartialRank& a, const PartialRank& b) { return a.rank < b.rank; });
  return out;
}

}  // namespace mpidbg::job
