#include "job/collective_index.h"

#include <algorithm>

#include "job/call_info.h"

namespace mpidbg::job {

std::optional<CollectiveCall> CollectiveOfThread(const JobIndex& job, const model::Thread& thread) {
  if (thread.state == "not_in_mpi" || !thread.call) return std::nullopt;
  if (ClassOfThread(thread) != CallClass::kColl) return std::nullopt;
  if (IsFinalize(*thread.call)) return CollectiveCall{kFinalizeComm, *thread.call, -1};
  if (thread.comm_id.empty()) return std::nullopt;
  const CommMembers* comm = job.Comm(thread.comm_id);
  const bool inter = comm != nullptr && comm->inter;
  const int root = thread.root && *thread.root >= 0 && !inter ? *thread.root : -1;
  return CollectiveCall{thread.comm_id, MatchingCallName(*thread.call), root};
}

std::optional<CollectiveCall> CollectiveOfOperation(const model::Operation& op,
                                                    const std::string& comm_id) {
  if (ClassOfCall(op.call) != CallClass::kColl || comm_id.empty()) return std::nullopt;
  return CollectiveCall{comm_id, MatchingCallName(op.call), -1};
}

CollectiveIndex::CollectiveIndex(const JobIndex& job) : job_(job) {
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i)) continue;
    const model::ProcessSnapshot& snapshot = job.snapshot(i);
    const int self = job.world_rank(i);
    if (snapshot.process.state == "finalized") {
      Join(CollectiveCall{kFinalizeComm, "MPI_Finalize", -1}, self);
      continue;
    }
    for (const model::Thread& thread : snapshot.threads) {
      if (std::optional<CollectiveCall> call = CollectiveOfThread(job, thread)) Join(*call, self);
      if (thread.state == "not_in_mpi") continue;
      for (const model::Operation& op : thread.waited) {
        if (auto call = CollectiveOfOperation(op, op.comm_id)) Join(*call, self);
      }
    }
    for (const model::Communicator& comm : snapshot.communicators) {
      for (const auto* list : {&comm.pending_sends, &comm.pending_receives}) {
        for (const model::Operation& op : *list) {
          const std::string& comm_id = op.comm_id.empty() ? comm.id : op.comm_id;
          if (auto call = CollectiveOfOperation(op, comm_id)) Join(*call, self);
        }
      }
    }
  }
}

std::string CollectiveIndex::Key(const CollectiveCall& call) {
  return call.comm_id + '\n' + call.call + '\n' + std::to_string(call.root);
}

void CollectiveIndex::Join(const CollectiveCall& call, int world_rank) {
  joined_[Key(call)].insert(world_rank);
}

std::optional<std::vector<int>> CollectiveIndex::NeighborOutsiders(std::size_t i,
                                                                   const CollectiveCall& call,
                                                                   bool* outside_view) const {
  *outside_view = false;
  if (!IsNeighborhoodCollective(call.call)) return std::nullopt;
  const model::Communicator* comm = job_.LocalComm(i, call.comm_id);
  if (comm == nullptr || !comm->neighbors) return std::nullopt;
  const std::vector<int>& world = comm->world_ranks.ranks();
  const auto joined = joined_.find(Key(call));
  std::vector<int> outsiders;
  for (const std::vector<int>* list : {&comm->neighbors->sources, &comm->neighbors->destinations}) {
    for (int r : *list) {
      // A neighbour the group cannot name: the record contradicts itself; say nothing.
      if (r < 0 || static_cast<std::size_t>(r) >= world.size() || world[r] < 0) return std::nullopt;
      const int member = world[static_cast<std::size_t>(r)];
      if (job_.IndexOf(member) < 0) {
        *outside_view = true;  // not in our view: it may well have joined
        continue;
      }
      if (joined != joined_.end() && joined->second.count(member) != 0) continue;
      outsiders.push_back(member);
    }
  }
  std::sort(outsiders.begin(), outsiders.end());
  outsiders.erase(std::unique(outsiders.begin(), outsiders.end()), outsiders.end());
  return outsiders;
}

const std::vector<int>* CollectiveIndex::Outsiders(const CollectiveCall& call) {
  const std::string key = Key(call);
  if (auto cached = outsiders_.find(key); cached != outsiders_.end()) return &cached->second;
  const CommMembers* comm = job_.Comm(call.comm_id);
  if (comm == nullptr) return nullptr;
  const auto joined = joined_.find(key);
  std::vector<int> outsiders;
  for (int member : comm->members) {
    if (job_.IndexOf(member) < 0) continue;  // not in our view: it may well have joined
    if (joined != joined_.end() && joined->second.count(member) != 0) continue;
    outsiders.push_back(member);
  }
  return &outsiders_.emplace(key, std::move(outsiders)).first->second;
}

}  // namespace mpidbg::job
