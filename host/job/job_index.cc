#include "job/job_index.h"

#include <algorithm>

namespace mpidbg::job {
namespace {

void AddMembers(const std::vector<int>& ranks, std::vector<int>* members) {
  members->insert(members->end(), ranks.begin(), ranks.end());
}

std::optional<int> At(const std::vector<int>& ranks, int position) {
  if (position < 0 || static_cast<std::size_t>(position) >= ranks.size()) return std::nullopt;
  return ranks[static_cast<std::size_t>(position)];
}

}  // namespace

JobIndex::JobIndex(const std::vector<model::ProcessSnapshot>& snapshots)
    : snapshots_(snapshots),
      participates_(snapshots.size(), false),
      local_comms_(snapshots.size()) {
  index_of_rank_.reserve(snapshots.size());
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    const int rank = snapshots[i].process.rank;
    if (rank < 0) {
      const model::ProcessInfo& p = snapshots[i].process;
      // An unreadable one is named, with why, among the ranks not read (coverage).
      if (p.state == "unreadable") continue;
      const std::string who = p.pid > 0 ? "process " + std::to_string(p.pid) : "a target";
      problems_.push_back(who + " has no MPI rank and takes no part in the analysis");
      continue;
    }
    if (!index_of_rank_.emplace(rank, static_cast<int>(i)).second) {
      problems_.push_back("rank " + std::to_string(rank) + " appears twice (pid " +
                          std::to_string(snapshots[i].process.pid) + " ignored)");
      continue;
    }
    participates_[i] = true;
    all_ranks_.push_back(rank);
  }
  std::sort(all_ranks_.begin(), all_ranks_.end());
  // IndexOf runs once per edge: world ranks are normally 0..n-1, so a plain array.
  if (!all_ranks_.empty() && all_ranks_.back() < 4 * static_cast<int>(all_ranks_.size()) + 64) {
    dense_index_.assign(static_cast<std::size_t>(all_ranks_.back()) + 1, -1);
    for (const auto& [rank, index] : index_of_rank_) {
      if (participates_[static_cast<std::size_t>(index)]) {
        dense_index_[static_cast<std::size_t>(rank)] = index;
      }
    }
  }

  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    if (!participates_[i]) continue;
    for (const model::Communicator& comm : snapshots[i].communicators) {
      if (comm.id.empty()) continue;
      local_comms_[i].emplace(comm.id, &comm);
      auto [it, fresh] = comms_.try_emplace(comm.id);
      if (!fresh) continue;  // every member reports the same membership
      it->second.name = comm.name;
      it->second.inter = comm.kind == "inter";
      AddMembers(comm.world_ranks.ranks(), &it->second.members);
      if (comm.remote_world_ranks) AddMembers(comm.remote_world_ranks->ranks(), &it->second.members);
      std::vector<int>& m = it->second.members;
      std::sort(m.begin(), m.end());
      m.erase(std::unique(m.begin(), m.end()), m.end());
    }
  }
  comms_[kFinalizeComm] = CommMembers{"MPI_COMM_WORLD", all_ranks_};
}

int JobIndex::IndexOf(int world_rank) const {
  if (world_rank >= 0 && static_cast<std::size_t>(world_rank) < dense_index_.size()) {
    return dense_index_[static_cast<std::size_t>(world_rank)];
  }
  if (!dense_index_.empty()) return -1;  // every rank is in dense_index_
  auto it = index_of_rank_.find(world_rank);
  return it == index_of_rank_.end() ? -1 : it->second;
}

const model::Communicator* JobIndex::LocalComm(std::size_t i, const std::string& comm_id) const {
  if (i >= local_comms_.size()) return nullptr;
  auto it = local_comms_[i].find(comm_id);
  return it == local_comms_[i].end() ? nullptr : it->second;
}

const CommMembers* JobIndex::Comm(const std::string& comm_id) const {
  auto it = comms_.find(comm_id);
  return it == comms_.end() ? nullptr : &it->second;
}

std::optional<int> JobIndex::PeerWorld(std::size_t i, const model::Operation& op,
                                       const std::string& comm_id) const {
  if (op.peer_world.is_rank()) return op.peer_world.value;
  if (!op.peer.is_rank()) return std::nullopt;
  const model::Communicator* comm = LocalComm(i, comm_id);
  if (comm == nullptr) return std::nullopt;
  // On an intercommunicator a peer rank names a member of the remote group.
  if (comm->kind == "inter") {
    if (!comm->remote_world_ranks) return std::nullopt;
    return At(comm->remote_world_ranks->ranks(), op.peer.value);
  }
  return At(comm->world_ranks.ranks(), op.peer.value);
}

const model::RankList* JobIndex::SourceGroup(std::size_t i, const std::string& comm_id) const {
  const model::Communicator* comm = LocalComm(i, comm_id);
  if (comm == nullptr) return nullptr;
  if (comm->kind != "inter") return &comm->world_ranks;
  return comm->remote_world_ranks ? &*comm->remote_world_ranks : nullptr;
}

std::string JobIndex::CommLabel(std::size_t i, const std::string& comm_id,
                                const std::string& name_hint) const {
  if (!name_hint.empty()) return name_hint;
  if (const model::Communicator* comm = LocalComm(i, comm_id); comm && !comm->name.empty()) {
    return comm->name;
  }
  if (const CommMembers* comm = Comm(comm_id); comm && !comm->name.empty()) return comm->name;
  if (comm_id.empty()) return "?";
  return comm_id;
}

}  // namespace mpidbg::job
