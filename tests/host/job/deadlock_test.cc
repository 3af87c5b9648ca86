// Deadlock detection: AND cycles, OR knots, collectives, matching counterparts and the
// cases that must not be reported.
#include <algorithm>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"
#include "report_queries.h"

namespace mpidbg::job {
namespace {

using testing::AnyTag;
using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;
using testing::Ranks;
using testing::FindWait;

// The witness must really be a cycle of requirement edges among deadlocked ranks.
void ExpectValidCycle(const JobReport& report) {
  const std::vector<int>& cycle = report.deadlock.cycle;
  ASSERT_FALSE(cycle.empty());
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    const int from = cycle[k];
    const int to = cycle[(k + 1) % cycle.size()];
    EXPECT_TRUE(std::binary_search(report.deadlock.ranks.begin(), report.deadlock.ranks.end(), from));
    bool edge = false;
    for (const WaitRequirement& w : report.deadlock.waits) {
      if (w.from == from && std::find(w.to.begin(), w.to.end(), to) != w.to.end()) edge = true;
    }
    EXPECT_TRUE(edge) << "no edge " << from << " -> " << to;
  }
}

TEST(Deadlock, SynchronousSendRingIsAnAndCycle) {
  JobBuilder job(4);
  for (int r = 0; r < 4; ++r) job.Send(r, (r + 1) % 4, 0, testing::kWorld, "MPI_Ssend");
  const JobReport report = Analyze(job.snapshots());

  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2, 3}));
  EXPECT_EQ(report.deadlock.cycle, Ranks({0, 1, 2, 3}));
  ExpectValidCycle(report);
  ASSERT_EQ(report.deadlock.waits.size(), 4u);
  for (const WaitRequirement& w : report.deadlock.waits) {
    EXPECT_EQ(w.kind, WaitKind::kAnd);
    EXPECT_EQ(w.to, Ranks({(w.from + 1) % 4}));
    EXPECT_FALSE(w.satisfied);
  }
  EXPECT_EQ(FindWait(report, 0)->reason, "MPI_Ssend(dest=1, tag=0, comm=MPI_COMM_WORLD)");
  ASSERT_EQ(report.groups.size(), 4u);  // every rank sends somewhere else
  EXPECT_EQ(report.ranks[2].state, RankState::kBlocked);
}

TEST(Deadlock, ReceiveNeverSentWhileSenderWentToBarrier) {
  JobBuilder job(4);
  job.Recv(0, R(1), Tag(7));
  for (int r = 1; r < 4; ++r) job.Collective(r, "MPI_Barrier");
  const JobReport report = Analyze(job.snapshots());

  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2, 3}));
  ExpectValidCycle(report);
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({1}));
  for (int r = 1; r < 4; ++r) {
    const WaitRequirement* w = FindWait(report, r);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->to, Ranks({0})) << "rank " << r << " waits only for the absent member";
    EXPECT_EQ(w->reason, "MPI_Barrier(comm=MPI_COMM_WORLD)");
  }
  EXPECT_EQ(report.deadlock.waits.size(), 4u);
}

TEST(Deadlock, WholeCommunicatorInOneCollectiveCompletes) {
  JobBuilder job(4);
  for (int r = 0; r < 4; ++r) job.Collective(r, "MPI_Bcast", testing::kWorld, 2);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.deadlock.waits.empty());
  ASSERT_EQ(report.groups.size(), 1u);
  EXPECT_EQ(report.groups[0].summary, "MPI_Bcast(root=2, comm=MPI_COMM_WORLD)");
}

TEST(Deadlock, DifferentRootsDoNotMatch) {
  JobBuilder job(2);
  job.Collective(0, "MPI_Bcast", testing::kWorld, 0).Collective(1, "MPI_Bcast", testing::kWorld, 1);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1}));
}

TEST(Deadlock, AnySourceWhileOthersFinalize) {
  JobBuilder job(4);
  job.Recv(0, model::Rank::AnySource(), Tag(5));
  job.Finalized(1).Finalized(2).Collective(3, "MPI_Finalize");
  const JobReport report = Analyze(job.snapshots());

  // Rank 3 would leave MPI_Finalize only when rank 0 joins, and sends nothing anyway.
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 3}));
  const WaitRequirement* w = FindWait(report, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->kind, WaitKind::kOr);
  EXPECT_EQ(w->to, Ranks({1, 2, 3}));
  EXPECT_EQ(w->reason, "MPI_Recv(source=ANY_SOURCE, tag=5, comm=MPI_COMM_WORLD)");
  EXPECT_EQ(report.ranks[1].state, RankState::kFinalized);
  EXPECT_EQ(report.ranks[1].summary, "finalized");
}

