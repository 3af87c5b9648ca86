// message_index.h — every posted point-to-point send and receive of the job, keyed by
// (communicator, rank it is addressed to), so "is there a matching counterpart?" costs
// one hash lookup plus the few messages between that pair.
//
// Sources: each rank's pending sends and receives, the blocking operation of every
// thread in MPI, the requests Wait-class calls wait for (when not already listed), the
// receiver's unexpected queue (messages that arrived before any receive), when a
// snapshot lacks it, the send half of an MPI_Sendrecv in progress as a wildcard, and
// the messages the runtimes' traffic counters prove sent and not yet received (sends
// that completed at the sender, e.g. eagerly, and that no receive has taken). The same
// counters tell which pending sends the receiver has taken already (`delivered`); the
// lookups and the hints skip those.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "job/job_index.h"
#include "model/snapshot.h"

namespace mpidbg::job {

inline constexpr int kAnyRank = -1;      // ANY_SOURCE receive
inline constexpr int kUnknownRank = -2;  // the peer's world rank could not be told

struct PostedSend {
  int from = kUnknownRank;  // world ranks
  int to = kUnknownRank;
  std::string comm_id;
  std::size_t owner = 0;    // snapshot index of the rank holding the record
  const model::Operation* op = nullptr;
  bool arrived = false;     // found in the receiver's unexpected queue
  // The send half of an MPI_Sendrecv in progress whose record is missing (an older
  // runtime, or a foreign DLL): it may go to anyone with any tag.
  bool envelope_unknown = false;
  // Proven by the traffic counters (sender's sends minus receiver's receives) rather
  // than seen as a pending operation; `ordinal` is its number within (comm, from, to,
  // tag), and `op` comes from the sender's send log when the send is still in it.
  bool from_counts = false;
  uint64_t ordinal = 0;
  // A pending send the receiver has taken already, by the traffic counters: the send
  // half of an MPI_Sendrecv whose receive half still waits (the runtime sees the call
  // end, not its halves), or a nonblocking send not yet completed by a Wait. It is no
  // message anybody can still receive.
  bool delivered = false;
};

struct PostedReceive {
  int at = kUnknownRank;    // world rank of the receiver
  int from = kUnknownRank;  // kAnyRank for ANY_SOURCE
  std::string comm_id;
  std::size_t owner = 0;
  const model::Operation* op = nullptr;
};

bool TagsMatch(const model::Tag& receive, const model::Tag& send);
// False for a partitioned send (MPI_Psend_init) with partitions not marked ready this
// round; true for every other operation.
bool AllPartitionsReady(const model::Operation& op);

class MessageIndex {
 public:
  explicit MessageIndex(const JobIndex& job);

  const std::vector<PostedSend>& sends() const { return sends_; }
  const std::vector<PostedReceive>& receives() const { return receives_; }

  // A send to `to` on comm_id from `from` (kAnyRank: from anyone) that a receive with
  // `tag` would take. Sends whose destination is unknown count as possible matches.
  bool HasSendFor(const std::string& comm_id, int from, int to, const model::Tag& tag) const;
  // A receive posted by `at` on comm_id that a message from `from` with `tag` would
  // satisfy (ANY_SOURCE and unknown sources included).
  bool HasReceiveFor(const std::string& comm_id, int at, int from, const model::Tag& tag) const;

  // Sends addressed to `to` on any communicator (for hints); indices into sends().
  const std::vector<std::size_t>& SendsTo(int to) const;
  // Sends addressed to `to` on one communicator.
  const std::vector<std::size_t>& SendsTo(const std::string& comm_id, int to) const;

 private:
  using RankMap = std::unordered_map<int, std::vector<std::size_t>>;
  void Collect(const JobIndex& job, std::size_t i);
  void CollectOutstanding(const JobIndex& job);
  void MarkDelivered(const std::vector<std::size_t>& held, uint64_t count);
  void AddSend(PostedSend send);
  void AddReceive(PostedReceive receive);

  std::deque<model::Operation> synthesized_;  // envelopes of sends proven by counters
  std::vector<PostedSend> sends_;
  std::vector<PostedReceive> receives_;
  std::unordered_map<std::string, RankMap> sends_by_comm_;     // comm -> to -> sends
  std::unordered_map<std::string, RankMap> receives_by_comm_;  // comm -> at -> receives
  RankMap sends_by_dest_;
  std::vector<std::size_t> none_;
};

}  // namespace mpidbg::job
