// Rank ranges, groups and the three renderings (JSON contract, text, DOT).
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using nlohmann::json;
using testing::AnyTag;
using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;

std::set<std::string> Keys(const json& object) {
  std::set<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
  return keys;
}

void ExpectHasKeys(const json& object, const std::set<std::string>& required) {
  ASSERT_TRUE(object.is_object()) << object.dump();
  const std::set<std::string> keys = Keys(object);
  for (const std::string& key : required) EXPECT_EQ(keys.count(key), 1u) << "missing " << key;
}

TEST(RankRanges, Format) {
  EXPECT_EQ(FormatRankRanges({5, 0, 1, 2, 3}), "0-3,5");
  EXPECT_EQ(FormatRankRanges({}), "");
  EXPECT_EQ(FormatRankRanges({7}), "7");
  EXPECT_EQ(FormatRankRanges({1, 3, 5}), "1,3,5");
  EXPECT_EQ(FormatRankRanges({3, 2, 2, 1, 9, 10}), "1-3,9-10");
  EXPECT_EQ(FormatRankRanges({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 4095}), "0-11,4095");
}

// A group but one rank prints from the group's runs as the ranks it stands for would.
TEST(RankRanges, GroupButOne) {
  const auto group = std::make_shared<const SharedRanks>(std::vector<int>{9, 3, 4, 5, 7, 1, 4});
  EXPECT_EQ(FormatRankSet(RankSet::AllBut(group, 4)), "1,3,5,7,9");
  EXPECT_EQ(FormatRankSet(RankSet::AllBut(group, 3)), "1,4-5,7,9");
  EXPECT_EQ(FormatRankSet(RankSet::AllBut(group, 9)), "1,3-5,7");
  EXPECT_EQ(FormatRankSet(RankSet::AllBut(group, 6)), "1,3-5,7,9");  // not a member
  const RankSet set = RankSet::AllBut(group, 1);
  EXPECT_EQ(set, std::vector<int>({3, 4, 5, 7, 9}));
  EXPECT_EQ(set.size(), 5u);
  EXPECT_EQ(set[0], 3);
  const auto pair = std::make_shared<const SharedRanks>(std::vector<int>{2, 8});
  EXPECT_EQ(RankSetPhrase(RankSet::AllBut(pair, 2)), "rank 8");
}

TEST(Groups, RanksWithTheSameSummaryShareAGroup) {
  JobBuilder job(7);
  for (int r : {0, 1, 2, 3, 5}) job.Recv(r, model::Rank::AnySource(), Tag(5));
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.groups.size(), 2u);
  EXPECT_EQ(report.groups[0].ranks, std::vector<int>({0, 1, 2, 3, 5}));
  EXPECT_EQ(report.groups[0].summary, "MPI_Recv(source=ANY_SOURCE, tag=5, comm=MPI_COMM_WORLD)");
  EXPECT_EQ(report.groups[1].ranks, std::vector<int>({4, 6}));
  EXPECT_EQ(report.groups[1].summary, "not in MPI");
  const json doc = ToJson(report);
  EXPECT_EQ(doc["groups"][0]["ranks"], "0-3,5");
  EXPECT_EQ(doc["groups"][1]["ranks"], "4,6");
}

