// member_ranges.h — a communicator's world ranks as the text of the node record
// ("0-3,8-11": comm rank order, ascending runs folded), and that text back into ranks.
// Writing is util's RankListText; reading is here because the text comes from outside
// and is bounded before anything is allocated.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "host/util/status.h"

namespace mpidbg::host {

// "0-3,8-11" -> {0,1,2,3,8,9,10,11}. Every rank lies in [0, kMaxWorldSize) and the list
// holds at most `max_ranks` ranks; "" is the empty list. Anything else is an error.
Result<std::vector<int>> ParseMemberRanges(const std::string& text, std::size_t max_ranks);

}  // namespace mpidbg::host
