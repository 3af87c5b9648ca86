// job_scale_test.cc — `mpidbg job --snapshots DIR --json` on synthetic jobs of 4096
// ranks: the verdicts are asserted; wall time and peak memory of each run are printed
// for the record, never asserted (machines differ).
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "job_patterns.h"

namespace mpidbg::scale {
namespace {

constexpr int kRanks = 4096;
constexpr unsigned kRunLimitSeconds = 300;  // a run that takes longer is killed

struct JobRun {
  int exit_code = -1;
  std::string out_path;  // the command's stdout
  long long out_bytes = 0;
  double seconds = 0;
  long max_rss_kb = 0;
};

// Removes the files of `dir` (no subdirectories are created) and `dir` itself.
void RemoveFlatDir(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") unlink((dir + "/" + name).c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

class JobScale : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/mpidbg-scale-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    root_ = templ;
    snaps_ = root_ + "/snaps";
    ASSERT_EQ(mkdir(snaps_.c_str(), 0700), 0);
  }
  void TearDown() override {
    if (root_.empty()) return;
    RemoveFlatDir(snaps_);
    RemoveFlatDir(root_);
  }

  // Fresh snapshot directory holding `pattern` at `ranks`.
  void Generate(const std::string& pattern, int ranks) {
    RemoveFlatDir(snaps_);
    ASSERT_EQ(mkdir(snaps_.c_str(), 0700), 0);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(WritePattern(pattern, ranks, snaps_), "");
    std::printf("[ scale    ] %-15s %5d ranks: generated in %.2f s\n", pattern.c_str(), ranks,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }

  // Runs `mpidbg job --snapshots DIR --json` with its own wall time and peak RSS
  // (wait4 gives the child's own rusage, so earlier runs do not blur the figure).
  JobRun RunJob() {
    JobRun run;
    const std::string out_path = root_ + "/job.out";
    run.out_path = out_path;
    std::fflush(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t child = fork();
    if (child == 0) {
      int fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(126);
      alarm(kRunLimitSeconds);  // survives exec: SIGALRM ends a run that hangs
      execl(MPIDBG_EXE, MPIDBG_EXE, "job", "--snapshots", snaps_.c_str(), "--json",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    if (child < 0) return run;
    int status = 0;
    rusage usage{};
    if (wait4(child, &status, 0, &usage) != child) return run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.max_rss_kb = usage.ru_maxrss;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    struct stat st{};
    if (stat(out_path.c_str(), &st) == 0) run.out_bytes = st.st_size;
    return run;
  }

  // Generates, runs, prints the figures, and parses the job document.
  nlohmann::json Measure(const std::string& pattern, int ranks, JobRun* run_out = nullptr) {
    Generate(pattern, ranks);
    if (HasFatalFailure()) return nullptr;
    JobRun run = RunJob();
    std::printf("[ scale    ] %-15s %5d ranks: mpidbg job %.2f s wall, peak RSS %.1f MiB\n",
                pattern.c_str(), ranks, run.seconds, static_cast<double>(run.max_rss_kb) / 1024);
    std::fflush(stdout);
    EXPECT_EQ(run.exit_code, 0) << "mpidbg job failed for " << pattern;
    // With ANY_SOURCE every rank has an edge to every other rank: count the edges
    // while parsing instead of keeping millions of them in memory.
    size_t edges = 0;
    bool in_edges = false;
    auto drop_edges = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
      using E = nlohmann::json::parse_event_t;
      if (event == E::key && depth == 2 && parsed == "edges") in_edges = true;
      if (in_edges && event == E::array_end && depth == 2) in_edges = false;
      if (in_edges && event == E::object_end && depth == 3) {
        ++edges;
        return false;
      }
      return true;
    };
    std::ifstream in(run.out_path);
    nlohmann::json doc = nlohmann::json::parse(in, drop_edges, false);
    in.close();
    unlink(run.out_path.c_str());
    std::printf("[ scale    ] %-15s %5d ranks: output %.1f MiB, %zu wait-for edges\n",
                pattern.c_str(), ranks, static_cast<double>(run.out_bytes) / (1 << 20), edges);
    std::fflush(stdout);
    if (run_out != nullptr) *run_out = run;
    EXPECT_FALSE(doc.is_discarded()) << "the output of mpidbg job is not JSON";
    if (doc.is_discarded()) return nullptr;
    EXPECT_EQ(doc.value("schema", ""), "mpidbg.job/1");
    EXPECT_EQ(doc.at("ranks").size(), static_cast<size_t>(ranks));
    return doc;
  }

  std::string root_;
  std::string snaps_;
};

TEST_F(JobScale, RingOfSsendsIsOneCycleOfAllRanks) {
  nlohmann::json doc = Measure("ring", kRanks);
  ASSERT_FALSE(doc.is_null());
  const nlohmann::json& dl = doc.at("deadlock");
  EXPECT_TRUE(dl.at("detected").get<bool>());
  EXPECT_EQ(dl.at("ranks").size(), static_cast<size_t>(kRanks));
  EXPECT_EQ(dl.at("cycle").size(), static_cast<size_t>(kRanks));
}

TEST_F(JobScale, BarrierButOneDeadlocksAllRanks) {
  nlohmann::json doc = Measure("barrier-but-one", kRanks);
  ASSERT_FALSE(doc.is_null());
  const nlohmann::json& dl = doc.at("deadlock");
  EXPECT_TRUE(dl.at("detected").get<bool>());
  EXPECT_EQ(dl.at("ranks").size(), static_cast<size_t>(kRanks));
}

TEST_F(JobScale, AllAnySourceReceivesDeadlockAllRanks) {
  nlohmann::json doc = Measure("any-source", kRanks);
  ASSERT_FALSE(doc.is_null());
  const nlohmann::json& dl = doc.at("deadlock");
  EXPECT_TRUE(dl.at("detected").get<bool>());
  EXPECT_EQ(dl.at("ranks").size(), static_cast<size_t>(kRanks));
  // Each rank's wait on any of the 4095 others is one wait set, not 4095 edges.
  ASSERT_EQ(dl.at("wait_sets").size(), static_cast<size_t>(kRanks));
  EXPECT_EQ(dl.at("wait_sets")[0].at("count"), kRanks - 1);
  EXPECT_EQ(dl.at("wait_sets")[0].at("ranks"), "1-" + std::to_string(kRanks - 1));
}

TEST_F(JobScale, HealthyJobHasNoDeadlock) {
  nlohmann::json doc = Measure("healthy", kRanks);
  ASSERT_FALSE(doc.is_null());
  const nlohmann::json& dl = doc.at("deadlock");
  EXPECT_FALSE(dl.at("detected").get<bool>());
  EXPECT_TRUE(dl.at("ranks").empty());
  for (const nlohmann::json& r : doc.at("ranks")) {
    EXPECT_EQ(r.at("state"), "not_in_mpi");
    if (HasFailure()) break;
  }
}

// Time and memory at 1024 and 4096 ranks. Each rank's document lists the 4096 world
// ranks, so the input itself grows with ranks squared; the figures show how the whole
// command follows.
TEST_F(JobScale, RingAt1024And4096Ranks) {
  JobRun small, large;
  nlohmann::json a = Measure("ring", 1024, &small);
  ASSERT_FALSE(a.is_null());
  nlohmann::json b = Measure("ring", kRanks, &large);
  ASSERT_FALSE(b.is_null());
  EXPECT_TRUE(a.at("deadlock").at("detected").get<bool>());
  EXPECT_TRUE(b.at("deadlock").at("detected").get<bool>());
  std::printf("[ scale    ] ring 1024 -> 4096 ranks (x4): time x%.1f (%.2f s -> %.2f s), "
              "peak RSS x%.1f (%.1f -> %.1f MiB)\n",
              small.seconds > 0 ? large.seconds / small.seconds : 0.0, small.seconds,
              large.seconds,
              small.max_rss_kb > 0 ? static_cast<double>(large.max_rss_kb) / small.max_rss_kb : 0.0,
              small.max_rss_kb / 1024.0, large.max_rss_kb / 1024.0);
}

}  // namespace
}  // namespace mpidbg::scale