TEST(Json, KeysFollowTheContract) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), AnyTag());
  job.Send(1, 0, 9, testing::kWorld, "MPI_Ssend");  // matches rank 0's receive
  job.Recv(2, R(1), Tag(4)).Finalized(1);
  job.PendingSend(2, Op("MPI_Isend", true, R(1), Tag(2)));
  const json doc = ToJson(Analyze(job.snapshots()));

  ExpectHasKeys(doc, {"schema", "ranks", "groups", "deadlock", "unmatched", "hints"});
  EXPECT_EQ(doc["schema"], "mpidbg.job/1");
  ASSERT_EQ(doc["ranks"].size(), 3u);
  for (const json& rank : doc["ranks"]) {
    ExpectHasKeys(rank, {"rank", "pid", "source", "state", "call", "comm", "comm_name", "peer", "tag"});
  }
  const json& r0 = doc["ranks"][0];
  EXPECT_EQ(r0["rank"], 0);
  EXPECT_EQ(r0["pid"], 1000);
  EXPECT_EQ(r0["source"], "live");
  EXPECT_EQ(r0["state"], "blocked");
  EXPECT_EQ(r0["call"], "MPI_Recv");
  EXPECT_EQ(r0["comm"], "w");
  EXPECT_EQ(r0["comm_name"], "MPI_COMM_WORLD");
  EXPECT_EQ(r0["peer"], "ANY_SOURCE");
  EXPECT_EQ(r0["tag"], "ANY_TAG");
  const json& r1 = doc["ranks"][1];
  EXPECT_EQ(r1["state"], "finalized");
  EXPECT_TRUE(r1["call"].is_null());
  EXPECT_TRUE(r1["peer"].is_null());
  EXPECT_TRUE(r1["tag"].is_null());
  EXPECT_EQ(doc["ranks"][2]["peer"], 1);
  EXPECT_EQ(doc["ranks"][2]["tag"], 4);

  for (const json& group : doc["groups"]) ExpectHasKeys(group, {"ranks", "summary"});
  const json& deadlock = doc["deadlock"];
  ExpectHasKeys(deadlock, {"detected", "ranks", "cycle", "edges"});
  EXPECT_EQ(deadlock["detected"], true);
  EXPECT_EQ(deadlock["ranks"], json::array({2}));
  EXPECT_EQ(deadlock["cycle"], json::array());
  ASSERT_EQ(deadlock["edges"].size(), 1u);
  const json& edge = deadlock["edges"][0];
  ExpectHasKeys(edge, {"from", "to", "kind", "reason"});
  EXPECT_EQ(edge["from"], 2);
  EXPECT_EQ(edge["to"], 1);
  EXPECT_EQ(edge["kind"], "and");
  EXPECT_EQ(edge["reason"], "MPI_Recv(source=1, tag=4, comm=MPI_COMM_WORLD)");

  ASSERT_EQ(doc["unmatched"].size(), 1u);
  const json& m = doc["unmatched"][0];
  ExpectHasKeys(m, {"from", "to", "comm", "tag", "bytes", "call"});
  EXPECT_EQ(m["from"], 2);
  EXPECT_EQ(m["to"], 1);
  EXPECT_EQ(m["comm"], "w");
  EXPECT_EQ(m["tag"], 2);
  EXPECT_EQ(m["bytes"], 4);
  EXPECT_EQ(m["call"], "MPI_Isend");
  ASSERT_TRUE(doc["hints"].is_array());
  EXPECT_EQ(doc["hints"][0],
            "rank 2 waits for tag 4 from rank 1 on MPI_COMM_WORLD; rank 1 has finalized");
}

TEST(Json, UnreadableRanksSayWhy) {
  JobBuilder job(4);
  job.Recv(0, R(1), Tag(5));
  job.Unreadable(1, "no process 123", 3);
  job.Unreadable(2, "process 124 has no MPI debugging support: looked for ...", 1);
  job.Unreadable(3);  // reason not known
  const json doc = ToJson(Analyze(job.snapshots()));
  const json& ranks = doc["ranks"];
  ASSERT_EQ(ranks.size(), 4u);
  for (const json& r : ranks) ExpectHasKeys(r, {"error", "error_kind"});
  EXPECT_EQ(ranks[0]["state"], "blocked");
  EXPECT_TRUE(ranks[0]["error"].is_null());
  EXPECT_TRUE(ranks[0]["error_kind"].is_null());
  EXPECT_EQ(ranks[1]["state"], "unreadable");
  EXPECT_EQ(ranks[1]["error"], "no process 123");
  EXPECT_EQ(ranks[1]["error_kind"], 3);
  EXPECT_EQ(ranks[2]["error"], "process 124 has no MPI debugging support: looked for ...");
  EXPECT_EQ(ranks[2]["error_kind"], 1);
  EXPECT_EQ(ranks[3]["state"], "unreadable");
  EXPECT_TRUE(ranks[3]["error"].is_null());
  EXPECT_TRUE(ranks[3]["error_kind"].is_null());
  // The same reasons, one entry per rank, in the list of what the verdict lacks.
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["incomplete"], true);
  ASSERT_EQ(doc["unreadable"].size(), 3u) << doc.dump(1);
  EXPECT_EQ(doc["unreadable"][0]["rank"], 1);
  EXPECT_EQ(doc["unreadable"][0]["reason"], "no process 123");
  EXPECT_EQ(doc["unreadable"][2]["reason"], "could not be read");
  // The text says each once, before the verdict.
  const std::string text = ToText(Analyze(job.snapshots()));
  EXPECT_EQ(text.rfind("INCOMPLETE: 1 of 4 ranks read; the verdict covers only that rank\n"
                       "  rank 1 (pid 1001): no process 123\n",
                       0),
            0u)
      << text;
}

