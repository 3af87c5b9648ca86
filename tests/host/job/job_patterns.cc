// job_patterns.cc — the synthetic rank snapshots of job_patterns.h, built from the same
// envelopes as the analysis tests' hand-built jobs (job_builder.h).
#include "job_patterns.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "host/snapshot/snapshot_json.h"
#include "job_builder.h"

namespace mpidbg::scale {
namespace {

constexpr const char* kWorldId = "0x1";  // communicator id shared by every rank
constexpr const char* kWorldName = "MPI_COMM_WORLD";

// The job builder's envelope (job_builder.h), on WORLD, as a plugin resolves it.
model::Operation Envelope(const char* call, bool is_send, model::Rank peer, int tag) {
  model::Operation op = job::testing::Op(call, is_send, peer, job::testing::Tag(tag), kWorldId);
  op.peer_world = peer.is_rank() ? peer : model::Rank::Unknown();
  op.comm_name = kWorldName;
  return op;
}

// Rank blocked in a blocking point-to-point call on WORLD.
void BlockInP2p(model::Thread* t, model::Operation op, const char* mode) {
  op.blocking = true;
  op.tid = t->tid;
  if (op.is_send) op.mode = mode;
  t->state = "blocked";
  t->call = op.call;
  t->call_class = "p2p";
  t->seconds_in_call = 30.0;
  t->operation = std::move(op);
}

}  // namespace

const std::vector<std::string>& PatternNames() {
  static const std::vector<std::string> names = {"ring", "barrier-but-one", "any-source",
                                                 "waitany-any-source", "healthy"};
  return names;
}

model::RankList WorldOf(int size) {
  std::vector<int> ranks(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) ranks[static_cast<size_t>(r)] = r;
  return ranks;
}

model::ProcessSnapshot MakeRankSnapshot(const std::string& pattern, int rank, int size) {
  return MakeRankSnapshot(pattern, rank, size, WorldOf(size));
}

model::ProcessSnapshot MakeRankSnapshot(const std::string& pattern, int rank, int size,
                                        const model::RankList& world_ranks) {
  model::ProcessSnapshot s;
  s.process.pid = 100000 + rank;
  s.process.rank = rank;
  s.process.size = size;
  s.process.hostname = "node" + std::to_string(rank / 64);
  s.process.source = "live";
  s.process.mpi_library = "synthetic";
  s.process.thread_level = "MPI_THREAD_SINGLE";
  s.process.state = "running";

  model::Communicator world;
  world.id = kWorldId;
  world.name = kWorldName;
  world.handle = 0x44000000;
  world.size = size;
  world.rank = rank;
  world.world_ranks = world_ranks;
  world.predefined = true;
  world.unexpected.emplace();

  model::Thread t;
  t.tid = s.process.pid;
  t.mpi_calls = 1000;
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  if (pattern == "ring") {
    BlockInP2p(&t, Envelope("MPI_Ssend", true, model::Rank::Of(next), 7), "synchronous");
  } else if (pattern == "barrier-but-one") {
    if (rank == 0) {
      BlockInP2p(&t, Envelope("MPI_Recv", false, model::Rank::Of(1 % size), 7), "");
    } else {
      t.state = "blocked";
      t.call = "MPI_Barrier";
      t.call_class = "coll";
      t.comm_id = kWorldId;
      t.comm_name = kWorldName;
      t.seconds_in_call = 30.0;
    }
  } else if (pattern == "any-source") {
    BlockInP2p(&t, Envelope("MPI_Recv", false, model::Rank::AnySource(), 7), "");
  } else if (pattern == "waitany-any-source") {
    // MPI_Waitany over an ANY_SOURCE receive and a receive from the next rank: nobody
    // sends, every rank waits on any other.
    model::Operation any = Envelope("MPI_Irecv", false, model::Rank::AnySource(), 7);
    model::Operation from_next = Envelope("MPI_Irecv", false, model::Rank::Of(next), 8);
    any.request = 0x98000010u;
    from_next.request = 0x98000011u;
    t.state = "blocked";
    t.call = "MPI_Waitany";
    t.call_class = "wait";
    t.seconds_in_call = 30.0;
    t.waited = {any, from_next};
    world.pending_receives = {any, from_next};
  } else if (pattern == "healthy") {
    // Outside MPI with a matched pair in flight: an Isend to the next rank and an
    // Irecv from the previous one, which posted the matching Isend.
    model::Operation send = Envelope("MPI_Isend", true, model::Rank::Of(next), 3);
    send.mode = "standard";
    send.request = 0x98000000u;
    send.post_serial = 1;
    model::Operation recv = Envelope("MPI_Irecv", false, model::Rank::Of(prev), 3);
    recv.request = 0x98000001u;
    recv.post_serial = 2;
    world.pending_sends.push_back(send);
    world.pending_receives.push_back(recv);
  } else {
    throw std::invalid_argument("unknown pattern '" + pattern + "'");
  }
  s.threads.push_back(std::move(t));
  s.communicators.push_back(std::move(world));
  return s;
}

std::vector<model::ProcessSnapshot> MakeJob(const std::string& pattern, int size) {
  std::vector<model::ProcessSnapshot> job;
  job.reserve(static_cast<size_t>(size));
  const model::RankList world = WorldOf(size);
  for (int rank = 0; rank < size; ++rank) job.push_back(MakeRankSnapshot(pattern, rank, size, world));
  return job;
}

std::string WritePattern(const std::string& pattern, int size, const std::string& dir) {
  const model::RankList world = WorldOf(size);
  for (int rank = 0; rank < size; ++rank) {
    model::ProcessSnapshot snap;
    try {
      snap = MakeRankSnapshot(pattern, rank, size, world);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    char name[32];
    std::snprintf(name, sizeof name, "/rank-%06d.json", rank);
    std::ofstream out(dir + name);
    out << host::SnapshotToJson(snap).dump() << '\n';
    if (!out) return "cannot write " + dir + name;
  }
  return "";
}

}  // namespace mpidbg::scale
