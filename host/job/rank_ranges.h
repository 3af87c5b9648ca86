// rank_ranges.h — ranks as people read them: "0-3,5", and ranks grouped by what they do.
#pragma once

#include <vector>

#include "job/job_analysis.h"

namespace mpidbg::job {

// Ranks with the same summary, each group sorted, groups ordered by their lowest rank.
std::vector<RankGroup> GroupBySummary(const std::vector<RankReport>& ranks);

}  // namespace mpidbg::job
