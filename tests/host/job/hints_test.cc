// Hints, unmatched messages and collective mismatches.
#include <algorithm>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job/call_info.h"
#include "job_builder.h"
#include "report_queries.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;
using testing::HasHint;
using testing::AllHints;

TEST(Hints, TagMismatchOnBlockingSend) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(7)).Send(1, 0, 9);
  const JobReport report = Analyze(job.snapshots());

  EXPECT_EQ(report.deadlock.ranks, std::vector<int>({0, 1}));
  EXPECT_TRUE(HasHint(report,
                      "rank 0 waits for tag 7 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 9 "
                      "to rank 0 instead"))
      << AllHints(report);
  ASSERT_EQ(report.unmatched.size(), 1u);
  const UnmatchedMessage& m = report.unmatched[0];
  EXPECT_EQ(m.from, 1);
  EXPECT_EQ(m.to, 0);
  EXPECT_EQ(m.comm, "w");
  EXPECT_EQ(m.comm_name, "MPI_COMM_WORLD");
  EXPECT_EQ(m.tag.value, 9);
  EXPECT_EQ(m.bytes, 4);
  EXPECT_EQ(m.call, "MPI_Send");
  EXPECT_FALSE(m.arrived);
}

// Rank 0's thread paused recording and blocked in `call`, its state read from
// `state_from` ("stack", or "" the records); rank 1 waits for it.
model::Thread& PausedRankZero(JobBuilder& job, const char* call, const char* call_class,
                              const char* state_from) {
  job.Recv(1, R(0), Tag(6));
  model::Thread& paused = job.Thread(0);
  paused.state = "blocked";
  paused.call = call;
  paused.call_class = call_class;
  paused.recording_paused = true;
  paused.state_from = state_from;
  return paused;
}

// A rank whose thread paused recording, read from its stack as blocked in MPI_Recv
// without an envelope: the report says so, for that rank alone.
TEST(Hints, APausedRankIsNamed) {
  JobBuilder job(2);
  PausedRankZero(job, "MPI_Recv", "p2p", "stack");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 0 paused mpidbg's recording (mpidbg_pause_recording): its state comes "
                      "from its stack, and requests it posted while paused are not known"))
      << AllHints(report);
  EXPECT_FALSE(HasHint(report,
                       "rank 1 paused mpidbg's recording (mpidbg_pause_recording): its state "
                       "comes from its stack, and requests it posted while paused are not known"));
  for (const RankReport& r : report.ranks) EXPECT_EQ(r.recording_paused, r.rank == 0) << r.rank;
  EXPECT_EQ(report.ranks[0].paused_state, RankReport::PausedState::kStack);
}

// Where a paused rank's state came from decides what its hint says: the records of a
// completion recorded despite the pause (collecting requests posted before it), or
// nothing at all when its records say "not in MPI" and its stack was not read.
TEST(Hints, APausedRankSaysWhereItsStateCameFrom) {
  JobBuilder job(2);
  model::Thread& draining = PausedRankZero(job, "MPI_Waitall", "wait", "");
  JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 0 paused mpidbg's recording (mpidbg_pause_recording): its state comes "
                      "from the records of a call recorded despite the pause, and requests it "
                      "posted while paused are not known"))
      << AllHints(report);
  EXPECT_EQ(report.ranks[0].paused_state, RankReport::PausedState::kRecords);

  draining.state = "not_in_mpi";
  draining.call.reset();
  draining.call_class.clear();
  report = Analyze(job.snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 0 paused mpidbg's recording (mpidbg_pause_recording): its state is "
                      "not known (its stack was not read), and requests it posted while paused "
                      "are not known"))
      << AllHints(report);
  EXPECT_EQ(report.ranks[0].paused_state, RankReport::PausedState::kUnknown);
}

TEST(Hints, TagMismatchSeenInUnexpectedQueue) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(7));
  job.Unexpected(0, Op("MPI_Send", true, R(1), Tag(9)));
  job.Collective(1, "MPI_Barrier");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 0 waits for tag 7 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 9 "
                      "to rank 0 instead"))
      << AllHints(report);
  EXPECT_TRUE(HasHint(report,
                      "rank 1 waits in MPI_Barrier on MPI_COMM_WORLD for rank 0, which is in "
                      "MPI_Recv(source=1, tag=7, comm=MPI_COMM_WORLD)"))
      << AllHints(report);
  ASSERT_EQ(report.unmatched.size(), 1u);
  EXPECT_TRUE(report.unmatched[0].arrived);
}

TEST(Hints, CommunicatorMismatch) {
  JobBuilder job(2);
  job.AddComm("d", "dup", {0, 1});
  job.Recv(0, R(1), Tag(7));
  job.Send(1, 0, 7, "d", "MPI_Ssend");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_TRUE(HasHint(report,
                      "rank 0 waits for tag 7 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 7 "
                      "to rank 0 on dup instead"))
      << AllHints(report);
}

TEST(Hints, ReceiveFromFinalizedRank) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(7)).Finalized(1);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, std::vector<int>({0}));
  EXPECT_TRUE(HasHint(report, "rank 0 waits for tag 7 from rank 1 on MPI_COMM_WORLD; rank 1 has finalized"))
      << AllHints(report);
}

