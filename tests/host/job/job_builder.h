// job_builder.h — hand-built jobs for the analysis tests: N ranks that share
// MPI_COMM_WORLD (id "w"), each with one thread, not in MPI until a test says otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/snapshot.h"

namespace mpidbg::job::testing {

inline constexpr const char* kWorld = "w";

// An operation on `comm_id`; `peer` is the rank in that communicator.
inline model::Operation Op(std::string call, bool is_send, model::Rank peer, model::Tag tag,
                           std::string comm_id = kWorld) {
  model::Operation op;
  op.call = std::move(call);
  op.is_send = is_send;
  op.peer = peer;
  op.tag = tag;
  op.comm_id = std::move(comm_id);
  op.count = 1;
  op.datatype = "MPI_INT";
  op.bytes = 4;
  return op;
}

inline model::Tag Tag(int value) { return model::Tag{false, value}; }
inline model::Tag AnyTag() { return model::Tag{true, 0}; }
inline model::Rank R(int rank) { return model::Rank::Of(rank); }

class JobBuilder {
 public:
  explicit JobBuilder(int size) {
    std::vector<int> world;
    for (int r = 0; r < size; ++r) world.push_back(r);
    for (int r = 0; r < size; ++r) {
      model::ProcessSnapshot s;
      s.process.pid = 1000 + r;
      s.process.rank = r;
      s.process.size = size;
      s.process.state = "running";
      model::Thread thread;
      thread.tid = 1000 + r;
      s.threads.push_back(thread);
      snapshots_.push_back(std::move(s));
    }
    AddComm(kWorld, "MPI_COMM_WORLD", world);
  }

  model::ProcessSnapshot& Rank(int r) { return snapshots_.at(static_cast<std::size_t>(r)); }
  model::Thread& Thread(int r) { return Rank(r).threads.at(0); }

  // A communicator over `world_ranks` (comm rank k is world_ranks[k]).
  JobBuilder& AddComm(const std::string& id, const std::string& name,
                      const std::vector<int>& world_ranks) {
    const model::RankList members = world_ranks;  // one list, shared as readers share it
    for (std::size_t k = 0; k < world_ranks.size(); ++k) {
      model::Communicator c;
      c.id = id;
      c.name = name;
      c.size = static_cast<int>(world_ranks.size());
      c.rank = static_cast<int>(k);
      c.world_ranks = members;
      Rank(world_ranks[k]).communicators.push_back(std::move(c));
    }
    return *this;
  }

  // An intercommunicator between two groups (each side's comm ranks index its own group).
  JobBuilder& AddInterComm(const std::string& id, const std::string& name,
                           const std::vector<int>& left, const std::vector<int>& right) {
    for (const auto& [local, remote] : {std::make_pair(left, right), std::make_pair(right, left)}) {
      for (std::size_t k = 0; k < local.size(); ++k) {
        model::Communicator c;
        c.id = id;
        c.name = name;
        c.kind = "inter";
        c.size = static_cast<int>(local.size());
        c.rank = static_cast<int>(k);
        c.world_ranks = local;
        c.remote_world_ranks = remote;
        Rank(local[k]).communicators.push_back(std::move(c));
      }
    }
    return *this;
  }

  model::Communicator& Comm(int r, const std::string& id) {
    for (model::Communicator& c : Rank(r).communicators) {
      if (c.id == id) return c;
    }
    throw std::runtime_error("rank " + std::to_string(r) + " is not in " + id);
  }

  // Fills peer_world and comm_name the way a plugin would.
  model::Operation Resolve(int r, model::Operation op) {
    const model::Communicator& c = Comm(r, op.comm_id);
    op.comm_name = c.name;
    const std::vector<int>& group =
        c.kind == "inter" ? c.remote_world_ranks->ranks() : c.world_ranks.ranks();
    if (op.peer.is_rank()) op.peer_world = R(group.at(static_cast<std::size_t>(op.peer.value)));
    return op;
  }

