// rank_list_text.h — a list of ranks as text with runs folded ("0-3,5,7-8"), as the
// snapshot and handle texts both print communicator and group members.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::host {

std::string RankListText(const std::vector<int>& ranks);

}  // namespace mpidbg::host
