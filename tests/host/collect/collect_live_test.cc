// collect_live_test.cc — `mpidbg collect` against a real 4-rank ssend_cycle on each MPI
// under `mpidbg run`: `--job` finds every rank by itself, and `job --nodes` on the
// record, or on two records splitting the ranks, gives the verdict of `job --pids`; a
// record cut short gives an incomplete verdict that names it.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

class CollectLive : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mpidbg-collect-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

std::vector<json> Lines(const std::string& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line, nullptr, false));
  return lines;
}

// What must agree between two views of the same job.
json Verdict(const json& job) {
  json ranks = json::array();
  for (const json& r : job["ranks"]) {
    ranks.push_back({r["rank"], r["pid"], r["state"], r["summary"]});
  }
  return {{"deadlock", job["deadlock"]["detected"]},
          {"deadlocked", job["deadlock"]["ranks"]},
          {"cycle", job["deadlock"]["cycle"]},
          {"groups", job["groups"]},
          {"ranks", ranks}};
}

std::string Join(const std::vector<pid_t>& pids, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += (out.empty() ? "" : ",") + std::to_string(pids[i]);
  return out;
}

TEST_P(CollectLive, RecordsGiveTheVerdictOfThePids) {
  const std::string flavour = GetParam();
  bool built = false;
  for (const std::string& f : BuiltFlavours()) built = built || f == flavour;
  if (!built) GTEST_SKIP() << "the " << flavour << " runtime is not built";
  MpiJob job(flavour, "ssend_cycle", 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;

  // The verdict of the ranks read directly, once the cycle has formed.
  json direct;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  do {
    direct = Mpidbg({"job", "--pids", job.PidList(), "--json", "--confirm", "0"}).json;
    if (direct.is_object() && direct["deadlock"]["detected"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  } while (std::chrono::steady_clock::now() < deadline);
  ASSERT_TRUE(direct.is_object() && direct["deadlock"]["detected"] == true) << direct.dump(1);

  // The job id every rank's launch record holds.
  MpidbgResult one = Mpidbg({"snapshot", "--pid", std::to_string(job.pids()[0]), "--json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::string job_id = one.json["metadata"]["pmi"].value("job_id", "");
  ASSERT_FALSE(job_id.empty()) << one.json["metadata"].dump(1);

  MpidbgResult collected = Mpidbg({"collect", "--job", job_id, "-o", Path("node.jsonl")});
  ASSERT_EQ(collected.exit_code, 0) << collected.err;
  std::vector<json> lines = Lines(Path("node.jsonl"));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines.front()["schema"], "mpidbg.node/1");
  EXPECT_EQ(lines.front()["job"], job_id);
  EXPECT_EQ(lines.front()["ranks"], 4) << collected.err;
  EXPECT_EQ(lines.back()["record"], "trailer");
  EXPECT_EQ(lines.back()["ranks_read"], 4);
  std::vector<int64_t> found;
  for (const json& l : lines) {
    if (l["record"] == "rank") found.push_back(l["snapshot"]["process"]["pid"].get<int64_t>());
  }
  std::sort(found.begin(), found.end());
  std::vector<int64_t> expected(job.pids().begin(), job.pids().end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(found, expected);

  MpidbgResult merged = Mpidbg({"job", "--nodes", Path("node.jsonl"), "--json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(Verdict(merged.json), Verdict(direct));
  EXPECT_EQ(merged.json["incomplete"], false);

  // Two nodes' worth: the ranks split between two records.
  ASSERT_EQ(Mpidbg({"collect", "--pids", Join(job.pids(), 0, 2), "-o", Path("a.jsonl")}).exit_code, 0);
  ASSERT_EQ(Mpidbg({"collect", "--pids", Join(job.pids(), 2, 4), "-o", Path("b.jsonl")}).exit_code, 0);
  MpidbgResult split = Mpidbg({"job", "--nodes", Path("a.jsonl"), Path("b.jsonl"), "--json"});
  ASSERT_EQ(split.exit_code, 0) << split.err;
  EXPECT_EQ(Verdict(split.json), Verdict(direct));

  // The second record cut before its trailer: the verdict is marked incomplete and names it.
  std::string b;
  {
    std::ifstream in(Path("b.jsonl"));
    std::stringstream text;
    text << in.rdbuf();
    b = text.str();
  }
  const std::size_t trailer = b.rfind('\n', b.size() - 2);
  ASSERT_NE(trailer, std::string::npos);
  std::ofstream(Path("cut.jsonl")) << b.substr(0, trailer + 1);
  MpidbgResult cut = Mpidbg({"job", "--nodes", Path("a.jsonl"), Path("cut.jsonl"), "--json"});
  ASSERT_EQ(cut.exit_code, 4) << cut.err;  // a verdict on part of the job
  EXPECT_EQ(cut.json["incomplete"], true);
  EXPECT_EQ(cut.json["complete"], false);
  ASSERT_EQ(cut.json["unreadable_inputs"].size(), 1u) << cut.json.dump(1);
  EXPECT_EQ(cut.json["unreadable_inputs"][0]["input"], Path("cut.jsonl"));
  job.Kill();
}

INSTANTIATE_TEST_SUITE_P(Flavours, CollectLive, ::testing::Values("mpich", "openmpi"));

}  // namespace
}  // namespace mpidbg::itest
