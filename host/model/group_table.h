// group_table.h — one job-wide table of communicator groups, keyed by communicator id.
//
// Readers pass every snapshot they make through Share(): each rank's view of a
// communicator then refers to the one list the table holds for that id, so a job holds
// each group once however many of its ranks report it. Snapshots read one by one
// (documents, live processes) each bring their own copy, compared once and dropped;
// ranks of one node record already share their node's list, recognised without
// comparing (the last list seen for an id is remembered).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "rank_list.h"
#include "snapshot.h"

namespace mpidbg::model {

class GroupTable {
 public:
  // `snap`'s communicators refer to the table's lists from now on.
  void Share(ProcessSnapshot* snap) {
    for (Communicator& c : snap->communicators) {
      if (c.id.empty()) continue;
      c.world_ranks = Share(local_, c.id, c.world_ranks);
      if (c.remote_world_ranks) *c.remote_world_ranks = Share(remote_, c.id, *c.remote_world_ranks);
    }
  }

  // Distinct lists held (a list reported differently by two members counts twice).
  std::size_t lists() const { return lists_; }

 private:
  struct Variant {
    RankList held;       // the list every equal view gets
    RankList last_seen;  // the last storage found equal to it
  };
  // Members of one communicator should agree; a target that does not gets its own list
  // kept, past this many variants per id, unshared.
  static constexpr std::size_t kMaxVariants = 4;
  using Table = std::unordered_map<std::string, std::vector<Variant>>;

  RankList Share(Table& table, const std::string& id, const RankList& list) {
    if (list.empty()) return list;
    std::vector<Variant>& variants = table[id];
    for (Variant& v : variants) {
      if (v.held.SharesWith(list) || v.last_seen.SharesWith(list)) return v.held;
    }
    for (Variant& v : variants) {
      if (v.held == list) {
        v.last_seen = list;
        return v.held;
      }
    }
    if (variants.size() < kMaxVariants) {
      variants.push_back(Variant{list, list});
      ++lists_;
    }
    return list;
  }

  Table local_;
  Table remote_;
  std::size_t lists_ = 0;
};

}  // namespace mpidbg::model
