// scale_figures_test.cc — the two figures the scale targets are stated in, printed for
// the record: the node records of a 4096-rank job (input_bytes=) and the analysis of
// 100,000 ranks in memory (analysis_s=). Only verdicts and the input's bound are
// asserted; time is printed, never asserted (machines differ). The benchmark
// mpidbg_job_scale_bench gives the full table (README.md).
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/collect/node_record_writer.h"
#include "host/job/job_analysis.h"
#include "job_patterns.h"

namespace mpidbg::scale {
namespace {

constexpr int kRanksPerNode = 64;

TEST(ScaleFigures, NodeRecordsOf4096RanksStayUnderTenMegabytes) {
  constexpr int kRanks = 4096;
  const std::vector<model::ProcessSnapshot> job = MakeJob("healthy", kRanks);
  std::size_t bytes = 0;
  for (int first = 0; first < kRanks; first += kRanksPerNode) {
    std::ostringstream out;
    host::NodeRecordWriter writer(out);
    writer.Header({job[static_cast<std::size_t>(first)].process.hostname, "scale", kRanksPerNode, "test"});
    for (int r = first; r < first + kRanksPerNode; ++r) writer.Rank(job[static_cast<std::size_t>(r)]);
    writer.Trailer(0);
    bytes += out.str().size();
  }
  std::printf("input_bytes=%zu ranks=%d\n", bytes, kRanks);
  EXPECT_LE(bytes, std::size_t{10} << 20);
}

TEST(ScaleFigures, RingOf100000RanksIsOneCycle) {
  constexpr int kRanks = 100000;
  const std::vector<model::ProcessSnapshot> job = MakeJob("ring", kRanks);
  const auto start = std::chrono::steady_clock::now();
  const job::JobReport report = job::Analyze(job);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("analysis_s=%.3f ranks=%d\n", seconds, kRanks);
  EXPECT_EQ(report.deadlock.ranks.size(), static_cast<std::size_t>(kRanks));
  EXPECT_EQ(report.deadlock.cycle.size(), static_cast<std::size_t>(kRanks));
}

}  // namespace
}  // namespace mpidbg::scale
