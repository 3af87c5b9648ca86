// stacks_view.cc — see stacks_view.h.
#include "job/stacks_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "job/call_info.h"

namespace mpidbg::job {

bool IsStacksView(const std::vector<model::ProcessSnapshot>& snapshots) {
  for (const model::ProcessSnapshot& s : snapshots) {
    if (s.process.state != "unreadable" && s.process.view == "stacks") return true;
  }
  return false;
}

bool NumberRanksByOrder(std::vector<model::ProcessSnapshot>* snapshots) {
  std::set<int> taken;
  for (const model::ProcessSnapshot& s : *snapshots) {
    if (s.process.rank >= 0) taken.insert(s.process.rank);
  }
  bool numbered = false;
  int next = 0;
  for (model::ProcessSnapshot& s : *snapshots) {
    if (s.process.rank >= 0 || s.process.state == "unreadable" || s.process.view != "stacks") {
      continue;
    }
    while (taken.count(next) != 0) ++next;
    s.process.rank = next;
    taken.insert(next);
    numbered = true;
  }
  if (!numbered) return false;
  const int count = static_cast<int>(snapshots->size());
  for (model::ProcessSnapshot& s : *snapshots) {
    if (s.process.view == "stacks" && s.process.size <= 0) s.process.size = count;
  }
  return true;
}

bool StacksHung(const JobReport& report) {
  const StacksVerdict& v = report.stacks;
  return report.view == "stacks" && v.all_blocked && v.second_read_seconds > 0 &&
         v.progressing.empty() && !report.Incomplete();
}

std::vector<CollectiveMismatch> ProvenCollectiveMismatches(const std::vector<RankReport>& ranks) {
  std::map<std::pair<std::string, int>, std::vector<int>> sides;  // (call, root) -> ranks
  for (const RankReport& r : ranks) {
    if (r.state != RankState::kBlocked || !r.call || r.rank < 0) continue;
    if (ClassOfCall(*r.call) != CallClass::kColl || IsFinalize(*r.call)) continue;
    if (r.comm_name != "MPI_COMM_WORLD" || r.arguments_from != "caller_frame") continue;
    sides[{*r.call, r.root.value_or(-1)}].push_back(r.rank);
  }
  if (sides.size() < 2) return {};
  CollectiveMismatch m;
  m.comm_name = "MPI_COMM_WORLD";
  for (auto& [key, members] : sides) {
    std::optional<int> root;
    if (key.second >= 0) root = key.second;
    m.sides.push_back(CollectiveMismatch::Side{members, key.first, root});
  }
  std::sort(m.sides.begin(), m.sides.end(),
            [](const CollectiveMismatch::Side& a, const CollectiveMismatch::Side& b) {
              return a.ranks.front() < b.ranks.front();
            });
  return {m};
}

StacksVerdict JudgeStacks(const std::vector<RankReport>& ranks) {
  StacksVerdict v;
  std::map<std::string, std::vector<int>> by_collective;
  int read = 0;
  for (const RankReport& r : ranks) {
    if (r.state == RankState::kUnreadable || r.rank < 0) continue;
    ++read;
    if (r.state == RankState::kBlocked) {
      v.blocked.push_back(r.rank);
      // MPI_Finalize is a collective over the job too, but a rank in it may simply be
      // done: it says nothing about which collective the others should be in.
      if (r.call && ClassOfCall(*r.call) == CallClass::kColl && !IsFinalize(*r.call)) {
        by_collective[*r.call].push_back(r.rank);
      }
    } else {
      v.not_blocked.push_back(r.rank);
    }
  }
  v.all_blocked = read > 0 && v.not_blocked.empty();
  if (by_collective.size() >= 2) {
    for (auto& [call, members] : by_collective) {
      std::sort(members.begin(), members.end());
      v.collectives.push_back(CollectiveMismatch::Side{members, call, std::nullopt});
    }
    std::sort(v.collectives.begin(), v.collectives.end(),
              [](const CollectiveMismatch::Side& a, const CollectiveMismatch::Side& b) {
                return a.ranks.front() < b.ranks.front();
              });
  }
  return v;
}

}  // namespace mpidbg::job
