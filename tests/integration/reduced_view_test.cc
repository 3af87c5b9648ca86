// End-to-end: jobs started with the launcher alone (no `mpidbg run`, no runtime), read
// in the reduced view (OUTPUT.md "view": "stacks"), live and from cores, on each MPI
// flavour: exit 0, the reduced view's first line, each rank's MPI call from its stack,
// the ranks from the launcher's environment, "HUNG" only after a second live read.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "mpi_job.h"
#include "process_util.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

constexpr const char* kFirstLine = "REDUCED VIEW (stacks only): this job does not carry mpidbg's runtime";

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// `job --json` until every rank is blocked in MPI (the ranks print "ready" just before
// their blocking call), at most 30 s.
json SettledJob(const MpiJob& job) {
  json doc;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    MpidbgResult r = Mpidbg({"job", "--pids", job.PidList(), "--json", "--confirm", "0"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    doc = r.json;
    if ((doc.is_object() && doc["stacks"].is_object() && doc["stacks"]["all_blocked"] == true) ||
        std::chrono::steady_clock::now() > deadline) {
      return doc;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

void ExpectRanksIn(const json& doc, const std::string& call01, const std::string& call23) {
  ASSERT_TRUE(doc.is_object());
  ASSERT_EQ(doc["ranks"].size(), 4u) << doc.dump(1);
  for (int r = 0; r < 4; ++r) {
    const json& rank = doc["ranks"][r];
    EXPECT_EQ(rank["rank"], r) << doc.dump(1);
    EXPECT_EQ(rank["state"], "blocked") << doc.dump(1);
    EXPECT_EQ(rank["call"], r < 2 ? call01 : call23) << doc.dump(1);
    // The folded MPI call, then the program's main with its line.
    ASSERT_GE(rank["frames"].size(), 2u) << doc.dump(1);
    EXPECT_EQ(rank["frames"][0]["function"], rank["call"]);
    EXPECT_EQ(rank["frames"][1]["function"], "main") << doc.dump(1);
    EXPECT_TRUE(rank["frames"][1]["line"].is_number()) << doc.dump(1);
  }
}

class ReducedView : public ::testing::TestWithParam<std::string> {};

TEST_P(ReducedView, CycleLiveIsHungAndFromCoresAllBlocked) {
  MpiJob job(GetParam(), "ssend_cycle", 4);
  job.set_without_runtime();
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const json settled = SettledJob(job);
  ExpectRanksIn(settled, "MPI_Ssend", "MPI_Ssend");
  EXPECT_EQ(settled["view"], "stacks");
  EXPECT_TRUE(settled["deadlock"].is_null());
  EXPECT_EQ(settled["stacks"]["ranks_by_order"], false) << "ranks from the environment";
  EXPECT_EQ(settled["rank_classes"].size(), 1u) << settled.dump(1);

  // Text, with the second read: hung, never a deadlock.
  MpidbgResult text = Mpidbg({"job", "--pids", job.PidList(), "--confirm", "0.5"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(StartsWith(text.out, kFirstLine)) << text.out;
  EXPECT_NE(text.out.find("\nHUNG: all ranks blocked in MPI (0-3)"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("DEADLOCK"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("ranks 0-3: MPI_Ssend"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("ssend_cycle.c:"), std::string::npos) << text.out;

  // A process that is no MPI rank among the pids (what `pgrep -f app` finds beside the
  // ranks: the launcher, a `timeout`): left out, named once, the verdict whole.
  ScopedProcess sleeper({"/bin/sleep", "60"}, ::testing::TempDir() + "reduced_view_stray.log");
  const pid_t stray = sleeper.pid();
  ASSERT_GT(stray, 0);
  const std::string with_stray = job.PidList() + "," + std::to_string(stray);
  MpidbgResult stray_text = Mpidbg({"job", "--pids", with_stray, "--confirm", "0.5"});
  EXPECT_EQ(stray_text.exit_code, 0) << stray_text.err;
  EXPECT_NE(stray_text.out.find("left out: pid " + std::to_string(stray) +
                                ": not an MPI process (no MPI library loaded)\n"),
            std::string::npos) << stray_text.out;
  EXPECT_NE(stray_text.out.find("\nHUNG: all ranks blocked in MPI (0-3)"), std::string::npos)
      << stray_text.out;
  const std::string said = " (sleep) is not an MPI process: it loads no MPI library";
  const std::size_t first = stray_text.err.find(said);
  EXPECT_NE(first, std::string::npos) << stray_text.err;
  EXPECT_EQ(stray_text.err.find(said, first + 1), std::string::npos)
      << "said once, not again by the second read:\n" << stray_text.err;
  MpidbgResult stray_json = Mpidbg({"job", "--pids", with_stray, "--json", "--confirm", "0"});
  EXPECT_EQ(stray_json.exit_code, 0) << stray_json.err;
  ASSERT_TRUE(stray_json.json.is_object()) << stray_json.out;
  EXPECT_EQ(stray_json.json["complete"], true) << stray_json.json.dump(1);
  EXPECT_EQ(stray_json.json["ranks"].size(), 4u);
  ASSERT_EQ(stray_json.json["left_out"].size(), 1u) << stray_json.json.dump(1);
  EXPECT_EQ(stray_json.json["left_out"][0]["pid"], stray);
  EXPECT_EQ(stray_json.json["left_out"][0]["source"], "live");
  // The same in a node record: the trailer skips it, and no rank failed.
  const std::string stray_record = ::testing::TempDir() + "reduced_stray_record.jsonl";
  MpidbgResult stray_collected = Mpidbg({"collect", "--pids", with_stray, "-o", stray_record});
  EXPECT_EQ(stray_collected.exit_code, 0) << stray_collected.err;
  const std::string lines = ReadFile(stray_record);
  const std::size_t last = lines.find_last_of('\n', lines.size() >= 2 ? lines.size() - 2 : 0);
  const json trailer = json::parse(lines.substr(last == std::string::npos ? 0 : last + 1),
                                   nullptr, false);
  ASSERT_TRUE(trailer.is_object()) << lines;
  EXPECT_EQ(trailer["ranks_failed"], 0) << trailer.dump();
  ASSERT_EQ(trailer["skipped"].size(), 1u) << trailer.dump();
  EXPECT_EQ(trailer["skipped"][0]["pid"], stray);
  EXPECT_EQ(trailer["skipped"][0]["error_kind"], 1);
  std::remove(stray_record.c_str());
  sleeper.Kill();
  // Gone now: an unreadable target, said once on stderr though the job is read twice.
  MpidbgResult gone = Mpidbg({"job", "--pids", with_stray, "--confirm", "0.5"});
  EXPECT_EQ(gone.exit_code, 4) << gone.err;
  const std::string gone_said = "no process " + std::to_string(stray);
  const std::size_t at = gone.err.find(gone_said);
  EXPECT_NE(at, std::string::npos) << gone.err;
  EXPECT_EQ(gone.err.find(gone_said, at + 1), std::string::npos)
      << "said once, not again by the second read:\n" << gone.err;

  // Counters and samples are the runtime's: matrix and profile say the ranks have none,
  // and why, not that they are no MPI processes or lack some symbol.
  for (const char* command : {"matrix", "profile"}) {
    MpidbgResult none = Mpidbg({command, "--pids", job.PidList()});
    EXPECT_EQ(none.exit_code, 1) << command << ": " << none.err;
    // MPICH: no DLL at all ("it loads libmpich..."); Open MPI names its own DLL.
    EXPECT_NE(none.err.find("no rank of the job could be read: the process does not run the "
                            "mpidbg runtime ("),
              std::string::npos) << command << ": " << none.err;
    if (GetParam() == "mpich") {
      EXPECT_NE(none.err.find("(it loads libmpich"), std::string::npos) << none.err;
    }
    EXPECT_NE(none.err.find("run the job under `mpidbg run --monitor` or `--profile`"),
              std::string::npos) << none.err;
  }

  // One rank alone: `snapshot --json` says the view and the rank's source.
  MpidbgResult one = Mpidbg({"snapshot", "--pid", std::to_string(job.pids()[0]), "--json"});
  EXPECT_EQ(one.exit_code, 0) << one.err;
  ASSERT_TRUE(one.json.is_object()) << one.out;
  EXPECT_EQ(one.json["view"], "stacks");
  EXPECT_TRUE(one.json["process"]["rank_from"].is_string()) << one.json["process"].dump();
  ASSERT_FALSE(one.json["threads"].empty());
  EXPECT_EQ(one.json["threads"][0]["call"], "MPI_Ssend") << one.json["threads"].dump(1);
  EXPECT_EQ(one.json["threads"][0]["blocked"], true);

  // Through a node record (`collect`, then `job --nodes`): the view travels with it.
  const std::string record = ::testing::TempDir() + "reduced_node_record.jsonl";
  MpidbgResult collected = Mpidbg({"collect", "--pids", job.PidList(), "-o", record});
  EXPECT_EQ(collected.exit_code, 0) << collected.err;
  MpidbgResult merged = Mpidbg({"job", "--nodes", record});
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_TRUE(StartsWith(merged.out, kFirstLine)) << merged.out;
  EXPECT_NE(merged.out.find("ranks 0-3: MPI_Ssend"), std::string::npos) << merged.out;
  std::remove(record.c_str());

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  std::vector<std::string> args = {"job", "--cores"};
  args.insert(args.end(), cores.begin(), cores.end());
  MpidbgResult core_text = Mpidbg(args);
  EXPECT_EQ(core_text.exit_code, 0) << core_text.err;
  EXPECT_TRUE(StartsWith(core_text.out, kFirstLine)) << core_text.out;
  EXPECT_NE(core_text.out.find("ALL RANKS BLOCKED IN MPI (0-3), read once"), std::string::npos)
      << core_text.out;
  EXPECT_EQ(core_text.out.find("ranks numbered by the order"), std::string::npos)
      << "ranks from the cores' environment\n" << core_text.out;
  args.push_back("--json");
  MpidbgResult core_json = Mpidbg(args);
  EXPECT_EQ(core_json.exit_code, 0) << core_json.err;
  ExpectRanksIn(core_json.json, "MPI_Ssend", "MPI_Ssend");
  for (const json& r : core_json.json["ranks"]) EXPECT_EQ(r["source"], "core");
}

TEST_P(ReducedView, CollectiveMismatchShowsTheTwoCollectives) {
  MpiJob job(GetParam(), "collective_mismatch", 4);
  job.set_without_runtime();
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const json settled = SettledJob(job);
  ExpectRanksIn(settled, "MPI_Barrier", "MPI_Allreduce");
  const json& sides = settled["stacks"]["different_collectives"];
  ASSERT_EQ(sides.size(), 2u) << settled.dump(1);
  EXPECT_EQ(sides[0]["call"], "MPI_Barrier");
  EXPECT_EQ(sides[0]["ranks"], json({0, 1}));
  EXPECT_EQ(sides[1]["call"], "MPI_Allreduce");
  EXPECT_EQ(settled["rank_classes"].size(), 2u) << settled.dump(1);
  MpidbgResult text = Mpidbg({"job", "--pids", job.PidList()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(StartsWith(text.out, kFirstLine)) << text.out;
  EXPECT_NE(text.out.find("the stacks show ranks in different collectives:\n  ranks 0-1: "
                          "MPI_Barrier\n  ranks 2-3: MPI_Allreduce\n"),
            std::string::npos)
      << text.out;
  job.Kill();
}

// Built with -O2 -g: the communicator argument is read from the callers' DWARF call
// sites, so the stacks prove the mismatch on MPI_COMM_WORLD.
TEST_P(ReducedView, OptimisedCollectiveMismatchIsProvenOnTheWorld) {
  MpiJob job(GetParam(), "collective_mismatch_o2", 4);
  job.set_without_runtime();
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const json settled = SettledJob(job);
  ExpectRanksIn(settled, "MPI_Barrier", "MPI_Allreduce");
  for (const json& r : settled["ranks"]) {
    EXPECT_EQ(r["arguments_from"], "caller_frame") << settled.dump(1);
    EXPECT_EQ(r["comm_name"], "MPI_COMM_WORLD") << settled.dump(1);
  }
  ASSERT_TRUE(settled["collective_mismatches"].is_array()) << settled.dump(1);
  ASSERT_EQ(settled["collective_mismatches"].size(), 1u);
  EXPECT_EQ(settled["collective_mismatches"][0]["comm_name"], "MPI_COMM_WORLD");
  MpidbgResult text = Mpidbg({"job", "--pids", job.PidList()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("COLLECTIVE MISMATCH on MPI_COMM_WORLD: ranks 0-1 in MPI_Barrier, "
                          "ranks 2-3 in MPI_Allreduce\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("ranks 0-1: MPI_Barrier(comm=MPI_COMM_WORLD)"), std::string::npos)
      << text.out;
  // From cores the same: the preserved registers come from the cores' notes.
  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  std::vector<std::string> args = {"job", "--cores"};
  args.insert(args.end(), cores.begin(), cores.end());
  MpidbgResult core_text = Mpidbg(args);
  EXPECT_EQ(core_text.exit_code, 0) << core_text.err;
  EXPECT_NE(core_text.out.find("COLLECTIVE MISMATCH on MPI_COMM_WORLD"), std::string::npos)
      << core_text.out;
}

INSTANTIATE_TEST_SUITE_P(Flavours, ReducedView, ::testing::ValuesIn(BuiltFlavours()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