// Past kMaxEdgesPerWait the waits draw on the communicator's group: one member that
// can proceed meets every other member's wait.
TEST(Deadlock, AnySourceOnABigCommunicatorIsMetByOneMemberInMpi) {
  const int n = 100;
  JobBuilder job(n);
  for (int r = 0; r < n; ++r) {
    if (r != 42) job.Recv(r, model::Rank::AnySource(), Tag(1));
  }
  job.InMpi(42, "MPI_Iprobe");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  ASSERT_EQ(report.deadlock.waits.size(), static_cast<std::size_t>(n - 1));
  for (const WaitRequirement& w : report.deadlock.waits) {
    EXPECT_TRUE(w.satisfied) << w.from;
    EXPECT_EQ(w.to.size(), static_cast<std::size_t>(n - 1));
    EXPECT_EQ(std::find(w.to.begin(), w.to.end(), w.from), w.to.end());
  }
}

TEST(Deadlock, AnySourceOnABigCommunicatorWithOneMemberFinalized) {
  const int n = 100;
  JobBuilder job(n);
  for (int r = 0; r < n; ++r) {
    if (r != 42) job.Recv(r, model::Rank::AnySource(), Tag(1));
  }
  job.Finalized(42);
  const JobReport report = Analyze(job.snapshots());
  ASSERT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks.size(), static_cast<std::size_t>(n - 1));
  ExpectValidCycle(report);
  const WaitRequirement* w = FindWait(report, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(w->satisfied);
  EXPECT_EQ(w->kind, WaitKind::kOr);
  EXPECT_EQ(w->to.front(), 1);
  EXPECT_EQ(w->to.size(), static_cast<std::size_t>(n - 1));
}

// A Waitany over an ANY_SOURCE receive on a big communicator and a receive from one
// member stays one wait drawn on the group (never every member listed), and still
// finds the deadlock.
TEST(Deadlock, WaitanyOverAnySourceAndAMemberStaysDrawnOnTheGroup) {
  const int n = 100;
  JobBuilder job(n);
  for (int r = 0; r < n; ++r) {
    if (r == 42) continue;
    job.Wait(r, "MPI_Waitany", {Op("MPI_Irecv", false, model::Rank::AnySource(), Tag(1)),
                                Op("MPI_Irecv", false, R((r + 1) % n), Tag(2))});
  }
  job.Finalized(42);
  const JobReport report = Analyze(job.snapshots());
  ASSERT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks.size(), static_cast<std::size_t>(n - 1));
  const WaitRequirement* w = FindWait(report, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->kind, WaitKind::kOr);
  EXPECT_NE(w->to.shared(), nullptr) << "the wait lists its ranks instead of drawing on the group";
  EXPECT_EQ(w->to.size(), static_cast<std::size_t>(n - 1));
}

TEST(Deadlock, AnySourceWhileEveryoneFinalized) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), AnyTag()).Finalized(1).Finalized(2);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0}));
  EXPECT_TRUE(report.deadlock.cycle.empty());
}

TEST(Deadlock, AnySourceWhileOthersSitInBarrier) {
  JobBuilder job(4);
  job.Recv(0, model::Rank::AnySource(), Tag(5));
  for (int r = 1; r < 4; ++r) job.Collective(r, "MPI_Barrier");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2, 3}));
  ExpectValidCycle(report);
}

TEST(Deadlock, OrKnotWithoutAnAndCycle) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), Tag(1));
  job.Recv(1, model::Rank::AnySource(), Tag(1));
  job.Recv(2, R(1), Tag(1));
  const JobReport report = Analyze(job.snapshots());

  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2}));
  ExpectValidCycle(report);
  EXPECT_EQ(FindWait(report, 0)->kind, WaitKind::kOr);
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({1, 2}));
  EXPECT_EQ(FindWait(report, 2)->kind, WaitKind::kAnd);
  EXPECT_EQ(report.deadlock.EdgeCount(), 5u);
}

TEST(Deadlock, OrIsSatisfiedByOneRankOutsideMpi) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), Tag(1));
  job.Recv(1, model::Rank::AnySource(), Tag(1));
  // rank 2 computes: it may still send to either.
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.deadlock.ranks.empty());
  EXPECT_TRUE(report.deadlock.cycle.empty());
  for (const WaitRequirement& w : report.deadlock.waits) EXPECT_TRUE(w.satisfied);
}

