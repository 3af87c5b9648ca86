// rank_set.h — the world ranks a requirement names: listed, or "a group but one".
//
// An ANY_SOURCE receive needs any other member of its communicator. Listing those per
// waiting rank costs ranks squared when every rank of a big communicator waits so
// (100,000 ranks: ten billion entries). Such a set instead refers to the group, sorted
// once and shared by every set drawn from it, and names the one rank it leaves out.
// Either way the set reads as the sorted, distinct ranks it stands for.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mpidbg::job {

// A communicator's group as sets draw on it: sorted, distinct, and as runs of
// consecutive ranks, so a set prints as ranges without walking its ranks.
struct SharedRanks {
  explicit SharedRanks(std::vector<int> ranks);
  std::vector<int> ranks;
  std::vector<std::pair<int, int>> runs;  // [first, last], ascending
};

class RankSet {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = const int&;

    Iterator(const int* at, const int* skip) : at_(at), skip_(skip) { Step(); }
    reference operator*() const { return *at_; }
    Iterator& operator++() {
      ++at_;
      Step();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& o) const { return at_ == o.at_; }
    bool operator!=(const Iterator& o) const { return at_ != o.at_; }

   private:
    void Step() {
      if (skip_ != nullptr && at_ == skip_) ++at_;
    }
    const int* at_;
    const int* skip_;
  };
  using iterator = Iterator;
  using const_iterator = Iterator;
  using value_type = int;

  RankSet() = default;
  // Ranks listed, sorted and distinct.
  RankSet(std::vector<int> ranks)  // NOLINT(google-explicit-constructor): a set is its ranks
      : listed_(std::move(ranks)) {}
  // Every rank of `group` but `excluded` (which need not be a member).
  static RankSet AllBut(std::shared_ptr<const SharedRanks> group, int excluded);

  std::size_t size() const { return Base().size() - (skip_ < Base().size() ? 1 : 0); }
  bool empty() const { return size() == 0; }
  int operator[](std::size_t k) const { return Base()[k < skip_ ? k : k + 1]; }
  int front() const { return (*this)[0]; }
  Iterator begin() const { return Iterator(Base().data(), Skip()); }
  Iterator end() const { return Iterator(Base().data() + Base().size(), nullptr); }

  // The group drawn on and the rank left out; nullptr for a listed set.
  const SharedRanks* shared() const { return group_.get(); }
  std::optional<int> excluded() const { return excluded_; }

 private:
  const std::vector<int>& Base() const { return group_ ? group_->ranks : listed_; }
  const int* Skip() const { return skip_ < Base().size() ? Base().data() + skip_ : nullptr; }

  std::vector<int> listed_;
  std::shared_ptr<const SharedRanks> group_;
  std::optional<int> excluded_;
  std::size_t skip_ = static_cast<std::size_t>(-1);  // position of `excluded_` in the group
};

bool operator==(const RankSet& a, const std::vector<int>& b);
inline bool operator==(const std::vector<int>& a, const RankSet& b) { return b == a; }
inline bool operator!=(const RankSet& a, const std::vector<int>& b) { return !(a == b); }

}  // namespace mpidbg::job
