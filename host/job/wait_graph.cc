#include "job/wait_graph.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include "job/call_info.h"
#include "job/summary.h"

namespace mpidbg::job {
namespace {

struct Clause {
  WaitKind kind = WaitKind::kAnd;
  std::vector<int> to;
  std::optional<RankSet> drawn;  // instead of `to`: a big group but one (rank_set.h)
};

// What one operation (or call) needs: every clause.
struct Needs {
  bool unknown = false;
  std::vector<Clause> clauses;  // empty: nothing, it completes
};

Needs Need(WaitKind kind, std::vector<int> to) {
  Needs needs;
  needs.clauses.push_back(Clause{kind, std::move(to), std::nullopt});
  return needs;
}

Needs Unknown() {
  Needs needs;
  needs.unknown = true;
  return needs;
}

class Builder {
 public:
  Builder(const JobIndex& job, const MessageIndex& messages, CollectiveIndex& collectives)
      : job_(job), messages_(messages), collectives_(collectives) {}

  WaitGraph Build(const std::vector<RankState>& states) {
    for (std::size_t i = 0; i < job_.size(); ++i) {
      if (!job_.participates(i) || states[i] != RankState::kBlocked) continue;
      const std::vector<model::Thread>& threads = job_.snapshot(i).threads;
      for (std::size_t t = 0; t < threads.size(); ++t) {
        if (threads[t].state == "blocked") AddThread(i, t);
      }
    }
    std::vector<int>& outside = graph_.outside_view;
    std::sort(outside.begin(), outside.end());
    outside.erase(std::unique(outside.begin(), outside.end()), outside.end());
    return std::move(graph_);
  }

 private:
  // The rank whose thread is being added waits (also) on ranks outside the view.
  void NoteOutsideView() { graph_.outside_view.push_back(job_.world_rank(current_)); }

  // Whether a communicator has members no snapshot holds (once per communicator).
  bool HasMembersOutsideView(const std::string& comm_id) {
    auto [it, fresh] = comm_outside_.try_emplace(comm_id, false);
    if (!fresh) return it->second;
    if (comm_id == kFinalizeComm) {
      // MPI_Finalize waits for the whole world, which may be larger than the job read.
      int size = 0;
      for (std::size_t i = 0; i < job_.size(); ++i) {
        size = std::max(size, job_.snapshot(i).process.size);
      }
      it->second = static_cast<std::size_t>(size) > job_.AllRanks().size();
      return it->second;
    }
    if (const CommMembers* comm = job_.Comm(comm_id)) {
      for (int member : comm->members) {
        if (job_.IndexOf(member) < 0) {
          it->second = true;
          break;
        }
      }
    }
    return it->second;
  }

  void AddThread(std::size_t i, std::size_t t) {
    current_ = i;
    const model::Thread& thread = job_.snapshot(i).threads[t];
    ThreadWaits waits;
    waits.rank_index = i;
    waits.thread_index = t;
    const std::string summary = ThreadCallSummary(job_, i, thread);
    switch (ClassOfThread(thread)) {
      case CallClass::kP2P:
        if (thread.operation) {
          Record(i, thread, OperationNeeds(i, *thread.operation), summary, &waits);
        } else {
          waits.unknown = true;
        }
        break;
      case CallClass::kWait:
        AddWait(i, thread, summary, &waits);
        break;
      case CallClass::kColl:
        Record(i, thread, CollectiveNeeds(i, CollectiveOfThread(job_, thread)), summary, &waits);
        break;
      case CallClass::kOther:
      case CallClass::kUnknown:
        waits.unknown = true;
        break;
    }
    graph_.threads.push_back(std::move(waits));
  }