TEST(Deadlock, CycleInsideSplitCommunicator) {
  JobBuilder job(4);
  job.AddComm("c1", "odds", {1, 3});
  job.Send(1, 1, 0, "c1", "MPI_Ssend");  // comm rank 1 is world rank 3
  job.Send(3, 0, 0, "c1", "MPI_Ssend");
  const JobReport report = Analyze(job.snapshots());

  EXPECT_EQ(report.deadlock.ranks, Ranks({1, 3}));
  EXPECT_EQ(report.deadlock.cycle, Ranks({1, 3}));
  EXPECT_EQ(FindWait(report, 1)->to, Ranks({3}));
  EXPECT_EQ(FindWait(report, 1)->reason, "MPI_Ssend(dest=1, tag=0, comm=odds)");
  EXPECT_EQ(FindWait(report, 3)->reason, "MPI_Ssend(dest=0, tag=0, comm=odds)");
  EXPECT_EQ(report.ranks[0].state, RankState::kNotInMpi);
  EXPECT_EQ(report.ranks[1].comm_name, "odds");
  EXPECT_EQ(report.ranks[1].comm, "c1");
}

TEST(Deadlock, PeerWorldRankRecoveredFromCommunicator) {
  JobBuilder job(4);
  job.AddComm("c1", "odds", {1, 3});
  job.Send(1, 1, 0, "c1", "MPI_Ssend").Send(3, 0, 0, "c1", "MPI_Ssend");
  job.Thread(1).operation->peer_world = model::Rank::Unknown();
  job.Thread(3).operation->peer_world = model::Rank::Unknown();
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({1, 3}));
}

TEST(Deadlock, PendingTrafficOutsideMpiIsNoDeadlock) {
  JobBuilder job(2);
  job.PendingSend(0, Op("MPI_Isend", true, R(1), Tag(3)));
  job.PendingRecv(1, Op("MPI_Irecv", false, R(0), Tag(4)));
  job.PendingRecv(0, Op("MPI_Irecv", false, model::Rank::AnySource(), Tag(8)));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.deadlock.ranks.empty());
  EXPECT_TRUE(report.deadlock.waits.empty());
}

TEST(Deadlock, MatchingBlockingSendAndReceive) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5)).Send(1, 0, 5);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.deadlock.waits.empty());
  EXPECT_TRUE(report.unmatched.empty());
}

TEST(Deadlock, AnyTagReceiveMatchesSend) {
  JobBuilder job(2);
  job.Recv(0, model::Rank::AnySource(), AnyTag()).Send(1, 0, 42, testing::kWorld, "MPI_Ssend");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, PendingIsendSatisfiesReceive) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5));
  job.PendingSend(1, Op("MPI_Isend", true, R(0), Tag(5)));
  job.Recv(1, R(0), Tag(6));  // rank 0 will get its message and may then send this
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, PostedIrecvSatisfiesBlockingSend) {
  JobBuilder job(2);
  job.Send(0, 1, 5, testing::kWorld, "MPI_Ssend");
  job.PendingRecv(1, Op("MPI_Irecv", false, R(0), Tag(5)));
  job.Collective(1, "MPI_Barrier");  // waits for rank 0, which can finish its send
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, SendrecvRingCaughtMidExchangeIsNoDeadlock) {
  // Only the receive half of MPI_Sendrecv is recorded; its send half may be the match.
  JobBuilder job(4);
  for (int r = 0; r < 4; ++r) {
    job.Blocked(r, Op("MPI_Sendrecv", false, R((r + 3) % 4), Tag(1)));
  }
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.unmatched.empty());
}

// The runtime records MPI_Sendrecv's send half as a blocking send of the same thread.
JobBuilder SendrecvRing(int send_tag, int receive_tag) {
  JobBuilder job(4);
  for (int r = 0; r < 4; ++r) {
    job.Blocked(r, Op("MPI_Sendrecv", false, R((r + 3) % 4), Tag(receive_tag)));
    model::Operation send = Op("MPI_Sendrecv", true, R((r + 1) % 4), Tag(send_tag));
    send.blocking = true;
    send.tid = job.Thread(r).tid;
    send.request.reset();
    job.Comm(r, testing::kWorld).pending_sends.push_back(send);
  }
  return job;
}

TEST(Deadlock, SendrecvRingWithRecordedSendHalvesThatMatchIsNoDeadlock) {
  JobBuilder job = SendrecvRing(1, 1);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, SendrecvRingWithMismatchedTagsIsDeadlock) {
  JobBuilder job = SendrecvRing(1, 2);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, (std::vector<int>{0, 1, 2, 3}));
}

