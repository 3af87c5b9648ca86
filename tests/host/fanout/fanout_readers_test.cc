// fanout_readers_test.cc — whole fan-outs over fake readers (sh children printing framed
// records written here): every node complete gives the verdict of one machine; a node
// whose stream is cut, that sends garbage, fails or hangs past the timeout is named with
// why, the others are kept, and nothing is left running.
#include "host/fanout/fanout_collect.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/collect/node_record_writer.h"
#include "host/fanout/node_frames.h"
#include "host/fanout/phase_clock.h"
#include "host/fanout/reader_processes.h"
#include "host/job/job_analysis.h"
#include "job_patterns.h"

namespace mpidbg::host {
namespace {

constexpr int kRanks = 8;
constexpr int kNodes = 4;

// Alive and not a zombie waiting for whoever inherited it.
bool Running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  std::size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

// The framed record of `host` holding ranks [first, first + count) of a ring of `size`.
std::string FramedRecord(const std::string& host, int first, int count, int size = kRanks) {
  std::ostringstream out;
  {
    FramedOutput framed(out, host);
    NodeRecordWriter writer(framed.stream());
    writer.Header({host, "77", count, "test"});
    for (int r = first; r < first + count; ++r) {
      writer.Rank(scale::MakeRankSnapshot("ring", r, size));
    }
    writer.Trailer(0.1);
  }
  return out.str();
}

class FanoutReaders : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mpidbg-fanout-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    for (int n = 0; n < 4; ++n) {
      std::string host = "node" + std::to_string(n + 1);
      std::ofstream(File(host)) << FramedRecord(host, 2 * n, 2);
    }
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::string File(const std::string& host) const { return dir_ + "/" + host + ".frames"; }

  // One `sh -c SCRIPT` reader covering `hosts`.
  static RemoteRead Sh(const std::string& script, std::vector<std::string> hosts) {
    RemoteRead r;
    r.command.argv = {"sh", "-c", script};
    r.hosts = std::move(hosts);
    return r;
  }

  FanoutResult Run(const std::vector<RemoteRead>& reads, double timeout = 20) {
    PhaseClock clock(phases_);
    clock.Start("fan-out");
    FanoutPlan plan;
    plan.reads = reads;
    plan.hosts = {"node1", "node2", "node3", "node4"};
    return CollectSnapshots(plan, timeout, clock);
  }

  std::string Why(const FanoutResult& r, const std::string& host) const {
    for (const NodeRecordSummary& n : r.nodes) {
      if (n.hostname == host) return n.complete ? "" : n.status.message();
    }
    return "no summary for " + host;
  }

  std::string dir_;
  std::FILE* phases_ = tmpfile();
};

TEST_F(FanoutReaders, AllNodesThroughOneInterleavingCommand) {
  // Like srun: one command, the nodes' frames interleaved line by line.
  std::string script = "paste -d '\\n' " + File("node1") + " " + File("node2") + " " +
                       File("node3") + " " + File("node4") + " | grep -v '^$'";
  FanoutResult r = Run({Sh(script, {"node1", "node2", "node3", "node4"})});
  ASSERT_EQ(r.nodes.size(), 4u);
  for (const NodeRecordSummary& n : r.nodes) EXPECT_TRUE(n.complete) << n.hostname << ": " << n.status.message();
  ASSERT_EQ(r.snaps.size(), static_cast<std::size_t>(kRanks));
  std::vector<model::ProcessSnapshot> alone;
  for (int i = 0; i < kRanks; ++i) alone.push_back(scale::MakeRankSnapshot("ring", i, kRanks));
  job::JobReport across = job::Analyze(r.snaps), one = job::Analyze(alone);
  EXPECT_EQ(across.deadlock.detected, one.deadlock.detected);
  EXPECT_EQ(job::ToJson(across)["deadlock"], job::ToJson(one)["deadlock"]);
  // Every phase was reported.
  std::rewind(phases_);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), phases_));
  for (const char* phase : {"phase fan-out", "phase collection", "phase merge"}) {
    EXPECT_NE(text.find(phase), std::string::npos) << text;
  }
}

TEST_F(FanoutReaders, APdshStylePrefixIsSkipped) {
  std::vector<RemoteRead> reads;
  for (const char* h : {"node1", "node2", "node3", "node4"}) {
    reads.push_back(Sh(std::string("sed 's/^/") + h + ": /' " + File(h), {h}));
  }
  FanoutResult r = Run(reads);
  for (const NodeRecordSummary& n : r.nodes) EXPECT_TRUE(n.complete) << n.hostname << ": " << n.status.message();
  EXPECT_EQ(r.snaps.size(), static_cast<std::size_t>(kRanks));
}