// A rank nobody gave and a core that could not be read at all (its rank unknown): the
// one is the other. Rank 0 waits for it, so no "no deadlock" verdict is given.
TEST(Text, IncompleteVerdictNamesTheRankNotRead) {
  JobBuilder job(4);
  job.Recv(0, R(2), Tag(5));
  for (int r : {1, 3}) job.Collective(r, "MPI_Barrier");
  std::vector<model::ProcessSnapshot> snaps = job.snapshots();
  snaps[2] = model::ProcessSnapshot{};
  snaps[2].process.pid = 4242;
  snaps[2].process.source = "core";
  snaps[2].process.state = "unreadable";
  snaps[2].process.error = "core file c.2 is truncated";
  const JobReport report = Analyze(snaps);
  EXPECT_TRUE(report.Incomplete());
  const std::string text = ToText(report);
  EXPECT_EQ(text.rfind("INCOMPLETE: 3 of 4 ranks read; the verdict covers only those\n"
                       "  rank 2 (core of pid 4242): core file c.2 is truncated\n"
                       "no verdict: ranks 0-1,3 wait for ranks not read, which may be stuck as "
                       "well\n",
                       0),
            0u)
      << text;
  EXPECT_EQ(text.find("no deadlock"), std::string::npos) << text;
  const json doc = ToJson(report);
  EXPECT_EQ(doc["complete"], false);
  ASSERT_EQ(doc["unreadable"].size(), 1u) << doc.dump(1);
  EXPECT_EQ(doc["unreadable"][0]["rank"], 2);
  EXPECT_EQ(doc["unreadable"][0]["pid"], 4242);
  EXPECT_EQ(doc["unreadable"][0]["source"], "core");
  EXPECT_EQ(doc["waiting_on_unread"], (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(doc["world_size"], 4);
}

// A rank whose records were read in part: the deadlock among the others is still
// reported, but the verdict is incomplete and says which rank and why.
TEST(Text, RankReadInPartMakesTheVerdictIncomplete) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5));
  job.Recv(1, R(0), Tag(5));
  std::vector<model::ProcessSnapshot> snaps = job.snapshots();
  snaps[1].process.pid = 4243;
  snaps[1].process.damage = model::WalkDamage{};
  EXPECT_FALSE(Analyze(snaps).Incomplete());  // counted, nothing left out
  snaps[1].process.damage->rings_damaged = 1;
  const JobReport report = Analyze(snaps);
  EXPECT_TRUE(report.Incomplete());
  EXPECT_TRUE(report.deadlock.detected);
  const std::string text = ToText(report);
  EXPECT_EQ(text.rfind("INCOMPLETE: 2 of 2 ranks read, 1 in part; the verdict covers only what "
                       "was read\n"
                       "  rank 1 (pid 4243): read in part: the runtime's records could not all "
                       "be read (1 flight ring unreadable); operations, threads or objects may "
                       "be missing\n"
                       "DEADLOCK: ranks 0-1 can never proceed\n"
                       "  proven from what was read: rank 1 was read in part\n",
                       0),
            0u)
      << text;
  const json doc = ToJson(report);
  EXPECT_EQ(doc["incomplete"], true);
  EXPECT_EQ(doc["complete"], false);
  EXPECT_TRUE(doc["unreadable"].empty());
  ASSERT_EQ(doc["partial"].size(), 1u) << doc.dump(1);
  EXPECT_EQ(doc["partial"][0]["rank"], 1);
  EXPECT_EQ(doc["partial"][0]["pid"], 4243);
  EXPECT_EQ(doc["partial"][0]["source"], "live");
}