TEST(Deadlock, ArrivedMessageSatisfiesReceive) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5));
  job.Unexpected(0, Op("MPI_Send", true, R(1), Tag(5)));
  job.Collective(1, "MPI_Barrier");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, ProcNullReceiveNeedsNobody) {
  JobBuilder job(2);
  job.Recv(0, model::Rank::ProcNull(), Tag(5)).Recv(1, R(0), Tag(5));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, UnreadableRankMayProceed) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5)).Unreadable(1);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_EQ(report.ranks[1].state, RankState::kUnreadable);
}

TEST(Deadlock, RankMissingFromInputMayProceed) {
  JobBuilder job(3);
  job.Recv(0, R(2), Tag(5)).Recv(1, R(0), Tag(5));
  std::vector<model::ProcessSnapshot> two(job.snapshots().begin(), job.snapshots().begin() + 2);
  const JobReport report = Analyze(two);
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, UnknownCallClassNeverReported) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5));
  job.Thread(1).state = "blocked";
  job.Thread(1).call = "MPI_Comm_free";
  job.Thread(1).call_class = "other";
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, ThreadOutsideMpiKeepsRankAlive) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5)).Recv(1, R(0), Tag(5));
  model::Thread worker;
  worker.tid = 77;
  job.Rank(1).threads.push_back(worker);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_EQ(report.ranks[1].state, RankState::kInMpi);
}

TEST(Deadlock, LibraryThreadsOutsideMpiDoNotCountUnderThreadSingle) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5)).Recv(1, R(0), Tag(5));
  for (int r = 0; r < 2; ++r) {
    model::ProcessSnapshot& rank = job.Rank(r);
    rank.process.thread_level = "MPI_THREAD_SINGLE";
    rank.process.pid = rank.threads[0].tid;  // the blocked thread is the main thread
    model::Thread progress;
    progress.tid = rank.process.pid + 5;
    rank.threads.push_back(progress);
  }
  const JobReport single = Analyze(job.snapshots());
  EXPECT_EQ(single.deadlock.ranks, Ranks({0, 1}));
  EXPECT_EQ(single.ranks[0].state, RankState::kBlocked);

  // Under MPI_THREAD_MULTIPLE that thread might still send.
  for (int r = 0; r < 2; ++r) job.Rank(r).process.thread_level = "MPI_THREAD_MULTIPLE";
  const JobReport multiple = Analyze(job.snapshots());
  EXPECT_FALSE(multiple.deadlock.detected);
  EXPECT_EQ(multiple.ranks[0].state, RankState::kInMpi);
}

TEST(Deadlock, WaitallRingOfReceives) {
  JobBuilder job(3);
  for (int r = 0; r < 3; ++r) {
    job.Wait(r, "MPI_Waitall", {Op("MPI_Irecv", false, R((r + 2) % 3), Tag(1)),
                                Op("MPI_Irecv", false, R((r + 1) % 3), Tag(2))});
  }
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2}));
  const WaitRequirement* w = FindWait(report, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->reason, "MPI_Waitall: MPI_Irecv(source=2, tag=1, comm=MPI_COMM_WORLD)");
  EXPECT_EQ(report.ranks[0].summary,
            "MPI_Waitall(2 requests: MPI_Irecv(source=2, tag=1, comm=MPI_COMM_WORLD), "
            "MPI_Irecv(source=1, tag=2, comm=MPI_COMM_WORLD))");
}

TEST(Deadlock, WaitallExchangeCompletes) {
  JobBuilder job(2);
  for (int r = 0; r < 2; ++r) {
    job.Wait(r, "MPI_Waitall", {Op("MPI_Irecv", false, R(1 - r), Tag(1)),
                                Op("MPI_Isend", true, R(1 - r), Tag(1))});
  }
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Deadlock, WaitanyNeedsOnlyOneSender) {
  JobBuilder job(3);
  job.Wait(0, "MPI_Waitany", {Op("MPI_Irecv", false, R(1), Tag(1)), Op("MPI_Irecv", false, R(2), Tag(1))});
  job.Recv(1, R(0), Tag(9));
  const JobReport with_free_rank = Analyze(job.snapshots());  // rank 2 computes
  EXPECT_FALSE(with_free_rank.deadlock.detected);
  ASSERT_NE(FindWait(with_free_rank, 0), nullptr);
  EXPECT_EQ(FindWait(with_free_rank, 0)->kind, WaitKind::kOr);

  job.Recv(2, R(0), Tag(9));
  const JobReport all_stuck = Analyze(job.snapshots());
  EXPECT_EQ(all_stuck.deadlock.ranks, Ranks({0, 1, 2}));
}

