#include "job/message_index.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
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
  const std::string twin = MatchingCallName(call);
  return twin == "MPI_Sendrecv" || twin == "MPI_Sendrecv_replace";
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
  CollectOutstanding(job);
}

namespace {

// (communicator, sender, receiver, tag), world ranks.
using FlowKey = std::tuple<std::string, int, int, int>;

// At most this many messages of one flow are listed one by one; a runaway producer
// must not turn a report into millions of lines.
constexpr uint64_t kMaxListedPerFlow = 16;

model::Operation EnvelopeFromLog(const model::LoggedSend& l) {
  model::Operation op;
  op.call = l.call.empty() ? "send" : l.call;
  op.status = "complete";
  op.is_send = true;
  op.peer = model::Rank::Of(l.peer);
  op.peer_world = l.peer_world;
  op.tag = model::Tag{false, l.tag};
  op.count = l.count;
  op.bytes = l.bytes;
  op.mode = l.mode;
  op.comm_id = l.comm_id;
  return op;
}

model::Operation EnvelopeFromCounts(const model::TrafficCount& c) {
  model::Operation op;
  op.call = "send";
  op.status = "complete";
  op.is_send = true;
  op.peer = model::Rank::Of(c.peer);
  op.peer_world = c.peer_world;
  op.tag = model::Tag{false, c.tag};
  // The log no longer has it: the flow's average size is the best estimate.
  op.bytes = c.sends == 0 ? 0 : static_cast<int64_t>(c.send_bytes / c.sends);
  op.comm_id = c.comm_id;
  return op;
}

}  // namespace

void MessageIndex::CollectOutstanding(const JobIndex& job) {
  auto usable = [&](std::size_t i) {
    return job.participates(i) && job.snapshot(i).process.state != "unreadable" &&
           job.snapshot(i).traffic.has_value();
  };
  // What every receiver has taken, by flow.
  std::map<FlowKey, uint64_t> received;
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!usable(i)) continue;
    for (const model::TrafficCount& c : job.snapshot(i).traffic->counts) {
      if (c.receives == 0 || !c.peer_world.is_rank()) continue;
      received[{c.comm_id, c.peer_world.value, job.world_rank(i), c.tag}] += c.receives;
    }
  }
  // Sends still held by their sender are listed already, from its pending operations.
  std::map<FlowKey, std::vector<std::size_t>> held_sends;
  for (std::size_t id = 0; id < sends_.size(); ++id) {
    const PostedSend& send = sends_[id];
    if (send.arrived || send.envelope_unknown || send.op == nullptr || send.op->tag.any) continue;
    held_sends[{send.comm_id, send.from, send.to, send.op->tag.value}].push_back(id);
  }
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!usable(i)) continue;
    const int self = job.world_rank(i);
    const model::Traffic& traffic = *job.snapshot(i).traffic;
    for (const model::TrafficCount& c : traffic.counts) {
      if (c.sends == 0 || !c.peer_world.is_rank()) continue;
      const int to = c.peer_world.value;
      const int receiver = job.IndexOf(to);
      // Without the receiver's counters nothing is proven.
      if (receiver < 0 || !usable(static_cast<std::size_t>(receiver))) continue;
      const FlowKey key{c.comm_id, self, to, c.tag};
      const uint64_t taken = received.count(key) != 0 ? received[key] : 0;
      auto held_it = held_sends.find(key);
      const uint64_t still_held = held_it != held_sends.end() ? held_it->second.size() : 0;
      // Sends are counted when posted, receives when complete: the sender's sends that
      // no longer pend went first (a flow is delivered in order), so a receiver that
      // took more than those took the oldest pending ones too.
      const uint64_t done = c.sends > still_held ? c.sends - still_held : 0;
      if (taken > done && still_held > 0) MarkDelivered(held_it->second, taken - done);
      if (c.sends <= taken) continue;
      const uint64_t outstanding = c.sends - taken;
      if (outstanding <= still_held) continue;
      // MPI delivers a flow in order, so the receiver took ordinals 1..taken; the rest
      // are outstanding. The sender's pending ones are usually the newest.
      const uint64_t extra = std::min(outstanding - still_held, kMaxListedPerFlow);
      for (uint64_t ordinal = taken + 1; ordinal <= taken + extra; ++ordinal) {
        const model::LoggedSend* logged = nullptr;
        for (const model::LoggedSend& l : traffic.sends) {
          if (l.ordinal == ordinal && l.comm_id == c.comm_id && l.tag == c.tag &&
              l.peer_world == c.peer_world) {
            logged = &l;
          }
        }
        synthesized_.push_back(logged != nullptr ? EnvelopeFromLog(*logged) : EnvelopeFromCounts(c));
        PostedSend send{self, to, c.comm_id, i, &synthesized_.back(), true};
        send.from_counts = true;
        send.ordinal = ordinal;
        AddSend(std::move(send));
      }
    }
  }
}

void MessageIndex::MarkDelivered(const std::vector<std::size_t>& held, uint64_t count) {
  std::vector<std::size_t> oldest_first = held;
  std::stable_sort(oldest_first.begin(), oldest_first.end(), [this](std::size_t a, std::size_t b) {
    return sends_[a].op->post_serial < sends_[b].op->post_serial;
  });
  for (std::size_t k = 0; k < oldest_first.size() && k < count; ++k) {
    sends_[oldest_first[k]].delivered = true;
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

bool AllPartitionsReady(const model::Operation& op) {
  return !op.is_send || !op.partitions || op.partitions->done >= op.partitions->count;
}

bool MessageIndex::HasSendFor(const std::string& comm_id, int from, int to,
                              const model::Tag& tag) const {
  for (int dest : {to, kUnknownRank}) {
    for (std::size_t id : SendsTo(comm_id, dest)) {
      const PostedSend& send = sends_[id];
      if (send.delivered) continue;
      // A partitioned send whose partitions are not all ready cannot complete a
      // receive: its data is not all on its way.
      if (send.op != nullptr && !AllPartitionsReady(*send.op)) continue;
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