// Ranks not given at all (--pids naming three of four): the fourth is named.
TEST(Text, RanksNotGivenAreNamed) {
  JobBuilder job(4);
  for (int r = 0; r < 3; ++r) job.InMpi(r, "MPI_Test");
  std::vector<model::ProcessSnapshot> three(job.snapshots().begin(), job.snapshots().begin() + 3);
  const JobReport report = Analyze(three);
  const std::string text = ToText(report);
  EXPECT_EQ(text.rfind("INCOMPLETE: 3 of 4 ranks read; the verdict covers only those\n"
                       "  rank 3: not read: no process, core or record of it was given\n"
                       "no deadlock among the ranks read\n3 ranks: 3 in MPI\n",
                       0),
            0u)
      << text;
  EXPECT_EQ(ToJson(report)["complete"], false);
}

TEST(Json, CompleteJobSaysSo) {
  JobBuilder job(2);
  const json doc = ToJson(Analyze(job.snapshots()));
  EXPECT_EQ(doc["complete"], true);
  EXPECT_EQ(doc["incomplete"], false);
  EXPECT_EQ(doc["unreadable"], json::array());
  EXPECT_EQ(doc["waiting_on_unread"], json::array());
}

TEST(Json, OrEdgesAndNoDeadlock) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), Tag(1));
  const json doc = ToJson(Analyze(job.snapshots()));
  EXPECT_EQ(doc["deadlock"]["detected"], false);
  EXPECT_EQ(doc["deadlock"]["ranks"], json::array());
  ASSERT_EQ(doc["deadlock"]["edges"].size(), 2u);
  EXPECT_EQ(doc["deadlock"]["edges"][0]["kind"], "or");
  EXPECT_EQ(doc["deadlock"]["edges"][0]["to"], 1);
  EXPECT_EQ(doc["deadlock"]["edges"][1]["to"], 2);
  EXPECT_EQ(doc["unmatched"], json::array());
  EXPECT_EQ(doc["hints"], json::array());
}

TEST(Text, VerdictFirst) {
  JobBuilder job(4);
  for (int r = 0; r < 4; ++r) job.Send(r, (r + 1) % 4, 0, testing::kWorld, "MPI_Ssend");
  const std::string text = ToText(Analyze(job.snapshots()));
  EXPECT_EQ(text.rfind("DEADLOCK: ranks 0-3 can never proceed\ncycle: 0 -> 1 -> 2 -> 3 -> 0\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("  rank 0: MPI_Ssend(dest=1, tag=0, comm=MPI_COMM_WORLD)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("waits:\n  0 -> 1: MPI_Ssend(dest=1, tag=0, comm=MPI_COMM_WORLD)\n"),
            std::string::npos)
      << text;
}

TEST(Text, NoDeadlockGroupsUnmatchedHints) {
  JobBuilder job(6);
  for (int r : {0, 1, 2, 3, 5}) job.InMpi(r, "MPI_Test");
  job.PendingSend(4, Op("MPI_Isend", true, R(0), Tag(9)));
  const std::string text = ToText(Analyze(job.snapshots()));
  EXPECT_EQ(text.rfind("no deadlock detected\n", 0), 0u) << text;
  EXPECT_NE(text.find("  ranks 0-3,5: in MPI_Test\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  rank 4: not in MPI\n"), std::string::npos) << text;
  EXPECT_NE(text.find("unmatched messages:\n  4 -> 0: MPI_Isend tag 9, 4 bytes on MPI_COMM_WORLD\n"),
            std::string::npos)
      << text;
}

TEST(Text, CollectiveWaitsMergeIntoOneLine) {
  JobBuilder job(6);
  job.Recv(0, R(1), Tag(7));
  for (int r = 1; r < 5; ++r) job.Collective(r, "MPI_Barrier");
  job.Finalized(5);
  const std::string text = ToText(Analyze(job.snapshots()));
  EXPECT_NE(text.find("waits:\n"
                      "  0 -> 1: MPI_Recv(source=1, tag=7, comm=MPI_COMM_WORLD)\n"
                      "  1-4 -> all of 0,5: MPI_Barrier(comm=MPI_COMM_WORLD)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  - ranks 1-4 wait in MPI_Barrier on MPI_COMM_WORLD for rank 5, which has "
                      "finalized\n"),
            std::string::npos)
      << text;
}

TEST(Text, MetRequirementsAreMarked) {
  JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), Tag(1));
  const std::string text = ToText(Analyze(job.snapshots()));
  EXPECT_NE(text.find("  0 -> any of 1-2: MPI_Recv(source=ANY_SOURCE, tag=1, comm=MPI_COMM_WORLD) "
                      "[can be met]\n"),
            std::string::npos)
      << text;
}