  // Rank r's thread blocked in a blocking point-to-point call.
  JobBuilder& Blocked(int r, model::Operation op, std::string mode = "standard") {
    op = Resolve(r, std::move(op));
    op.blocking = true;
    if (op.is_send) op.mode = std::move(mode);
    model::Thread& t = Thread(r);
    t.state = "blocked";
    t.call = op.call;
    t.call_class = "p2p";
    t.operation = op;
    return *this;
  }
  JobBuilder& Recv(int r, model::Rank source, model::Tag tag, std::string comm = kWorld) {
    return Blocked(r, Op("MPI_Recv", false, source, tag, std::move(comm)));
  }
  JobBuilder& Send(int r, int dest, int tag, std::string comm = kWorld,
                   std::string call = "MPI_Send") {
    const bool sync = call == "MPI_Ssend";
    return Blocked(r, Op(std::move(call), true, R(dest), Tag(tag), std::move(comm)),
                   sync ? "synchronous" : "standard");
  }

  JobBuilder& Collective(int r, const std::string& call, std::string comm = kWorld,
                         std::optional<int> root = std::nullopt) {
    model::Thread& t = Thread(r);
    t.state = "blocked";
    t.call = call;
    t.call_class = "coll";
    t.comm_name = call == "MPI_Finalize" ? "" : Comm(r, comm).name;
    t.comm_id = call == "MPI_Finalize" ? "" : std::move(comm);
    t.root = root;
    return *this;
  }

  // Rank r's thread blocked in a Wait-class call on these operations.
  JobBuilder& Wait(int r, const std::string& call, std::vector<model::Operation> ops) {
    model::Thread& t = Thread(r);
    t.state = "blocked";
    t.call = call;
    t.call_class = "wait";
    uint64_t request = 0x9000;
    for (model::Operation& op : ops) {
      op = Resolve(r, std::move(op));
      op.request = request++;
      t.waited.push_back(op);
      auto& list = op.is_send ? Comm(r, op.comm_id).pending_sends : Comm(r, op.comm_id).pending_receives;
      list.push_back(op);
    }
    return *this;
  }

  JobBuilder& PendingSend(int r, model::Operation op) {
    op = Resolve(r, std::move(op));
    op.request = 0x7000 + Comm(r, op.comm_id).pending_sends.size();
    Comm(r, op.comm_id).pending_sends.push_back(op);
    return *this;
  }
  JobBuilder& PendingRecv(int r, model::Operation op) {
    op = Resolve(r, std::move(op));
    op.request = 0x8000 + Comm(r, op.comm_id).pending_receives.size();
    Comm(r, op.comm_id).pending_receives.push_back(op);
    return *this;
  }
  JobBuilder& Unexpected(int r, model::Operation op) {
    op = Resolve(r, std::move(op));
    model::Communicator& c = Comm(r, op.comm_id);
    if (!c.unexpected) c.unexpected.emplace();
    c.unexpected->push_back(op);
    return *this;
  }

  JobBuilder& InMpi(int r, const std::string& call) {
    Thread(r).state = "in_mpi";
    Thread(r).call = call;
    return *this;
  }
  JobBuilder& Finalized(int r) {
    Rank(r).process.state = "finalized";
    return *this;
  }
  // `error`, `error_kind`: why, as the host records it ("" and 0: not known).
  JobBuilder& Unreadable(int r, const std::string& error = "", int error_kind = 0) {
    Rank(r).process.state = "unreadable";
    Rank(r).process.error = error;
    Rank(r).process.error_kind = error_kind;
    Rank(r).threads.clear();
    Rank(r).communicators.clear();
    return *this;
  }

  const std::vector<model::ProcessSnapshot>& snapshots() const { return snapshots_; }

 private:
  std::vector<model::ProcessSnapshot> snapshots_;
};

}  // namespace mpidbg::job::testing
