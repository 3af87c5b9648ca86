#include "job/message_index.h"

#include <optional>
#include <unordered_set>

#include "job/call_info.h"

namespace mpidbg::job {
namespace {

bool IsPending(const model::Operation& op) { return op.status == "pending"; }

bool IsPointToPoint(const model::Operation& op) {
  return ClassOfCall(op.call) != CallClass::kColl;
}

// The same blocking call may be listed in a queue and recorded on its thread.
bool SameBlockingCall(const model::Operation& a, const model::Operation& b) {
  if (a.tid && b.tid) return *a.tid == *b.tid;
  return a.call == b.call && a.comm_id == b.comm_id && a.peer == b.peer && a.tag == b.tag &&
         a.is_send == b.is_send;
}

bool IsSendrecv(const std::string& call) {
  return call == "MPI_Sendrecv" || call == "MPI_Sendrecv_replace";
}

int WorldOrUnknown(std::optional<int> world) { return world ? *world : kUnknownRank; }

// Whether the send half of a thread's MPI_Sendrecv is among the listed blocking
// operations (the runtime records it beside the receive half, with the same thread).
bool HasBlockingSendOf(const std::vector<const model::Operation*>& listed_blocking,
                       const model::Thread& thread) {
  for (const model::Operation* op : listed_blocking) {
    if (op->is_send && op->tid && *op->tid == thread.tid) return true;
  }
  return false;
}

}  // namespace

bool TagsMatch(const model::Tag& receive, const model::Tag& send) {
  return receive.any || (!send.any && receive.value == send.value);
}

MessageIndex::MessageIndex(const JobIndex& job) {
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i)) continue;
    if (job.snapshot(i).process.state == "unreadable") continue;
    Collect(job, i);
  }
}

void MessageIndex::Collect(const JobIndex& job, std::size_t i) {
  const model::ProcessSnapshot& snapshot = job.snapshot(i);
  const int self = job.world_rank(i);
  std::unordered_set<uint64_t> listed_requests;
  std::vector<const model::Operation*> listed_blocking;

  auto add_operation = [&](const model::Operation& op, const std::string& comm_id) {
    if (!IsPending(op) || !IsPointToPoint(op)) return;
    if (op.peer.kind == model::Rank::Kind::kProcNull) return;  // no message at all
    if (op.request) listed_requests.insert(*op.request);
    if (op.is_send) {
      AddSend({self, WorldOrUnknown(job.PeerWorld(i, op, comm_id)), comm_id, i, &op, false});
    } else {
      const int from = op.peer.kind == model::Rank::Kind::kAnySource
                           ? kAnyRank
                           : WorldOrUnknown(job.PeerWorld(i, op, comm_id));
      AddReceive({self, from, comm_id, i, &op});
    }
  };

  for (const model::Communicator& comm : snapshot.communicators) {
    for (const auto* list : {&comm.pending_sends, &comm.pending_receives}) {
      for (const model::Operation& op : *list) {
        const std::string& comm_id = op.comm_id.empty() ? comm.id : op.comm_id;
        add_operation(op, comm_id);
        if (op.blocking) listed_blocking.push_back(&op);
      }
    }
    if (comm.unexpected) {
      for (const model::Operation& op : *comm.unexpected) {
        const std::string& comm_id = op.comm_id.empty() ? comm.id : op.comm_id;
        AddSend({WorldOrUnknown(job.PeerWorld(i, op, comm_id)), self, comm_id, i, &op, true});
      }
    }
  }

  for (const model::Thread& thread : snapshot.threads) {
    if (thread.state == "not_in_mpi") continue;
    if (thread.operation) {
      bool listed = false;
      for (const model::Operation* other : listed_blocking) {
        if (SameBlockingCall(*other, *thread.operation)) listed = true;
      }
      if (!listed) add_operation(*thread.operation, thread.operation->comm_id);
      if (thread.call && IsSendrecv(*thread.call) && !thread.operation->comm_id.empty() &&
          !HasBlockingSendOf(listed_blocking, thread)) {
        PostedSend send{self, kUnknownRank, thread.operation->comm_id, i, &*thread.operation};
        send.envelope_unknown = true;
        AddSend(std::move(send));
      }
    }
    for (const model::Operation& op : thread.waited) {
      if (op.request && listed_requests.count(*op.request) != 0) continue;
      add_operation(op, op.comm_id);
    }
  }
}

void MessageIndex::AddSend(PostedSend send) {
  const std::size_t id = sends_.size();
  sends_by_comm_[send.comm_id][send.to].push_back(id);
  sends_by_dest_[send.to].push_back(id);
  sends_.push_back(std::move(send));
}

void MessageIndex::AddReceive(PostedReceive receive) {
  const std::size_t id = receives_.size();
  receives_by_comm_[receive.comm_id][receive.at].push_back(id);
  receives_.push_back(std::move(receive));
}

const std::vector<std::size_t>& MessageIndex::SendsTo(int to) const {
  auto it = sends_by_dest_.find(to);
  return it == sends_by_dest_.end() ? none_ : it->second;
}

const std::vector<std::size_t>& MessageIndex::SendsTo(const std::string& comm_id, int to) const {
  auto comm = sends_by_comm_.find(comm_id);
  if (comm == sends_by_comm_.end()) return none_;
  auto it = comm->second.find(to);
  return it == comm->second.end() ? none_ : it->second;
}

bool MessageIndex::HasSendFor(const std::string& comm_id, int from, int to,
                              const model::Tag& tag) const {
  for (int dest : {to, kUnknownRank}) {
    for (std::size_t id : SendsTo(comm_id, dest)) {
      const PostedSend& send = sends_[id];
      const bool sender_fits = from == kAnyRank || send.from == from || send.from == kUnknownRank;
      if (sender_fits && (send.envelope_unknown || TagsMatch(tag, send.op->tag))) return true;
    }
  }
  return false;
}

bool MessageIndex::HasReceiveFor(const std::string& comm_id, int at, int from,
                                 const model::Tag& tag) const {
  auto comm = receives_by_comm_.find(comm_id);
  if (comm == receives_by_comm_.end()) return false;
  auto it = comm->second.find(at);
  if (it == comm->second.end()) return false;
  for (std::size_t id : it->second) {
    const PostedReceive& receive = receives_[id];
    const bool source_fits =
        receive.from == kAnyRank || receive.from == kUnknownRank || receive.from == from;
    if (source_fits && TagsMatch(receive.op->tag, tag)) return true;
  }
  return false;
}

}  // namespace mpidbg::job