TEST(Deadlock, UndecodedRequestsCannotProveAnything) {
  JobBuilder job(2);
  job.Thread(0).state = "blocked";
  job.Thread(0).call = "MPI_Wait";
  job.Thread(0).call_class = "wait";
  job.Thread(0).waited_unknown = 1;
  job.Recv(1, R(0), Tag(3));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_EQ(report.ranks[0].summary, "MPI_Wait(1 request, not decoded)");
}

TEST(Deadlock, NonblockingBarrierWaitsForAbsentMember) {
  JobBuilder job(3);
  job.Wait(0, "MPI_Wait", {Op("MPI_Ibarrier", false, model::Rank::Unknown(), Tag(0))});
  job.Wait(1, "MPI_Wait", {Op("MPI_Ibarrier", false, model::Rank::Unknown(), Tag(0))});
  job.Recv(2, R(0), Tag(3));
  const JobReport stuck = Analyze(job.snapshots());
  EXPECT_EQ(stuck.deadlock.ranks, Ranks({0, 1, 2}));

  job.Wait(2, "MPI_Wait", {Op("MPI_Ibarrier", false, model::Rank::Unknown(), Tag(0))});
  job.Thread(2).operation.reset();
  job.Thread(2).call_class = "wait";
  const JobReport joined = Analyze(job.snapshots());
  EXPECT_FALSE(joined.deadlock.detected);
}

TEST(Deadlock, StartedPersistentCollectiveWaitsForMembersThatDidNotStartIt) {
  // MPI_Barrier_init started and waited for by ranks 0 and 1; rank 2 waits for a
  // message from rank 0 instead of starting it.
  JobBuilder job(3);
  for (int r : {0, 1}) {
    model::Operation barrier = Op("MPI_Barrier_init", false, model::Rank::Unknown(), Tag(0));
    barrier.persistent = true;
    job.Wait(r, "MPI_Wait", {barrier});
  }
  job.Recv(2, R(0), Tag(3));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1, 2}));
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({2}));
  EXPECT_EQ(FindWait(report, 1)->to, Ranks({2}));
}

TEST(Deadlock, IntercommunicatorPeersAreRemoteRanks) {
  JobBuilder job(4);
  job.AddInterComm("ic", "bridge", {0, 1}, {2, 3});
  job.Send(0, 1, 0, "ic", "MPI_Ssend");  // remote rank 1 is world rank 3
  job.Send(3, 0, 0, "ic", "MPI_Ssend");  // remote rank 0 is world rank 0
  for (int r : {0, 3}) job.Thread(r).operation->peer_world = model::Rank::Unknown();
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 3}));
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({3}));
  EXPECT_EQ(report.ranks[0].peer_world, R(3));
}

TEST(Deadlock, IntercommunicatorCollectiveIgnoresRootArguments) {
  JobBuilder job(4);
  job.AddInterComm("ic", "bridge", {0, 1}, {2, 3});
  // Root side passes MPI_ROOT / MPI_PROC_NULL, the other side the root's rank.
  job.Collective(0, "MPI_Bcast", "ic", -3).Collective(1, "MPI_Bcast", "ic", -1);
  job.Collective(2, "MPI_Bcast", "ic", 0).Collective(3, "MPI_Bcast", "ic", 0);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.collective_mismatches.empty());
}

TEST(Deadlock, AnySourceOnCommunicatorWithoutOthersNeverCompletes) {
  JobBuilder job(2);
  job.AddComm("self0", "MPI_COMM_SELF", {0});
  job.Recv(0, model::Rank::AnySource(), Tag(1), "self0");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0}));
}

TEST(Deadlock, SendToSelfWithoutReceiveIsASelfLoop) {
  JobBuilder job(2);
  job.Send(1, 1, 0, testing::kWorld, "MPI_Ssend");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({1}));
  EXPECT_EQ(report.deadlock.cycle, Ranks({1}));
}

TEST(Deadlock, NobodyInMpiMeansNoDeadlock) {
  JobBuilder job(3);
  job.InMpi(1, "MPI_Test");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_EQ(report.ranks[1].summary, "in MPI_Test");
  EXPECT_EQ(report.ranks[0].summary, "not in MPI");
}

}  // namespace
}  // namespace mpidbg::job
