// The reduced view (stacks_view.h): ranks read from their stacks alone, judged only on
// what the stacks prove. Hand-built snapshots as the stacks reader fills them: no
// communicators, no operations, one thread per rank with its folded frames.
#include "job/stacks_view.h"

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job/progress.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

model::Frame Fr(const std::string& function, uint64_t pc, const char* file = nullptr, int line = 0) {
  model::Frame f;
  f.function = function;
  f.pc = pc;
  f.module = file != nullptr ? "prog" : "libmpich.so.12";
  if (file != nullptr) {
    f.file = file;
    f.line = line;
  }
  return f;
}

// `n` ranks read in the stacks view, each blocked in `call` called from main.
std::vector<model::ProcessSnapshot> StacksJob(int n, const std::string& call, bool ranks_known = true) {
  std::vector<model::ProcessSnapshot> out;
  for (int r = 0; r < n; ++r) {
    model::ProcessSnapshot s;
    s.process.view = "stacks";
    s.process.pid = 500 + r;
    s.process.rank = ranks_known ? r : -1;
    s.process.size = ranks_known ? n : 0;
    s.process.rank_from = ranks_known ? "PMI_RANK" : "";
    model::Thread t;
    t.tid = 500 + r;
    t.state = "blocked";
    t.call = call;
    t.frames = {Fr(call, 0x7f0000001000), Fr("main", 0x401234, "ring.c", 12)};
    s.threads.push_back(t);
    out.push_back(std::move(s));
  }
  return out;
}

