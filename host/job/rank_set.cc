#include "job/rank_set.h"

#include <algorithm>

namespace mpidbg::job {

SharedRanks::SharedRanks(std::vector<int> sorted) : ranks(std::move(sorted)) {
  if (!std::is_sorted(ranks.begin(), ranks.end())) std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  for (int r : ranks) {
    if (!runs.empty() && runs.back().second + 1 == r) {
      runs.back().second = r;
    } else {
      runs.emplace_back(r, r);
    }
  }
}

RankSet RankSet::AllBut(std::shared_ptr<const SharedRanks> group, int excluded) {
  RankSet set;
  set.excluded_ = excluded;
  const auto at = std::lower_bound(group->ranks.begin(), group->ranks.end(), excluded);
  if (at != group->ranks.end() && *at == excluded) {
    set.skip_ = static_cast<std::size_t>(at - group->ranks.begin());
  }
  set.group_ = std::move(group);
  return set;
}

bool operator==(const RankSet& a, const std::vector<int>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace mpidbg::job
