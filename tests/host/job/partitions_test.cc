// Partitioned requests: a partitioned send completes only once all its partitions are
// marked ready, which only its own process can do; a receive waits for it until then.
#include <algorithm>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"
#include "report_queries.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;
using testing::Ranks;
using testing::FindWait;
using testing::HasHint;
using testing::AllHints;

model::Operation Partitioned(bool send, int peer, int count, int done) {
  model::Operation op = Op(send ? "MPI_Psend_init" : "MPI_Precv_init", send, R(peer), Tag(7));
  op.partitions = model::Operation::Partitions{count, done};
  op.count = count * 16;
  return op;
}

// Rank 0 waits for its partitioned send to rank 1 with `ready` of 8 partitions marked;
// rank 1 waits for the matching partitioned receive.
JobBuilder PartitionedPair(int ready) {
  JobBuilder job(2);
  job.Wait(0, "MPI_Wait", {Partitioned(true, 1, 8, ready)});
  job.Wait(1, "MPI_Wait", {Partitioned(false, 0, 8, 0)});
  return job;
}

TEST(Partitions, SendWithPartitionsNotReadyWaitsForItself) {
  const JobReport report = Analyze(PartitionedPair(5).snapshots());
  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 1}));
  ASSERT_NE(FindWait(report, 0), nullptr);
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({0})) << "only rank 0 can mark the rest ready";
  ASSERT_NE(FindWait(report, 1), nullptr);
  EXPECT_EQ(FindWait(report, 1)->to, Ranks({0})) << "the posted send does not satisfy it";
  EXPECT_TRUE(HasHint(report,
                      "rank 0 waits in MPI_Wait for its partitioned send to rank 1 on "
                      "MPI_COMM_WORLD, of which it marked only 5 of 8 partitions ready"))
      << AllHints(report);
  EXPECT_TRUE(HasHint(report,
                      "rank 1 waits for tag 7 from rank 0 on MPI_COMM_WORLD; rank 0 marked 5 of "
                      "8 partitions of its partitioned send ready"))
      << AllHints(report);
}

TEST(Partitions, AllPartitionsReadyCompletes) {
  const JobReport report = Analyze(PartitionedPair(8).snapshots());
  EXPECT_FALSE(report.deadlock.detected) << AllHints(report);
  for (const std::string& h : report.hints) EXPECT_EQ(h.find("partition"), std::string::npos) << h;
}

TEST(Partitions, ReceiveAloneIsAnOrdinaryReceive) {
  // No partition progress known (a plugin before version 4): the pair reads as a send
  // matched by its receive, as before.
  JobBuilder job(2);
  model::Operation send = Partitioned(true, 1, 8, 0);
  send.partitions.reset();
  job.Wait(0, "MPI_Wait", {send});
  job.Wait(1, "MPI_Wait", {Partitioned(false, 0, 8, 0)});
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

}  // namespace
}  // namespace mpidbg::job
