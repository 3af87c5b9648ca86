#include "job/hints.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "job/call_info.h"
#include "job/rank_state.h"
#include "job/summary.h"

namespace mpidbg::job {
namespace {

// Beyond this the list stops helping; the last hint says how many were left out.
constexpr std::size_t kMaxHints = 100;

class HintList {
 public:
  void Add(std::string hint) {
    if (!seen_.insert(hint).second) return;
    if (hints_.size() < kMaxHints) {
      hints_.push_back(std::move(hint));
    } else {
      ++dropped_;
    }
  }
  std::vector<std::string> Take() {
    if (dropped_ > 0) hints_.push_back(std::to_string(dropped_) + " more hints not shown");
    return std::move(hints_);
  }

 private:
  std::vector<std::string> hints_;
  std::unordered_set<std::string> seen_;
  std::size_t dropped_ = 0;
};

// A receive a blocked thread waits for, in world ranks.
struct WaitedReceive {
  std::size_t owner;
  int at;
  int from;  // kAnyRank for ANY_SOURCE
  const model::Operation* op;
};

std::vector<WaitedReceive> BlockedReceives(const JobIndex& job) {
  std::vector<WaitedReceive> out;
  auto consider = [&](std::size_t i, const model::Operation& op) {
    if (op.is_send || op.status != "pending" || op.comm_id.empty()) return;
    if (ClassOfCall(op.call) == CallClass::kColl) return;
    int from = kAnyRank;
    if (op.peer.kind != model::Rank::Kind::kAnySource) {
      std::optional<int> world = job.PeerWorld(i, op);
      if (!world) return;
      from = *world;
    }
    out.push_back({i, job.world_rank(i), from, &op});
  };
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i)) continue;
    for (const model::Thread& thread : job.snapshot(i).threads) {
      if (thread.state != "blocked") continue;
      if (thread.operation) consider(i, *thread.operation);
      for (const model::Operation& op : thread.waited) consider(i, op);
    }
  }
  return out;
}

// "5 of 8 partitions".
std::string PartitionsPhrase(const model::Operation& op) {
  return std::to_string(op.partitions->done) + " of " + std::to_string(op.partitions->count) +
         " partitions";
}

// A blocked thread waiting for its own partitioned send whose partitions are not all
// ready: only its process can mark them, and it is waiting.
void PartitionHints(const JobIndex& job, HintList* hints) {
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i)) continue;
    for (const model::Thread& thread : job.snapshot(i).threads) {
      if (thread.state != "blocked") continue;
      for (const model::Operation& op : thread.waited) {
        if (AllPartitionsReady(op)) continue;
        const std::optional<int> to = job.PeerWorld(i, op);
        hints->Add("rank " + std::to_string(job.world_rank(i)) + " waits in " +
                   thread.call.value_or("MPI_Wait") + " for its partitioned send to " +
                   (to ? "rank " + std::to_string(*to) : std::string("its peer")) + " on " +
                   job.CommLabel(i, op.comm_id, op.comm_name) + ", of which it marked only " +
                   PartitionsPhrase(op) + " ready");
      }
    }
  }
}

std::string FromPhrase(int from) {
  return from == kAnyRank ? std::string("any rank") : "rank " + std::to_string(from);
}

void ReceiveHints(const JobIndex& job, const MessageIndex& messages,
                  const std::vector<RankReport>& ranks, HintList* hints) {
  for (const WaitedReceive& r : BlockedReceives(job)) {
    const model::Operation& op = *r.op;
    if (messages.HasSendFor(op.comm_id, r.from, r.at, op.tag)) continue;
    const std::string comm = job.CommLabel(r.owner, op.comm_id, op.comm_name);
    const std::string waits = "rank " + std::to_string(r.at) + " waits for " +
                              (op.tag.any ? std::string("a message") : "tag " + TagText(op.tag)) +
                              " from " + FromPhrase(r.from) + " on " + comm;
    // A message that went out with another tag or on another communicator explains
    // most; it is said even when the sender has moved on to MPI_Finalize since (a
    // Sendrecv ring with one wrong tag: the sender's call completed, its message waits).
    bool explained = false;
    for (std::size_t id : messages.SendsTo(op.comm_id, r.at)) {
      const PostedSend& send = messages.sends()[id];
      if (send.delivered) continue;
      if (send.from < 0 || (r.from != kAnyRank && send.from != r.from)) continue;
      if (!AllPartitionsReady(*send.op)) {
        if (TagsMatch(op.tag, send.op->tag)) {
          hints->Add(waits + "; rank " + std::to_string(send.from) + " marked " +
                     PartitionsPhrase(*send.op) + " of its partitioned send ready");
          explained = true;
        }
        continue;
      }
      hints->Add(waits + "; rank " + std::to_string(send.from) + " sent tag " +
                 TagText(send.op->tag) + " to rank " + std::to_string(r.at) + " instead");
      explained = true;
    }
    const bool same_comm = explained;
    for (std::size_t id : messages.SendsTo(r.at)) {
      if (same_comm) break;
      const PostedSend& send = messages.sends()[id];
      if (send.delivered || send.comm_id == op.comm_id || !AllPartitionsReady(*send.op)) continue;
      if (send.from < 0 || (r.from != kAnyRank && send.from != r.from)) continue;
      hints->Add(waits + "; rank " + std::to_string(send.from) + " sent tag " +
                 TagText(send.op->tag) + " to rank " + std::to_string(r.at) + " on " +
                 job.CommLabel(send.owner, send.comm_id, send.op->comm_name) + " instead");
      explained = true;
    }
    if (explained || r.from == kAnyRank) continue;
    const int peer = job.IndexOf(r.from);
    if (peer < 0) continue;
    const std::size_t p = static_cast<std::size_t>(peer);
    if (ranks[p].state == RankState::kFinalized) {
      hints->Add(waits + "; rank " + std::to_string(r.from) + " has finalized");
    } else if (IsFinalizing(job.snapshot(p))) {
      hints->Add(waits + "; rank " + std::to_string(r.from) + " is in MPI_Finalize");
    }
  }
}

