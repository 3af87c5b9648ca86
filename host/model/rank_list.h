// rank_list.h — the world ranks of a communicator's group, held once and shared.
//
// Every member of a communicator reports the same group, so a job of n ranks whose
// views each carried their own copy of MPI_COMM_WORLD would hold n lists of n ranks.
// A RankList is immutable once made and copying one shares it: readers hand every
// rank's view of a communicator the same list (group_table.h), and a whole job then
// holds each group once.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace mpidbg::model {

class RankList {
 public:
  RankList() = default;
  RankList(std::vector<int> ranks)  // NOLINT(google-explicit-constructor): a list is its ranks
      : ranks_(ranks.empty() ? nullptr : std::make_shared<const std::vector<int>>(std::move(ranks))) {}
  RankList(std::initializer_list<int> ranks) : RankList(std::vector<int>(ranks)) {}

  const std::vector<int>& ranks() const { return ranks_ ? *ranks_ : Empty(); }
  std::size_t size() const { return ranks().size(); }
  bool empty() const { return ranks().empty(); }
  int operator[](std::size_t i) const { return ranks()[i]; }
  int front() const { return ranks().front(); }
  int back() const { return ranks().back(); }
  std::vector<int>::const_iterator begin() const { return ranks().begin(); }
  std::vector<int>::const_iterator end() const { return ranks().end(); }

  // The same storage: equal without looking at the ranks.
  bool SharesWith(const RankList& o) const { return ranks_ == o.ranks_; }
  bool operator==(const RankList& o) const { return SharesWith(o) || ranks() == o.ranks(); }
  bool operator!=(const RankList& o) const { return !(*this == o); }

 private:
  static const std::vector<int>& Empty() {
    static const std::vector<int> empty;
    return empty;
  }
  std::shared_ptr<const std::vector<int>> ranks_;
};

}  // namespace mpidbg::model
