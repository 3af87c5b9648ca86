#include "job/rank_ranges.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

namespace mpidbg::job {

std::string FormatRankRanges(std::vector<int> ranks) {
  if (!std::is_sorted(ranks.begin(), ranks.end())) std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string text;
  for (std::size_t k = 0; k < ranks.size();) {
    std::size_t end = k;
    while (end + 1 < ranks.size() && ranks[end + 1] == ranks[end] + 1) ++end;
    if (!text.empty()) text += ',';
    text += std::to_string(ranks[k]);
    if (end > k) text += '-' + std::to_string(ranks[end]);
    k = end + 1;
  }
  return text;
}

namespace {

void AppendRun(int first, int last, std::string* text) {
  if (first > last) return;
  if (!text->empty()) *text += ',';
  *text += std::to_string(first);
  if (last > first) *text += '-' + std::to_string(last);
}

}  // namespace

std::string FormatRankSet(const RankSet& ranks) {
  const SharedRanks* group = ranks.shared();
  if (group == nullptr) return FormatRankRanges(std::vector<int>(ranks.begin(), ranks.end()));
  // Leaving one rank out splits at most the one run that holds it.
  const std::optional<int> out = ranks.excluded();
  std::string text;
  for (const auto& [first, last] : group->runs) {
    if (out && first <= *out && *out <= last) {
      AppendRun(first, *out - 1, &text);
      AppendRun(*out + 1, last, &text);
    } else {
      AppendRun(first, last, &text);
    }
  }
  return text;
}

std::string RanksPhrase(const std::vector<int>& ranks) {
  return (ranks.size() == 1 ? "rank " : "ranks ") + FormatRankRanges(ranks);
}

std::string RankSetPhrase(const RankSet& ranks) {
  return (ranks.size() == 1 ? "rank " : "ranks ") + FormatRankSet(ranks);
}

std::vector<RankGroup> GroupBySummary(const std::vector<RankReport>& ranks) {
  std::vector<RankGroup> groups;
  std::unordered_map<std::string, std::size_t> by_summary;
  for (const RankReport& rank : ranks) {
    auto [it, fresh] = by_summary.try_emplace(rank.summary, groups.size());
    if (fresh) groups.push_back(RankGroup{{}, rank.summary});
    groups[it->second].ranks.push_back(rank.rank);
  }
  for (RankGroup& group : groups) std::sort(group.ranks.begin(), group.ranks.end());
  std::sort(groups.begin(), groups.end(), [](const RankGroup& a, const RankGroup& b) {
    return a.ranks.front() < b.ranks.front();
  });
  return groups;
}

}  // namespace mpidbg::job