void MismatchHints(const std::vector<CollectiveMismatch>& mismatches, HintList* hints) {
  for (const CollectiveMismatch& m : mismatches) {
    std::string text;
    for (std::size_t k = 0; k < m.sides.size(); ++k) {
      const CollectiveMismatch::Side& side = m.sides[k];
      if (k == 1) text += " while ";
      if (k > 1) text += ", ";
      text += RanksPhrase(side.ranks) + (side.ranks.size() == 1 ? " is in " : " are in ") +
              CollectiveSummary(side.call, side.root, "") + " on " + m.comm_name;
    }
    hints->Add(text);
  }
}

// The neighbours that have not joined a neighbourhood collective, over all its waiters,
// and the waiters that wait for any (one whose neighbours have all joined will finish);
// false when some waiter's neighbours are not known (then the communicator counts).
bool NeighborOutsidersOf(const JobIndex& job, const CollectiveIndex& collectives,
                         const CollectiveCall& call, std::vector<int>* waiters,
                         std::vector<int>* outsiders) {
  std::vector<int> all, waiting;
  for (int waiter : *waiters) {
    bool outside = false;
    const std::optional<std::vector<int>> mine =
        collectives.NeighborOutsiders(static_cast<std::size_t>(job.IndexOf(waiter)), call, &outside);
    if (!mine) return false;
    if (mine->empty()) continue;
    waiting.push_back(waiter);
    all.insert(all.end(), mine->begin(), mine->end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  *waiters = std::move(waiting);
  *outsiders = std::move(all);
  return true;
}

// Ranks blocked in a collective that some member never joined because it is stuck
// elsewhere or gone.
void AbsentMemberHints(const JobIndex& job, CollectiveIndex& collectives,
                       const std::vector<RankReport>& ranks, HintList* hints) {
  std::map<std::tuple<std::string, std::string, int>, std::vector<int>> waiting;
  std::map<std::tuple<std::string, std::string, int>, std::string> labels;
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i) || ranks[i].state != RankState::kBlocked) continue;
    for (const model::Thread& thread : job.snapshot(i).threads) {
      if (thread.state != "blocked") continue;
      std::optional<CollectiveCall> call = CollectiveOfThread(job, thread);
      if (!call) continue;
      const auto key = std::make_tuple(call->comm_id, call->call, call->root);
      waiting[key].push_back(job.world_rank(i));
      labels.emplace(key, job.CommLabel(i, call->comm_id, thread.comm_name));
    }
  }
  for (const auto& [key, all_waiters] : waiting) {
    const auto& [comm_id, call, root] = key;
    const CollectiveCall collective{comm_id, call, root};
    std::vector<int> waiters = all_waiters;
    const std::vector<int>* outsiders = collectives.Outsiders(collective);
    // A neighbourhood collective's waiters wait for their own neighbours only.
    std::vector<int> neighbors;
    if (NeighborOutsidersOf(job, collectives, collective, &waiters, &neighbors)) {
      outsiders = &neighbors;
    }
    if (outsiders == nullptr || waiters.empty()) continue;
    // Outsiders doing the same thing are named together.
    std::map<std::string, std::vector<int>> by_summary;
    for (int rank : *outsiders) {
      const RankReport& report = ranks[static_cast<std::size_t>(job.IndexOf(rank))];
      const bool stuck = report.state == RankState::kBlocked || report.state == RankState::kFinalized;
      // Members in another collective on this communicator make a mismatch hint instead.
      const bool other_collective = report.comm && *report.comm == comm_id &&
                                    report.call && ClassOfCall(*report.call) == CallClass::kColl;
      if (stuck && !other_collective) by_summary[report.summary].push_back(rank);
    }
    std::vector<int> sorted_waiters = waiters;
    std::sort(sorted_waiters.begin(), sorted_waiters.end());
    const std::string prefix =
        RanksPhrase(sorted_waiters) + (sorted_waiters.size() == 1 ? " waits in " : " wait in ") +
        CollectiveSummary(call, root >= 0 ? std::optional<int>(root) : std::nullopt, "") +
        " on " + labels[key] + " for ";
    for (const auto& [summary, absent] : by_summary) {
      const bool gone = summary == "finalized";
      hints->Add(prefix + RanksPhrase(absent) + ", which " +
                 (gone ? (absent.size() == 1 ? "has finalized" : "have finalized")
                       : (absent.size() == 1 ? "is in " : "are in ") + summary));
    }
  }
}