TEST_F(FanoutReaders, ACutStreamAGarbageStreamAndAFailureAreEachNamed) {
  std::vector<RemoteRead> reads = {
      Sh("cat " + File("node1"), {"node1"}),
      Sh("head -c 1500 " + File("node2") + "; exit 0", {"node2"}),                   // cut
      Sh("head -n 3 " + File("node3") + "; echo '@mpidbg.frame/1 node3 3 . 3 %%%'", {"node3"}),
      Sh("head -n 2 " + File("node4") + "; exit 3", {"node4"}),                      // fails
  };
  FanoutResult r = Run(reads);
  ASSERT_EQ(r.nodes.size(), 4u);
  EXPECT_EQ(Why(r, "node1"), "");
  EXPECT_NE(Why(r, "node2"), "");
  EXPECT_NE(Why(r, "node3").find("garbage"), std::string::npos) << Why(r, "node3");
  EXPECT_NE(Why(r, "node4").find("exited with status 3"), std::string::npos) << Why(r, "node4");
  int readable = 0;
  for (const model::ProcessSnapshot& s : r.snaps) readable += s.process.state != "unreadable";
  EXPECT_GE(readable, 2);  // node1's ranks, and whole ranks of the others
}

TEST_F(FanoutReaders, AHungReaderIsStoppedAtTheTimeoutWithItsChildren) {
  std::string pidfile = dir_ + "/sleeper.pid";
  std::vector<RemoteRead> reads = {
      Sh("cat " + File("node1") + " " + File("node2") + " " + File("node3"),
         {"node1", "node2", "node3"}),
      // Half a record, then a child that would sleep on.
      Sh("head -n 2 " + File("node4") + "; sleep 100 & echo $! > " + pidfile + "; wait",
         {"node4"}),
  };
  auto start = std::chrono::steady_clock::now();
  FanoutResult r = Run(reads, 1.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 10.0);
  EXPECT_NE(Why(r, "node4").find("no answer within"), std::string::npos) << Why(r, "node4");
  for (const char* h : {"node1", "node2", "node3"}) EXPECT_EQ(Why(r, h), "") << h;
  std::ifstream in(pidfile);
  pid_t sleeper = 0;
  ASSERT_TRUE(in >> sleeper);
  usleep(200000);
  EXPECT_FALSE(Running(sleeper)) << "the reader's child outlived the timeout";
}

TEST_F(FanoutReaders, AnInterruptStopsTheReadersAndThenTakesItsCourse) {
  std::string pidfile = dir_ + "/interrupted.pid";
  pid_t front = fork();
  ASSERT_GE(front, 0);
  if (front == 0) {
    // The front end: readers that would run for 100 s.
    RunReaders({ReaderCommand{{"sh", "-c", "sleep 100 & echo $! > " + pidfile + "; wait"}}}, 60,
               [](std::size_t, std::string_view) {}, [] {},
               [](std::size_t, const ReaderOutcome&) {});
    _exit(0);
  }
  for (int i = 0; i < 100 && !std::ifstream(pidfile).good(); ++i) usleep(20000);
  usleep(100000);
  kill(front, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(front, &status, 0), front);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
  std::ifstream in(pidfile);
  pid_t sleeper = 0;
  ASSERT_TRUE(in >> sleeper);
  usleep(200000);
  EXPECT_FALSE(Running(sleeper)) << "a reader outlived the interrupted front end";
}

TEST_F(FanoutReaders, ANodeThatNeverAnswersIsNamed) {
  FanoutResult r = Run({Sh("cat " + File("node1") + " " + File("node2") + " " + File("node3"),
                           {"node1", "node2", "node3", "node4"})});
  EXPECT_NE(Why(r, "node4"), "");
  EXPECT_EQ(Why(r, "node1"), "");
}

TEST_F(FanoutReaders, LargeJobsShowHowManyRanksWereRead) {
  const int per_node = 256, size = per_node * kNodes;
  std::vector<RemoteRead> reads;
  for (int n = 0; n < kNodes; ++n) {
    std::string host = "node" + std::to_string(n + 1);
    std::string file = dir_ + "/big-" + host;
    std::ofstream(file) << FramedRecord(host, n * per_node, per_node, size);
    reads.push_back(Sh("cat " + file, {host}));
  }
  ::testing::internal::CaptureStderr();
  FanoutResult r = Run(reads);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(r.snaps.size(), static_cast<std::size_t>(size));
  EXPECT_NE(err.find("1024 of 1024 ranks read"), std::string::npos) << err;
}

TEST_F(FanoutReaders, ACommandThatCannotRunNamesItsNodes) {
  FanoutResult r = Run({Sh("exec /nonexistent/mpidbg", {"node1", "node2", "node3", "node4"})});
  ASSERT_EQ(r.nodes.size(), 4u);
  for (const NodeRecordSummary& n : r.nodes) EXPECT_FALSE(n.complete);
  EXPECT_TRUE(r.snaps.empty());
}

}  // namespace
}  // namespace mpidbg::host
