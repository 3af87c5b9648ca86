// member_ranges.cc — reading "0-3,8-11" strictly.
#include "host/collect/member_ranges.h"

#include <cctype>

#include "host/util/json_fields.h"

namespace mpidbg::host {
namespace {

// One decimal rank below kMaxWorldSize starting at text[*at]; advances *at.
bool ReadRank(const std::string& text, std::size_t* at, int* out) {
  std::size_t start = *at;
  long value = 0;
  while (*at < text.size() && std::isdigit(static_cast<unsigned char>(text[*at])) != 0) {
    value = value * 10 + (text[*at] - '0');
    if (value >= kMaxWorldSize) return false;
    ++*at;
  }
  if (*at == start) return false;
  *out = static_cast<int>(value);
  return true;
}

}  // namespace

Result<std::vector<int>> ParseMemberRanges(const std::string& text, std::size_t max_ranks) {
  std::vector<int> ranks;
  std::size_t at = 0;
  auto bad = [&text](const std::string& why) {
    return Status::Unreadable("bad member list \"" + text.substr(0, 64) + "\": " + why);
  };
  while (at < text.size()) {
    int first = 0, last = 0;
    if (!ReadRank(text, &at, &first)) return bad("a rank is missing or too large");
    last = first;
    if (at < text.size() && text[at] == '-') {
      ++at;
      if (!ReadRank(text, &at, &last) || last < first) return bad("a run does not ascend");
    }
    if (ranks.size() + static_cast<std::size_t>(last - first) + 1 > max_ranks) {
      return bad("more ranks than the record allows");
    }
    for (int r = first; r <= last; ++r) ranks.push_back(r);
    if (at == text.size()) break;
    if (text[at] != ',' || at + 1 == text.size()) return bad("ranks are separated by one comma");
    ++at;
  }
  return ranks;
}

}  // namespace mpidbg::host