// Ranks whose recording was paused: what the analysis knows of them is less.
void PausedHints(const std::vector<RankReport>& ranks, HintList* hints) {
  for (const RankReport& r : ranks) {
    if (!r.recording_paused || r.rank < 0) continue;
    const char* state = "its state comes from its stack";
    if (r.paused_state == RankReport::PausedState::kRecords) {
      state = "its state comes from the records of a call recorded despite the pause";
    } else if (r.paused_state == RankReport::PausedState::kUnknown) {
      state = "its state is not known (its stack was not read)";
    }
    hints->Add("rank " + std::to_string(r.rank) +
               " paused mpidbg's recording (mpidbg_pause_recording): " + state +
               ", and requests it posted while paused are not known");
  }
}

}  // namespace

std::vector<UnmatchedMessage> FindUnmatched(const JobIndex& job, const MessageIndex& messages) {
  std::vector<UnmatchedMessage> out;
  for (const PostedSend& send : messages.sends()) {
    if (send.from < 0 || send.to < 0 || send.delivered) continue;
    const int receiver = job.IndexOf(send.to);
    if (receiver < 0) continue;
    if (job.snapshot(static_cast<std::size_t>(receiver)).process.state == "unreadable") continue;
    if (messages.HasReceiveFor(send.comm_id, send.to, send.from, send.op->tag)) continue;
    if (send.arrived && !send.from_counts) {
      // The sender may still hold the same message; then it is listed from there.
      bool held = false;
      for (std::size_t id : messages.SendsTo(send.comm_id, send.to)) {
        const PostedSend& other = messages.sends()[id];
        if (!other.arrived && other.from == send.from && other.op->tag == send.op->tag) held = true;
      }
      if (held) continue;
    }
    UnmatchedMessage m;
    m.from = send.from;
    m.to = send.to;
    m.comm = send.comm_id;
    m.comm_name = job.CommLabel(send.owner, send.comm_id, send.op->comm_name);
    m.tag = send.op->tag;
    m.bytes = send.op->bytes;
    m.call = send.op->call;
    m.arrived = send.arrived && !send.from_counts;
    m.from_counts = send.from_counts;
    m.ordinal = send.ordinal;
    out.push_back(std::move(m));
  }
  std::stable_sort(out.begin(), out.end(), [](const UnmatchedMessage& a, const UnmatchedMessage& b) {
    return std::tie(a.from, a.to) < std::tie(b.from, b.to);
  });
  return out;
}

std::vector<CollectiveMismatch> FindCollectiveMismatches(const JobIndex& job) {
  // comm -> (call, root) -> ranks; ordered so the output is stable.
  std::map<std::string, std::map<std::pair<std::string, int>, std::vector<int>>> by_comm;
  std::map<std::string, std::string> names;
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (!job.participates(i)) continue;
    for (const model::Thread& thread : job.snapshot(i).threads) {
      std::optional<CollectiveCall> call = CollectiveOfThread(job, thread);
      if (!call || call->comm_id == kFinalizeComm) continue;
      std::vector<int>& ranks = by_comm[call->comm_id][{call->call, call->root}];
      if (ranks.empty() || ranks.back() != job.world_rank(i)) ranks.push_back(job.world_rank(i));
      names.emplace(call->comm_id, job.CommLabel(i, call->comm_id, thread.comm_name));
    }
  }
  std::vector<CollectiveMismatch> out;
  for (auto& [comm_id, calls] : by_comm) {
    if (calls.size() < 2) continue;
    CollectiveMismatch m;
    m.comm = comm_id;
    m.comm_name = names[comm_id];
    for (auto& [call, ranks] : calls) {
      std::sort(ranks.begin(), ranks.end());
      ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
      std::optional<int> root;
      if (call.second >= 0) root = call.second;
      m.sides.push_back({ranks, call.first, root});
    }
    std::sort(m.sides.begin(), m.sides.end(),
              [](const CollectiveMismatch::Side& a, const CollectiveMismatch::Side& b) {
                return a.ranks.front() < b.ranks.front();
              });
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> MakeHints(const JobIndex& job, const MessageIndex& messages,
                                   CollectiveIndex& collectives,
                                   const std::vector<RankReport>& ranks,
                                   const std::vector<CollectiveMismatch>& mismatches) {
  HintList hints;
  for (const std::string& problem : job.problems()) hints.Add(problem);
  MismatchHints(mismatches, &hints);
  ReceiveHints(job, messages, ranks, &hints);
  PartitionHints(job, &hints);
  AbsentMemberHints(job, collectives, ranks, &hints);
  PausedHints(ranks, &hints);
  return hints.Take();
}

}  // namespace mpidbg::job