  void AddWait(std::size_t i, const model::Thread& thread, const std::string& summary,
               ThreadWaits* waits) {
    if (thread.waited.empty()) {
      waits->unknown = true;  // nothing decoded: it may be waiting for anything
      return;
    }
    const std::string call = thread.call.value_or("MPI_Wait");
    if (CompletesOnAny(call)) {
      // Done when any request is: one OR over everything the requests need. An
      // undecoded request might be the one that completes.
      if (thread.waited_unknown > 0) {
        waits->unknown = true;
        return;
      }
      std::vector<Clause> clauses;
      for (const model::Operation& op : thread.waited) {
        Needs needs = OperationNeeds(i, op);
        if (needs.unknown) {
          waits->unknown = true;
          return;
        }
        if (needs.clauses.empty()) return;  // this request completes: so does the call
        for (Clause& clause : needs.clauses) clauses.push_back(std::move(clause));
      }
      // A receive from a big group stays drawn on it rather than listed, also when the
      // other requests need only ranks of that set (a Waitany over an ANY_SOURCE
      // receive and sends to members): the OR over the set covers theirs.
      if (std::optional<std::size_t> k = CoveringDrawnClause(clauses)) {
        Needs needs;
        needs.clauses.push_back(std::move(clauses[*k]));
        Record(i, thread, std::move(needs), summary, waits);
        return;
      }
      // Over-approximates what a request needing several ranks needs: never a false
      // deadlock, at worst a missed one.
      std::vector<int> any;
      for (const Clause& clause : clauses) {
        if (clause.drawn) {
          any.insert(any.end(), clause.drawn->begin(), clause.drawn->end());
        } else {
          any.insert(any.end(), clause.to.begin(), clause.to.end());
        }
      }
      Record(i, thread, Need(WaitKind::kOr, std::move(any)), summary, waits);
      return;
    }
    // MPI_Wait, MPI_Waitall, MPI_Test, MPI_Testall: every request.
    std::vector<Needs> all;
    for (const model::Operation& op : thread.waited) {
      all.push_back(OperationNeeds(i, op));
      if (all.back().unknown) {
        waits->unknown = true;
        return;
      }
    }
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (all[k].clauses.empty()) continue;
      Record(i, thread, std::move(all[k]),
             call + ": " + OperationSummary(job_, i, thread.waited[k]), waits);
    }
  }

  // The drawn clause among `clauses` whose set holds every rank the others name; none
  // when there is no drawn clause or some rank lies outside it.
  static std::optional<std::size_t> CoveringDrawnClause(const std::vector<Clause>& clauses) {
    std::optional<std::size_t> drawn;
    for (std::size_t k = 0; k < clauses.size(); ++k) {
      if (clauses[k].drawn && !drawn) drawn = k;
    }
    if (!drawn) return std::nullopt;
    const RankSet& set = *clauses[*drawn].drawn;
    for (std::size_t k = 0; k < clauses.size(); ++k) {
      if (k == *drawn) continue;
      if (clauses[k].drawn) {
        // Another group's set: covered only if it is the same group and leaves out the
        // same rank.
        const RankSet& other = *clauses[k].drawn;
        if (other.shared() != set.shared() || other.excluded() != set.excluded()) return std::nullopt;
        continue;
      }
      for (int r : clauses[k].to) {
        if (!Contains(set, r)) return std::nullopt;
      }
    }
    return drawn;
  }

