// Neighbourhood collectives: a rank in MPI_Neighbor_* waits for its topology neighbours
// only, not for the whole communicator — and for the whole communicator again when its
// neighbours are not known.
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

// A distributed graph of two pairs, 0-1 and 2-3, over all four ranks ("g").
JobBuilder Pairs() {
  JobBuilder job(4);
  job.AddComm("g", "pairs", {0, 1, 2, 3});
  for (int r = 0; r < 4; ++r) job.Comm(r, "g").topology = "dist_graph";
  for (int r = 0; r < 4; ++r) job.Comm(r, "g").neighbors = model::Neighbors{{r ^ 1}, {r ^ 1}};
  return job;
}

TEST(Neighborhood, WaitsForItsNeighboursOnly) {
  // Rank 0 waits for rank 1, which computes; ranks 2 and 3 are stuck on each other.
  JobBuilder job = Pairs();
  job.Collective(0, "MPI_Neighbor_allgather", "g");
  job.Recv(2, R(3), Tag(1)).Recv(3, R(2), Tag(1));
  const JobReport report = Analyze(job.snapshots());

  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, Ranks({2, 3})) << "rank 0 proceeds once rank 1 joins";
  const WaitRequirement* w = FindWait(report, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->to, Ranks({1}));
  EXPECT_EQ(w->reason, "MPI_Neighbor_allgather(comm=pairs)");
}

TEST(Neighborhood, UnknownNeighboursMeanTheWholeCommunicator) {
  // The same job read through a DLL that gives no neighbours: the collective counts as
  // one over all of "g", so rank 0 also waits for the stuck ranks 2 and 3.
  JobBuilder job = Pairs();
  for (int r = 0; r < 4; ++r) job.Comm(r, "g").neighbors.reset();
  job.Collective(0, "MPI_Neighbor_allgather", "g");
  job.Recv(2, R(3), Tag(1)).Recv(3, R(2), Tag(1));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 2, 3}));
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({1, 2, 3}));
}

TEST(Neighborhood, JoinedNeighboursLeaveNothingToWaitFor) {
  JobBuilder job = Pairs();
  job.Collective(0, "MPI_Neighbor_alltoall", "g").Collective(1, "MPI_Neighbor_alltoall", "g");
  job.Recv(2, R(3), Tag(1)).Recv(3, R(2), Tag(1));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({2, 3}));
  EXPECT_EQ(FindWait(report, 0), nullptr);
  EXPECT_EQ(FindWait(report, 1), nullptr);
}

// A periodic ring of four (cartesian, one dimension): each rank's neighbours are the
// ranks before and after it.
JobBuilder Ring() {
  JobBuilder job(4);
  job.AddComm("c", "ring", {0, 1, 2, 3});
  for (int r = 0; r < 4; ++r) {
    job.Comm(r, "c").topology = "cart";
    job.Comm(r, "c").neighbors = model::Neighbors{{(r + 3) % 4, (r + 1) % 4}, {(r + 3) % 4, (r + 1) % 4}};
  }
  return job;
}

TEST(Neighborhood, RingNeighboursOfAnAbsentRankWaitForIt) {
  // Rank 3 waits for a message rank 0 never sends; 0 and 2 (its neighbours) wait for it
  // in the collective; rank 1's neighbours (0 and 2) have both joined.
  JobBuilder job = Ring();
  for (int r = 0; r < 3; ++r) job.Collective(r, "MPI_Neighbor_alltoall", "c");
  job.Recv(3, R(0), Tag(9));
  const JobReport report = Analyze(job.snapshots());

  EXPECT_EQ(report.deadlock.ranks, Ranks({0, 2, 3}));
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({3}));
  EXPECT_EQ(FindWait(report, 2)->to, Ranks({3}));
  EXPECT_EQ(FindWait(report, 1), nullptr);
  const std::string hint =
      "ranks 0,2 wait in MPI_Neighbor_alltoall on ring for rank 3, which is in "
      "MPI_Recv(source=0, tag=9, comm=MPI_COMM_WORLD)";
  EXPECT_TRUE(HasHint(report, hint)) << AllHints(report);
}

TEST(Neighborhood, NonblockingFormWaitsForNeighboursToo) {
  JobBuilder job = Pairs();
  job.Wait(0, "MPI_Wait",
           {Op("MPI_Ineighbor_allgather", false, model::Rank::Unknown(), Tag(0), "g")});
  job.Recv(2, R(3), Tag(1)).Recv(3, R(2), Tag(1));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.deadlock.ranks, Ranks({2, 3}));
  ASSERT_NE(FindWait(report, 0), nullptr);
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({1}));
}

TEST(Neighborhood, NeighbourOutsideTheGroupIsNotTrusted) {
  // A neighbour list naming a rank the communicator does not have: the whole
  // communicator counts again rather than an invented edge.
  JobBuilder job = Pairs();
  job.Comm(0, "g").neighbors = model::Neighbors{{7}, {7}};
  job.Collective(0, "MPI_Neighbor_allgather", "g");
  job.Recv(2, R(3), Tag(1)).Recv(3, R(2), Tag(1));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(FindWait(report, 0)->to, Ranks({1, 2, 3}));
}

}  // namespace
}  // namespace mpidbg::job