// The picture draws classes: ranks 0 and 2 both sit in MPI_Recv (one class), rank 1 in
// MPI_Send.
TEST(Dot, ClassesEdgesLegend) {
  JobBuilder job(3);
  job.Recv(0, R(1), Tag(7)).Send(1, 0, 9);
  job.Recv(2, model::Rank::AnySource(), Tag(1));
  const std::string dot = ToDot(Analyze(job.snapshots()));
  EXPECT_EQ(dot.rfind("digraph mpidbg_job {\n", 0), 0u) << dot;
  EXPECT_NE(dot.find("  c0 [label=\"ranks 0,2\\nMPI_Recv (arguments differ by "
                     "rank)\", color=red, fontcolor=red, penwidth=2];\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("  c1 [label=\"rank 1\\nMPI_Send(dest=0, tag=9, comm=MPI_COMM_WORLD)\""),
            std::string::npos)
      << dot;
  // Rank 0 waits for rank 1, and both are deadlocked: red, as its legend row.
  EXPECT_NE(dot.find("  c0 -> c1 [style=solid, color=red, fontcolor=red, label=\"and\", "
                     "tooltip=\"MPI_Recv(source=1, tag=7, comm=MPI_COMM_WORLD)\"];\n"),
            std::string::npos)
      << dot;
  // Rank 2 waits for any of 0 and 1 (deadlocked too): dotted, one edge per class.
  EXPECT_NE(dot.find("  c0 -> c0 [style=dotted, color=red, fontcolor=red, label=\"or\""),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("  c0 -> c1 [style=dotted, color=red"), std::string::npos) << dot;
  // Rank 1's message with the wrong tag: a dashed gray edge to its receiver's class.
  EXPECT_NE(dot.find("  c1 -> c0 [style=dashed, color=gray50, fontcolor=gray50, "
                     "label=\"MPI_Send tag 9\""),
            std::string::npos)
      << dot;
  // The legend: a row per look drawn, in the edges' own colours, and nothing else.
  EXPECT_NE(dot.find("COLOR=\"red\" WIDTH=\"36\"> </TD><TD ALIGN=\"LEFT\">waits for all (and), "
                     "deadlocked"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("STYLE=\"dotted\" COLOR=\"red\" WIDTH=\"36\"> </TD><TD ALIGN=\"LEFT\">"
                     "waits for any (or), deadlocked<"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("STYLE=\"dashed\" COLOR=\"gray50\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("ranks in another collective"), std::string::npos) << dot;
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
}

TEST(Dot, WaitedRequestsGoOnTheirOwnLines) {
  JobBuilder job(2);
  job.Wait(0, "MPI_Waitall", {Op("MPI_Irecv", false, R(1), Tag(1)), Op("MPI_Isend", true, R(1), Tag(2))});
  const std::string dot = ToDot(Analyze(job.snapshots()));
  EXPECT_NE(dot.find("[label=\"rank 0\\nMPI_Waitall(2 requests:\\n"
                     "MPI_Irecv(source=1, tag=1, comm=MPI_COMM_WORLD),\\n"
                     "MPI_Isend(dest=1, tag=2, comm=MPI_COMM_WORLD))\"];\n"),
            std::string::npos)
      << dot;
}

// Four ranks in three collectives on one communicator: one mark naming the
// communicator, tied to each class with its call, instead of waits between every pair.
TEST(Dot, CollectiveMismatchIsOneMarkNotAMesh) {
  JobBuilder job(4);
  job.Collective(0, "MPI_Allreduce").Collective(2, "MPI_Allreduce");
  job.Collective(1, "MPI_Barrier").Collective(3, "MPI_Bcast", testing::kWorld, 0);
  const std::string dot = ToDot(Analyze(job.snapshots()));
  EXPECT_NE(dot.find("label=\"collective mismatch\\non MPI_COMM_WORLD\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("[label=\"ranks 0,2\\nMPI_Allreduce(comm=MPI_COMM_WORLD)\""), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("label=\"MPI_Barrier\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"MPI_Bcast (root 0)\"];"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("label=\"and"), std::string::npos) << dot;  // no mesh
  EXPECT_NE(dot.find("ranks in another collective"), std::string::npos) << dot;
}

TEST(Dot, QuotesAreEscaped) {
  JobBuilder job(2);
  job.AddComm("q", "my \"comm\"", {0, 1});
  job.Send(0, 1, 0, "q", "MPI_Ssend").Send(1, 0, 0, "q", "MPI_Ssend");
  const std::string dot = ToDot(Analyze(job.snapshots()));
  EXPECT_NE(dot.find("comm=my \\\"comm\\\")"), std::string::npos) << dot;
}

}  // namespace
}  // namespace mpidbg::job

namespace mpidbg::job {
namespace {

// ANY_SOURCE on a big communicator: one wait set per rank instead of 99 edges each.
TEST(Render, WideOrWaitsBecomeWaitSets) {
  const int n = 100;
  testing::JobBuilder job(n);
  for (int r = 0; r < n; ++r) job.Recv(r, model::Rank::AnySource(), testing::Tag(1));
  const JobReport report = Analyze(job.snapshots());
  ASSERT_TRUE(report.deadlock.detected);
  const nlohmann::json j = ToJson(report);
  EXPECT_TRUE(j["deadlock"]["edges"].empty());
  ASSERT_EQ(j["deadlock"]["wait_sets"].size(), static_cast<size_t>(n));
  const nlohmann::json& first = j["deadlock"]["wait_sets"][0];
  EXPECT_EQ(first["from"], 0);
  EXPECT_EQ(first["ranks"], "1-99");
  EXPECT_EQ(first["count"], 99);
  EXPECT_EQ(first["kind"], "or");
  EXPECT_EQ(j["deadlock"]["wait_sets"][5]["ranks"], "0-4,6-99");

  // One class waiting within itself: one edge counting the 9900 waits.
  const std::string dot = ToDot(report);
  EXPECT_NE(dot.find("  c0 -> c0 [style=dotted, color=red, fontcolor=red, label=\"or (9900 waits)\""),
            std::string::npos)
      << dot.substr(0, 2000);
  EXPECT_LT(dot.size(), 3000u);
}

TEST(Render, NarrowOrWaitsStayEdges) {
  testing::JobBuilder job(3);
  job.Recv(0, model::Rank::AnySource(), testing::Tag(1));
  job.Recv(1, testing::R(0), testing::Tag(2)).Recv(2, testing::R(0), testing::Tag(2));
  const nlohmann::json j = ToJson(Analyze(job.snapshots()));
  EXPECT_TRUE(j["deadlock"]["wait_sets"].empty());
  EXPECT_EQ(j["deadlock"]["edges"].size(), 4u);
}

}  // namespace
}  // namespace mpidbg::job

namespace mpidbg::job {
namespace {

model::Frame Frame(const char* function, const char* file, int line, uint64_t pc) {
  model::Frame f;
  if (function != nullptr) f.function = function;
  if (file != nullptr) {
    f.file = file;
    f.line = line;
  }
  f.module = file != nullptr ? "hang" : "libmpidbg_rt_mpich.so";
  f.pc = pc;
  return f;
}

// The blocked thread's stack: JSON ranks[].frames, and one text line per call site.
TEST(Stacks, JsonFramesAndTextCallSites) {
  JobBuilder job(3);
  job.Recv(0, R(2), Tag(5));
  job.Recv(1, R(2), Tag(5));
  job.Recv(2, R(0), Tag(5));
  for (int r = 0; r < 3; ++r) {
    job.Thread(r).frames = {Frame("MPI_Recv", nullptr, 0, 0x7f00),
                            Frame("wait_for_token", "/src/hang.c", r == 2 ? 9 : 7, 0x1100),
                            Frame("main", "/src/hang.c", 20, 0x1200),
                            Frame("__libc_start_call_main", nullptr, 0, 0x7e00)};
  }
  const JobReport report = Analyze(job.snapshots());
  const json doc = ToJson(report);
  const json& frames = doc["ranks"][0]["frames"];
  ASSERT_EQ(frames.size(), 4u) << doc.dump();
  ExpectHasKeys(frames[0], {"function", "file", "line", "module", "pc"});
  EXPECT_EQ(frames[0]["function"], "MPI_Recv");
  EXPECT_TRUE(frames[0]["file"].is_null());
  EXPECT_TRUE(frames[0]["line"].is_null());
  EXPECT_EQ(frames[1]["file"], "/src/hang.c");
  EXPECT_EQ(frames[1]["line"], 7);
  EXPECT_EQ(frames[1]["pc"], "0x1100");
  const std::string text = ToText(report);
  EXPECT_NE(text.find("rank classes (2):\n  ranks 0-1 (2): MPI_Recv(source=2, tag=5, "
                      "comm=MPI_COMM_WORLD) at hang.c:7 in wait_for_token \u2190 main\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  rank 2: MPI_Recv(source=0, tag=5, comm=MPI_COMM_WORLD) at hang.c:9 in "
                      "wait_for_token \u2190 main\n"),
            std::string::npos)
      << text;
  // The prefix tree parts where the lines differ.
  EXPECT_NE(text.find("call tree:\n  main at hang.c:20 [0-2]\n    wait_for_token at hang.c:7 "
                      "[0-1]\n      MPI_Recv [0-1]\n    wait_for_token at hang.c:9 [2]\n"),
            std::string::npos)
      << text;
  const json& classes = doc["rank_classes"];
  ASSERT_EQ(classes.size(), 2u) << doc.dump();
  EXPECT_EQ(classes[0]["ranks"], "0-1");
  EXPECT_EQ(classes[0]["count"], 2);
  EXPECT_EQ(classes[0]["path"], json({"main at hang.c:20", "wait_for_token at hang.c:7", "MPI_Recv"}));
  EXPECT_EQ(classes[0]["frames"].size(), 4u);
  EXPECT_EQ(doc["call_tree"]["ranks"], "0-2");
  EXPECT_EQ(doc["call_tree"]["children"][0]["name"], "main at hang.c:20");
  // The picture draws each class as one box, its callers under its call.
  const std::string dot = ToDot(report);
  EXPECT_NE(dot.find("  c0 [label=\"ranks 0-1"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\\n\u2190 wait_for_token at hang.c:7\\n\u2190 main at hang.c:20\""),
            std::string::npos)
      << dot;
}

// 4096 ranks in two places read as two classes, whatever their arguments.
TEST(Stacks, ThousandsOfRanksReadAsTheirClasses) {
  const int n = 4096;
  JobBuilder job(n);
  for (int r = 0; r < n; ++r) {
    job.Recv(r, R((r + 1) % n), Tag(5));
    job.Thread(r).frames = {Frame("MPI_Recv", nullptr, 0, 0x7f00),
                            Frame("main", "/src/ring.c", r == 7 ? 31 : 30, 0x1200)};
  }
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.classes.classes.size(), 2u);
  const std::string text = ToText(report);
  EXPECT_NE(text.find("rank classes (2):\n  ranks 0-6,8-4095 (4095): MPI_Recv at ring.c:30 in main\n"
                      "  rank 7: MPI_Recv(source=8, tag=5, comm=MPI_COMM_WORLD) at ring.c:31 in main\n"),
            std::string::npos)
      << text.substr(0, 2000);
}

// Without stacks nothing changes: no section, empty frames.
TEST(Stacks, NoStacksNoSection) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(5));
  const JobReport report = Analyze(job.snapshots());
  EXPECT_EQ(ToText(report).find("rank classes"), std::string::npos);
  EXPECT_EQ(ToText(report).find("call tree"), std::string::npos);
  EXPECT_EQ(ToJson(report)["ranks"][0]["frames"], json::array());
}

}  // namespace
}  // namespace mpidbg::job