  static bool Contains(const RankSet& set, int rank) {
    std::size_t lo = 0, hi = set.size();
    while (lo < hi) {
      std::size_t mid = lo + (hi - lo) / 2;
      if (set[mid] < rank) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < set.size() && set[lo] == rank;
  }

  void Record(std::size_t i, const model::Thread& thread, Needs needs,
              const std::string& reason, ThreadWaits* waits) {
    if (needs.unknown) {
      waits->unknown = true;
      return;
    }
    for (Clause& clause : needs.clauses) {
      RankSet to;
      if (clause.drawn) {
        to = std::move(*clause.drawn);  // sorted already
      } else {
        std::vector<int>& listed = clause.to;
        if (!std::is_sorted(listed.begin(), listed.end())) std::sort(listed.begin(), listed.end());
        listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
        to = std::move(listed);
      }
      if (clause.kind == WaitKind::kAnd && to.empty()) continue;  // needs nobody
      WaitRequirement requirement;
      requirement.from = job_.world_rank(i);
      requirement.tid = thread.tid;
      // One rank is one rank, however it was asked for.
      requirement.kind = to.size() == 1 ? WaitKind::kAnd : clause.kind;
      requirement.to = std::move(to);
      requirement.reason = reason;
      waits->requirements.push_back(graph_.requirements.size());
      graph_.requirements.push_back(std::move(requirement));
    }
  }

  Needs CollectiveNeeds(std::size_t i, const std::optional<CollectiveCall>& call) {
    if (!call) return Unknown();
    // A neighbourhood collective waits for the rank's topology neighbours only.
    bool neighbors_outside = false;
    if (auto neighbors = collectives_.NeighborOutsiders(i, *call, &neighbors_outside)) {
      if (neighbors_outside) NoteOutsideView();
      if (neighbors->empty()) return {};
      return Need(WaitKind::kAnd, *neighbors);
    }
    const std::vector<int>* outsiders = collectives_.Outsiders(*call);
    if (outsiders == nullptr) return Unknown();
    if (HasMembersOutsideView(call->comm_id)) NoteOutsideView();
    if (outsiders->empty()) return {};
    return Need(WaitKind::kAnd, *outsiders);
  }

  Needs OperationNeeds(std::size_t i, const model::Operation& op) {
    if (op.status != "pending") return {};  // matched or complete: it will finish
    if (ClassOfCall(op.call) == CallClass::kColl) {
      return CollectiveNeeds(i, CollectiveOfOperation(op, op.comm_id));
    }
    if (op.comm_id.empty()) return Unknown();
    if (op.peer.kind == model::Rank::Kind::kProcNull) return {};
    return op.is_send ? SendNeeds(i, op) : ReceiveNeeds(i, op);
  }

  Needs SendNeeds(std::size_t i, const model::Operation& op) {
    // A buffered nonblocking send completes locally.
    if (!op.blocking && op.mode && *op.mode == "buffered") return {};
    // A partitioned send completes only once all its partitions are marked ready, which
    // only this rank can do: while it waits, nobody will.
    if (!AllPartitionsReady(op)) return Need(WaitKind::kAnd, {job_.world_rank(i)});
    const std::optional<int> dest = job_.PeerWorld(i, op);
    if (!dest) return Unknown();
    if (job_.IndexOf(*dest) < 0) {  // not in our view: cannot prove anything
      NoteOutsideView();
      return {};
    }
    if (messages_.HasReceiveFor(op.comm_id, *dest, job_.world_rank(i), op.tag)) return {};
    return Need(WaitKind::kAnd, {*dest});
  }

  Needs ReceiveNeeds(std::size_t i, const model::Operation& op) {
    const int self = job_.world_rank(i);
    if (op.peer.kind == model::Rank::Kind::kAnySource) {
      if (messages_.HasSendFor(op.comm_id, kAnyRank, self, op.tag)) return {};
      const model::RankList* list = job_.SourceGroup(i, op.comm_id);
      if (list == nullptr) return Unknown();
      const Group& group = GroupOf(*list);
      if (!group.all_in_view) {  // a rank outside our view may send
        NoteOutsideView();
        return {};
      }
      RankSet sources = RankSet::AllBut(group.ranks, self);
      Needs needs;
      if (sources.size() > kMaxEdgesPerWait) {
        needs.clauses.push_back(Clause{WaitKind::kOr, {}, std::move(sources)});
      } else {
        needs.clauses.push_back(Clause{WaitKind::kOr, {sources.begin(), sources.end()}, {}});
      }
      return needs;
    }
    const std::optional<int> source = job_.PeerWorld(i, op);
    if (!source) return Unknown();
    if (job_.IndexOf(*source) < 0) {
      NoteOutsideView();
      return {};
    }
    if (messages_.HasSendFor(op.comm_id, *source, self, op.tag)) return {};
    return Need(WaitKind::kAnd, {*source});
  }

  // A source group, sorted once however many of its members wait on it.
  struct Group {
    std::shared_ptr<const SharedRanks> ranks;
    bool all_in_view = true;  // every member is a rank of the job
  };

  const Group& GroupOf(const model::RankList& list) {
    auto [it, fresh] = groups_.try_emplace(&list.ranks());
    if (fresh) {
      it->second.ranks = std::make_shared<const SharedRanks>(list.ranks());
      for (int r : it->second.ranks->ranks) {
        if (job_.IndexOf(r) < 0) it->second.all_in_view = false;
      }
    }
    return it->second;
  }

  const JobIndex& job_;
  const MessageIndex& messages_;
  CollectiveIndex& collectives_;
  WaitGraph graph_;
  std::unordered_map<const std::vector<int>*, Group> groups_;  // by the list's storage
  std::unordered_map<std::string, bool> comm_outside_;         // HasMembersOutsideView
  std::size_t current_ = 0;                                    // snapshot of AddThread
};

}  // namespace

WaitGraph BuildWaitGraph(const JobIndex& job, const MessageIndex& messages,
                         CollectiveIndex& collectives, const std::vector<RankState>& states) {
  return Builder(job, messages, collectives).Build(states);
}

}  // namespace mpidbg::job