TEST(StacksView, AllBlockedOnceIsNotYetHung) {
  const JobReport report = Analyze(StacksJob(4, "MPI_Ssend"));
  EXPECT_EQ(report.view, "stacks");
  EXPECT_TRUE(report.stacks.all_blocked);
  EXPECT_EQ(report.stacks.blocked, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_FALSE(StacksHung(report));  // no second read yet
  EXPECT_FALSE(report.deadlock.detected);
  const std::string text = ToText(report);
  EXPECT_EQ(text.rfind("REDUCED VIEW (stacks only):", 0), 0u) << text;
  EXPECT_NE(text.find("ALL RANKS BLOCKED IN MPI (0-3), read once"), std::string::npos) << text;
  EXPECT_EQ(text.find("DEADLOCK"), std::string::npos) << text;
  EXPECT_EQ(text.find("no deadlock"), std::string::npos) << text;
  EXPECT_NE(text.find("ranks 0-3: MPI_Ssend"), std::string::npos) << text;
  EXPECT_NE(text.find("at ring.c:12 in main"), std::string::npos) << text;
}

TEST(StacksView, NoProgressBetweenTwoReadsIsHung) {
  const std::vector<model::ProcessSnapshot> first = StacksJob(4, "MPI_Ssend");
  std::vector<model::ProcessSnapshot> again = StacksJob(4, "MPI_Ssend");
  EXPECT_TRUE(MarkProgressingRanks(first, &again).empty());
  JobReport report = Analyze(again);
  report.stacks.second_read_seconds = 1;
  EXPECT_TRUE(StacksHung(report));
  const std::string text = ToText(report);
  EXPECT_NE(text.find("HUNG: all ranks blocked in MPI (0-3)"), std::string::npos) << text;
  EXPECT_EQ(text.find("cycle"), text.find("no cycle is claimed") + 3) << text;
  const nlohmann::json j = ToJson(report);
  EXPECT_EQ(j["view"], "stacks");
  EXPECT_TRUE(j["stacks"]["hung"].get<bool>());
  EXPECT_TRUE(j["deadlock"].is_null());
  EXPECT_TRUE(j["unmatched"].is_null());
  EXPECT_TRUE(j["collective_mismatches"].is_null());
  EXPECT_EQ(j["stacks"]["progress"]["second_read_seconds"], 1.0);
}

TEST(StacksView, AStackThatMovedIsProgress) {
  const std::vector<model::ProcessSnapshot> first = StacksJob(3, "MPI_Recv");
  std::vector<model::ProcessSnapshot> again = StacksJob(3, "MPI_Recv");
  again[2].threads[0].frames[1].pc = 0x401250;  // rank 2 returned and called again elsewhere
  EXPECT_EQ(MarkProgressingRanks(first, &again), (std::vector<int>{2}));
  JobReport report = Analyze(again);
  report.stacks.second_read_seconds = 1;
  report.stacks.progressing = {2};
  EXPECT_FALSE(StacksHung(report));
  EXPECT_NE(ToText(report).find("not hung: rank 2 moved between two reads"), std::string::npos);
}

TEST(StacksView, UnknownRanksAreMatchedByPidAndNumberedByOrder) {
  const std::vector<model::ProcessSnapshot> first = StacksJob(3, "MPI_Barrier", false);
  std::vector<model::ProcessSnapshot> again = StacksJob(3, "MPI_Barrier", false);
  again[1].threads[0].frames[0].pc += 8;
  std::vector<int64_t> pids;
  MarkProgressingRanks(first, &again, &pids);
  EXPECT_EQ(pids, (std::vector<int64_t>{501}));
  const JobReport report = Analyze(StacksJob(3, "MPI_Barrier", false));
  EXPECT_TRUE(report.stacks.ranks_by_order);
  ASSERT_EQ(report.ranks.size(), 3u);
  EXPECT_EQ(report.ranks[2].rank, 2);
  EXPECT_EQ(report.ranks[2].pid, 502);
  EXPECT_EQ(report.world_size, 3);
  EXPECT_FALSE(report.Incomplete());
  EXPECT_NE(ToText(report).find("ranks numbered by the order of the targets"), std::string::npos);
}

TEST(StacksView, ARankOutsideMpiGivesNoVerdict) {
  std::vector<model::ProcessSnapshot> job = StacksJob(4, "MPI_Recv");
  job[3].threads[0].state = "not_in_mpi";
  job[3].threads[0].call.reset();
  const JobReport report = Analyze(job);
  EXPECT_FALSE(report.stacks.all_blocked);
  EXPECT_EQ(report.stacks.not_blocked, (std::vector<int>{3}));
  EXPECT_NE(ToText(report).find("no verdict from the stacks: rank 3 is not blocked in MPI"),
            std::string::npos);
}

TEST(StacksView, DifferentCollectivesAreShownNotJudged) {
  std::vector<model::ProcessSnapshot> job = StacksJob(4, "MPI_Barrier");
  for (int r : {2, 3}) {
    job[r].threads[0].call = "MPI_Allreduce";
    job[r].threads[0].frames[0].function = "MPI_Allreduce";
  }
  const JobReport report = Analyze(job);
  ASSERT_EQ(report.stacks.collectives.size(), 2u);
  EXPECT_EQ(report.stacks.collectives[0].call, "MPI_Barrier");
  EXPECT_EQ(report.stacks.collectives[1].ranks, (std::vector<int>{2, 3}));
  const std::string text = ToText(report);
  EXPECT_NE(text.find("the stacks show ranks in different collectives:\n  ranks 0-1: MPI_Barrier\n"
                      "  ranks 2-3: MPI_Allreduce\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("COLLECTIVE MISMATCH"), std::string::npos);
  EXPECT_EQ(ToJson(report)["stacks"]["different_collectives"].size(), 2u);
}

TEST(StacksView, CollectivesOnTheWorldReadFromCallersAreAMismatch) {
  std::vector<model::ProcessSnapshot> job = StacksJob(4, "MPI_Barrier");
  for (int r = 0; r < 4; ++r) {
    model::Thread& t = job[r].threads[0];
    if (r >= 2) t.call = "MPI_Allreduce";
    t.comm_name = "MPI_COMM_WORLD";
    t.arguments_from = "caller_frame";
  }
  JobReport report = Analyze(job);
  ASSERT_EQ(report.collective_mismatches.size(), 1u);
  EXPECT_EQ(report.collective_mismatches[0].comm_name, "MPI_COMM_WORLD");
  ASSERT_EQ(report.collective_mismatches[0].sides.size(), 2u);
  EXPECT_EQ(report.collective_mismatches[0].sides[1].call, "MPI_Allreduce");
  const std::string text = ToText(report);
  EXPECT_NE(text.find("COLLECTIVE MISMATCH on MPI_COMM_WORLD: ranks 0-1 in MPI_Barrier, ranks 2-3 "
                      "in MPI_Allreduce\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("arguments read from the callers' frames"), std::string::npos) << text;
  EXPECT_NE(text.find("ranks 0-1: MPI_Barrier(comm=MPI_COMM_WORLD)"), std::string::npos) << text;
  EXPECT_EQ(text.find("the stacks show ranks in different collectives"), std::string::npos) << text;
  const nlohmann::json j = ToJson(report);
  EXPECT_EQ(j["collective_mismatches"].size(), 1u);
  EXPECT_EQ(j["ranks"][0]["arguments_from"], "caller_frame");

  // A handle other than the world's is one process's value: no proof across ranks.
  for (int r = 0; r < 4; ++r) job[r].threads[0].comm_name = "0x84000002";
  report = Analyze(job);
  EXPECT_TRUE(report.collective_mismatches.empty());
  EXPECT_TRUE(ToJson(report)["collective_mismatches"].is_null());
  EXPECT_EQ(report.stacks.collectives.size(), 2u);
}

TEST(StacksView, FinalizeBesideACollectiveIsNoDifference) {
  std::vector<model::ProcessSnapshot> job = StacksJob(2, "MPI_Barrier");
  job[1].threads[0].call = "MPI_Finalize";
  EXPECT_TRUE(Analyze(job).stacks.collectives.empty());
}

TEST(StacksView, AMissingRankIsIncompleteAndNeverHung) {
  std::vector<model::ProcessSnapshot> job = StacksJob(4, "MPI_Recv");
  job.pop_back();  // rank 3 not given; PMI_SIZE says 4
  JobReport report = Analyze(job);
  report.stacks.second_read_seconds = 1;
  EXPECT_TRUE(report.Incomplete());
  EXPECT_FALSE(StacksHung(report));
  const std::string text = ToText(report);
  EXPECT_NE(text.find("INCOMPLETE"), std::string::npos) << text;
  EXPECT_NE(text.find("no verdict: every rank read is blocked in MPI"), std::string::npos) << text;
}

TEST(StacksView, TheFullViewSaysRecords) {
  testing::JobBuilder job(2);
  job.Recv(0, testing::R(1), testing::Tag(1));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(report.view, "records");
  EXPECT_EQ(ToJson(report)["view"], "records");
  EXPECT_TRUE(ToJson(report)["stacks"].is_null());
  EXPECT_EQ(ToText(report).find("REDUCED VIEW"), std::string::npos);
}

}  // namespace
}  // namespace mpidbg::job