TEST(Hints, CollectiveMismatch) {
  JobBuilder job(4);
  job.Collective(0, "MPI_Bcast", testing::kWorld, 0).Collective(1, "MPI_Bcast", testing::kWorld, 0);
  job.Collective(2, "MPI_Barrier").Collective(3, "MPI_Barrier");
  const JobReport report = Analyze(job.snapshots());

  EXPECT_EQ(report.deadlock.ranks, std::vector<int>({0, 1, 2, 3}));
  EXPECT_TRUE(HasHint(report,
                      "ranks 0-1 are in MPI_Bcast(root=0) on MPI_COMM_WORLD while ranks 2-3 are "
                      "in MPI_Barrier on MPI_COMM_WORLD"))
      << AllHints(report);
  ASSERT_EQ(report.collective_mismatches.size(), 1u);
  const CollectiveMismatch& m = report.collective_mismatches[0];
  EXPECT_EQ(m.comm, "w");
  ASSERT_EQ(m.sides.size(), 2u);
  EXPECT_EQ(m.sides[0].ranks, std::vector<int>({0, 1}));
  EXPECT_EQ(m.sides[0].call, "MPI_Bcast");
  EXPECT_EQ(m.sides[0].root, 0);
  EXPECT_EQ(m.sides[1].call, "MPI_Barrier");
  EXPECT_FALSE(m.sides[1].root.has_value());
}

// MPI 4.0: MPI_Allreduce on some ranks and MPI_Allreduce_c on others is one collective,
// not a mismatch; the job completes when the last member joins.
TEST(Hints, LargeCountTwinsAreTheSameCollective) {
  JobBuilder job(3);
  job.Collective(0, "MPI_Allreduce").Collective(1, "MPI_Allreduce_c").Collective(2, "MPI_Allreduce");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.collective_mismatches.empty()) << AllHints(report);
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_EQ(MatchingCallName("MPI_Sendrecv_c"), "MPI_Sendrecv");
  EXPECT_EQ(MatchingCallName("MPI_Recv"), "MPI_Recv");
  EXPECT_EQ(MatchingCallName("MPI_Foo_c"), "MPI_Foo_c");  // not a twin of a known call
}

TEST(Hints, RootMismatch) {
  JobBuilder job(3);
  job.Collective(0, "MPI_Reduce", testing::kWorld, 0);
  job.Collective(1, "MPI_Reduce", testing::kWorld, 1).Collective(2, "MPI_Reduce", testing::kWorld, 1);
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 0 is in MPI_Reduce(root=0) on MPI_COMM_WORLD while ranks 1-2 are in "
                      "MPI_Reduce(root=1) on MPI_COMM_WORLD"))
      << AllHints(report);
}

TEST(Hints, NoCollectiveMismatchAcrossCommunicators) {
  JobBuilder job(4);
  job.AddComm("a", "left", {0, 1}).AddComm("b", "right", {2, 3});
  job.Collective(0, "MPI_Barrier", "a").Collective(1, "MPI_Barrier", "a");
  job.Collective(2, "MPI_Allreduce", "b").Collective(3, "MPI_Allreduce", "b");
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.collective_mismatches.empty());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.hints.empty()) << AllHints(report);
}

TEST(Hints, UnmatchedPendingSendsAndMatchedOnesNot) {
  JobBuilder job(3);
  job.PendingSend(0, Op("MPI_Isend", true, R(1), Tag(3)));      // 1 has a receive for it
  job.PendingRecv(1, Op("MPI_Irecv", false, R(0), Tag(3)));
  job.PendingSend(0, Op("MPI_Issend", true, R(2), Tag(4)));     // nobody receives it
  job.PendingSend(2, Op("MPI_Isend", true, R(1), Tag(5)));      // 1 listens to 0 only
  job.PendingRecv(1, Op("MPI_Irecv", false, model::Rank::AnySource(), Tag(6)));
  const JobReport report = Analyze(job.snapshots());

  ASSERT_EQ(report.unmatched.size(), 2u);
  EXPECT_EQ(report.unmatched[0].from, 0);
  EXPECT_EQ(report.unmatched[0].to, 2);
  EXPECT_EQ(report.unmatched[0].call, "MPI_Issend");
  EXPECT_EQ(report.unmatched[1].from, 2);
  EXPECT_EQ(report.unmatched[1].to, 1);
  EXPECT_EQ(report.unmatched[1].tag.value, 5);
  EXPECT_FALSE(report.deadlock.detected);
}

// Ranks not read are named by the report (and said first by its renderings), not
// left to a hint.
TEST(Hints, RanksNotSeenAreNamed) {
  JobBuilder job(8);
  job.Unreadable(2);
  std::vector<model::ProcessSnapshot> some(job.snapshots().begin(), job.snapshots().begin() + 4);
  const JobReport report = Analyze(some);
  EXPECT_TRUE(report.Incomplete());
  EXPECT_EQ(report.world_size, 8);
  std::vector<int> unread;
  for (const UnreadRank& u : report.unread) unread.push_back(u.rank.value_or(-1));
  EXPECT_EQ(unread, (std::vector<int>{2, 4, 5, 6, 7}));
  EXPECT_EQ(report.unread[1].pid, 0);
  EXPECT_EQ(report.unread[1].reason, "not read: no process, core or record of it was given");
}

TEST(Hints, DuplicateRankIsReported) {
  JobBuilder job(2);
  std::vector<model::ProcessSnapshot> snapshots = job.snapshots();
  snapshots.push_back(snapshots[1]);
  snapshots.back().process.pid = 4242;
  const JobReport report = Analyze(snapshots);
  EXPECT_EQ(report.ranks.size(), 2u);
  EXPECT_TRUE(HasHint(report, "rank 1 appears twice (pid 4242 ignored)")) << AllHints(report);
}

}  // namespace
}  // namespace mpidbg::job
