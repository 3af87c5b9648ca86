// job_index.h — the snapshots of a job, looked up by world rank and communicator id.
//
// Every later step asks the same questions: which snapshot is world rank r, which world
// ranks belong to communicator C, what world rank is peer p of an operation seen from
// rank r. They are answered here once, in O(1), so no step loops over all ranks per edge.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/snapshot.h"

namespace mpidbg::job {

// MPI_Finalize is collective over the whole job whatever communicator a runtime names.
inline constexpr const char* kFinalizeComm = "*world*";

struct CommMembers {
  std::string name;
  std::vector<int> members;  // world ranks of all members (both groups of an intercomm)
  bool inter = false;
};

class JobIndex {
 public:
  explicit JobIndex(const std::vector<model::ProcessSnapshot>& snapshots);

  std::size_t size() const { return snapshots_.size(); }
  const model::ProcessSnapshot& snapshot(std::size_t i) const { return snapshots_[i]; }
  int world_rank(std::size_t i) const { return snapshots_[i].process.rank; }
  // False for a snapshot without a rank or repeating an earlier one's rank; such a
  // snapshot is reported but takes no part in the analysis.
  bool participates(std::size_t i) const { return participates_[i]; }

  // Snapshot index of a world rank, -1 when that rank is not in the job.
  int IndexOf(int world_rank) const;
  // Sorted world ranks of every participating snapshot.
  const std::vector<int>& AllRanks() const { return all_ranks_; }

  // Rank i's own view of a communicator, nullptr when it has none.
  const model::Communicator* LocalComm(std::size_t i, const std::string& comm_id) const;
  // The job-wide membership of a communicator (kFinalizeComm: every rank).
  const CommMembers* Comm(const std::string& comm_id) const;

  // The world rank of an operation's peer seen from rank i; nullopt for wildcards and
  // when it cannot be told.
  std::optional<int> PeerWorld(std::size_t i, const model::Operation& op) const {
    return PeerWorld(i, op, op.comm_id);
  }
  // The same for an operation listed under communicator comm_id.
  std::optional<int> PeerWorld(std::size_t i, const model::Operation& op,
                               const std::string& comm_id) const;
  // The group an ANY_SOURCE receive by rank i on comm_id may hear from, in rank i's view
  // (the remote group of an intercommunicator): all of it but rank i itself. nullptr
  // when the communicator is unknown. Every member's view shares one list
  // (model/group_table.h), so the address of its ranks names the group.
  const model::RankList* SourceGroup(std::size_t i, const std::string& comm_id) const;
  // A communicator as people know it: its name, else its id.
  std::string CommLabel(std::size_t i, const std::string& comm_id,
                        const std::string& name_hint = std::string()) const;

  const std::vector<std::string>& problems() const { return problems_; }

 private:
  const std::vector<model::ProcessSnapshot>& snapshots_;
  std::vector<bool> participates_;
  std::vector<int> dense_index_;               // world rank -> index, for ranks 0..n
  std::unordered_map<int, int> index_of_rank_;  // every rank (used beyond dense_index_)
  std::vector<int> all_ranks_;
  std::vector<std::unordered_map<std::string, const model::Communicator*>> local_comms_;
  std::unordered_map<std::string, CommMembers> comms_;
  std::vector<std::string> problems_;
};

}  // namespace mpidbg::job
