// Tests of the two-read progress check for live jobs.
#include "job/progress.h"

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::R;
using testing::Tag;

// Two ranks each blocked in a receive from the other: a cycle, if nothing moves.
JobBuilder CrossedReceives(uint64_t calls0, uint64_t calls1) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5)).Recv(1, R(0), Tag(5));
  job.Thread(0).mpi_calls = calls0;
  job.Thread(1).mpi_calls = calls1;
  return job;
}

TEST(Progress, UnchangedRanksStayDeadlocked) {
  JobBuilder first = CrossedReceives(10, 20);
  JobBuilder second = CrossedReceives(10, 20);
  std::vector<model::ProcessSnapshot> later = second.snapshots();
  EXPECT_TRUE(MarkProgressingRanks(first.snapshots(), &later).empty());
  EXPECT_TRUE(Analyze(later).deadlock.detected);
}

TEST(Progress, ARankThatMadeCallsIsNotDeadlocked) {
  // A fast ping-pong read at two moments: rank 1 moved on between the reads.
  JobBuilder first = CrossedReceives(10, 20);
  JobBuilder second = CrossedReceives(10, 22);
  std::vector<model::ProcessSnapshot> later = second.snapshots();
  EXPECT_EQ(MarkProgressingRanks(first.snapshots(), &later), (std::vector<int>{1}));
  EXPECT_EQ(later[1].threads[0].state, "in_mpi");
  const JobReport report = Analyze(later);
  EXPECT_FALSE(report.deadlock.detected);
}

TEST(Progress, ANewThreadOrAnotherCallCountsAsProgress) {
  JobBuilder first = CrossedReceives(10, 20);
  JobBuilder second = CrossedReceives(10, 20);
  std::vector<model::ProcessSnapshot> later = second.snapshots();
  later[0].threads[0].call = "MPI_Ssend";
  later[1].threads[0].tid += 1;
  EXPECT_EQ(MarkProgressingRanks(first.snapshots(), &later), (std::vector<int>{0, 1}));
}

TEST(Progress, UnreadableRanksAreLeftAlone) {
  JobBuilder first = CrossedReceives(10, 20);
  JobBuilder second = CrossedReceives(10, 21);
  second.Unreadable(1);
  std::vector<model::ProcessSnapshot> later = second.snapshots();
  EXPECT_TRUE(MarkProgressingRanks(first.snapshots(), &later).empty());
}

}  // namespace
}  // namespace mpidbg::job
