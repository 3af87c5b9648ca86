// A 4096-rank job: the analysis must stay linear in ranks plus edges. The test only
// checks that it completes with the right verdict; times are printed, not asserted.
#include <chrono>
#include <cstdio>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::R;
using testing::Tag;

constexpr int kRanks = 4096;

template <typename F>
double Seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Scale, AnySourceAgainstBarrierOn4096Ranks) {
  JobBuilder job(kRanks);
  job.Recv(0, model::Rank::AnySource(), Tag(99));
  for (int r = 1; r < kRanks; ++r) job.Collective(r, "MPI_Barrier");
  JobReport report;
  const double analyse = Seconds([&] { report = Analyze(job.snapshots()); });
  std::string json, text, dot;
  const double render = Seconds([&] {
    json = ToJson(report).dump();
    text = ToText(report);
    dot = ToDot(report);
  });
  std::printf("[ scale    ] %d ranks, %zu edges: analyse %.3f s, render %.3f s\n", kRanks,
              report.deadlock.EdgeCount(), analyse, render);
  EXPECT_EQ(report.deadlock.ranks.size(), static_cast<std::size_t>(kRanks));
  EXPECT_EQ(report.groups.size(), 2u);
  EXPECT_FALSE(report.deadlock.cycle.empty());
}

TEST(Scale, SendRingAndWaitallsOn4096Ranks) {
  JobBuilder job(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    if (r % 2 == 0) {
      job.Send(r, (r + 1) % kRanks, r, testing::kWorld, "MPI_Ssend");
    } else {
      job.Wait(r, "MPI_Waitall", {testing::Op("MPI_Irecv", false, R((r + 1) % kRanks), Tag(1)),
                                  testing::Op("MPI_Isend", true, R((r + kRanks - 1) % kRanks), Tag(2))});
    }
  }
  JobReport report;
  const double analyse = Seconds([&] { report = Analyze(job.snapshots()); });
  std::printf("[ scale    ] %d ranks, %zu edges: analyse %.3f s\n", kRanks,
              report.deadlock.EdgeCount(), analyse);
  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_FALSE(ToText(report).empty());
}

}  // namespace
}  // namespace mpidbg::job
