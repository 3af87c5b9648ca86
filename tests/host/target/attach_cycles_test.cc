// attach_cycles_test.cc — 100 attach/read/detach cycles on one live process, through
// the bare live target and through the whole read path (`mpidbg snapshot --pid` as a
// library call: open, choose the DLL, read in a child process, let go). After every
// cycle the process must be as it was found:
//  - a running process runs on: not in a stop ('t'/'T'), no tracer left
//    (TracerPid 0 in every thread), no SIGSTOP left pending, its counter advances;
//  - a process stopped with SIGSTOP stays stopped: every thread in group stop ('T'),
//    no tracer left, its counter frozen;
//  - and its memory is unchanged apart from its own progress: the value only the
//    child wrote, its string and its code bytes (where a careless debugger leaves
//    breakpoint instructions) read the same in every cycle.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "host/snapshot/snapshot_reader.h"
#include "host/target/target_live.h"
#include "target_checks.h"
#include "test_child.h"

namespace mpidbg::host {
namespace {

using test_checks::AddrOf;

constexpr int kCycles = 100;
constexpr int kExtraThreads = 2;
constexpr int kSigstopBit = SIGSTOP - 1;  // bit of SIGSTOP in /proc's signal masks

std::vector<pid_t> Threads(pid_t pid) {
  std::vector<pid_t> out;
  DIR* d = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  while (d != nullptr) {
    dirent* e = readdir(d);
    if (e == nullptr) break;
    if (e->d_name[0] != '.') out.push_back(static_cast<pid_t>(std::atoi(e->d_name)));
  }
  if (d != nullptr) closedir(d);
  return out;
}

// A field of /proc/PID/task/TID/status.
std::string TaskStatus(pid_t pid, pid_t tid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size() + 1, key + ":") == 0) {
      std::string v = line.substr(key.size() + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return "";
}

bool SigstopPending(pid_t pid, pid_t tid) {
  for (const char* key : {"SigPnd", "ShdPnd"}) {
    unsigned long long mask = std::strtoull(TaskStatus(pid, tid, key).c_str(), nullptr, 16);
    if ((mask >> kSigstopBit) & 1ull) return true;
  }
  return false;
}

// What the child's memory holds that must never change.
struct Fixed {
  uint64_t known = 0;
  std::string text;
  unsigned char code[32] = {};
  bool operator==(const Fixed& o) const {
    return known == o.known && text == o.text && std::memcmp(code, o.code, sizeof code) == 0;
  }
};

Fixed ReadFixed(TargetMemory& m) {
  Fixed f;
  EXPECT_TRUE(m.Read(AddrOf(&mpidbg_test_known_value), sizeof f.known, &f.known).ok());
  EXPECT_TRUE(m.ReadCString(AddrOf(mpidbg_test_string), 64, &f.text).ok());
  auto fn = reinterpret_cast<uintptr_t>(&mpidbg_test_function);
  EXPECT_TRUE(m.Read(TargetAddr(fn), sizeof f.code, f.code).ok());
  return f;
}

uint64_t ReadCounter(TargetMemory& m) {
  uint64_t v = 0;
  EXPECT_TRUE(m.Read(AddrOf(&mpidbg_test_counter), sizeof v, &v).ok());
  return v;
}

// Waits (briefly: a detach takes effect at once, the kernel may lag a scheduling tick)
// until every thread shows a state accepted by `ok`; the letters seen otherwise.
std::string StatesUntil(pid_t pid, bool (*ok)(char)) {
  std::string seen;
  for (int attempt = 0; attempt < 200; ++attempt) {
    seen.clear();
    bool all = true;
    for (pid_t tid : Threads(pid)) {
      char c = ThreadStateLetter(pid, tid);
      seen += c;
      all = all && ok(c);
    }
    if (all) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return seen;
}

bool Running(char c) { return c != 't' && c != 'T' && c != 0; }
bool GroupStopped(char c) { return c == 'T'; }

// The checks after each cycle, for every thread.
void ExpectLeftAlone(pid_t child, bool stopped, int cycle) {
  std::string bad = StatesUntil(child, stopped ? GroupStopped : Running);
  EXPECT_EQ(bad, "") << "cycle " << cycle << ": thread states " << bad;
  for (pid_t tid : Threads(child)) {
    EXPECT_EQ(TaskStatus(child, tid, "TracerPid"), "0") << "cycle " << cycle << " thread " << tid;
    if (!stopped) {
      EXPECT_FALSE(SigstopPending(child, tid)) << "cycle " << cycle << " thread " << tid;
    }
  }
}

class AttachCycles : public ::testing::Test {
 protected:
  void SetUp() override {
    child_ = test::StartChild(test::ChildOptions{kExtraThreads});
    ASSERT_EQ(Threads(child_).size(), 1u + kExtraThreads);
  }
  void TearDown() override {
    kill(child_, SIGCONT);
    test::StopChild(child_);
  }
  void StopWithSigstop() {
    kill(child_, SIGSTOP);
    int status = 0;
    ASSERT_EQ(waitpid(child_, &status, WUNTRACED), child_);
    ASSERT_TRUE(WIFSTOPPED(status));
    ASSERT_EQ(StatesUntil(child_, GroupStopped), "");
  }
  // The first read, for the values later cycles compare with.
  void Baseline(Fixed* fixed, uint64_t* counter) {
    auto t = LiveTarget::Attach(child_);
    ASSERT_TRUE(t.ok()) << t.status().message();
    *fixed = ReadFixed(*t.value());
    *counter = ReadCounter(*t.value());
    EXPECT_EQ(fixed->known, test::kChildValue);
    ASSERT_TRUE(t.value()->Detach().ok());
  }
  pid_t child_ = 0;
};

TEST_F(AttachCycles, RunningProcessRunsOnUnchanged) {
  Fixed fixed;
  uint64_t last = 0;
  Baseline(&fixed, &last);
  uint64_t first = last;
  for (int i = 0; i < kCycles; ++i) {
    auto t = LiveTarget::Attach(child_);
    ASSERT_TRUE(t.ok()) << "cycle " << i << ": " << t.status().message();
    EXPECT_FALSE(t.value()->was_stopped());
    EXPECT_EQ(t.value()->tids().size(), 1u + kExtraThreads);
    // Stopped while read: every thread in a trace stop.
    for (int64_t tid : t.value()->tids()) EXPECT_EQ(ThreadStateLetter(child_, tid), 't');
    EXPECT_TRUE(ReadFixed(*t.value()) == fixed) << "cycle " << i;
    uint64_t counter = ReadCounter(*t.value());
    EXPECT_GE(counter, last) << "cycle " << i;
    last = counter;
    ASSERT_TRUE(t.value()->Detach().ok());
    ExpectLeftAlone(child_, false, i);
  }
  // It still makes progress after the last cycle.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto t = LiveTarget::Attach(child_);
  ASSERT_TRUE(t.ok());
  EXPECT_GT(ReadCounter(*t.value()), last);
  EXPECT_GT(last, first) << "the child ran between the cycles";
}

TEST_F(AttachCycles, StoppedProcessStaysStopped) {
  StopWithSigstop();
  Fixed fixed;
  uint64_t frozen = 0;
  Baseline(&fixed, &frozen);
  ExpectLeftAlone(child_, true, -1);
  for (int i = 0; i < kCycles; ++i) {
    auto t = LiveTarget::Attach(child_);
    ASSERT_TRUE(t.ok()) << "cycle " << i << ": " << t.status().message();
    EXPECT_TRUE(t.value()->was_stopped()) << "cycle " << i;
    EXPECT_TRUE(ReadFixed(*t.value()) == fixed) << "cycle " << i;
    EXPECT_EQ(ReadCounter(*t.value()), frozen) << "cycle " << i << ": the stopped child ran";
    ASSERT_TRUE(t.value()->Detach().ok());
    ExpectLeftAlone(child_, true, i);
  }
  // SIGCONT (ours, not the reader's) lets it go on.
  kill(child_, SIGCONT);
  ASSERT_EQ(StatesUntil(child_, Running), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto t = LiveTarget::Attach(child_);
  ASSERT_TRUE(t.ok());
  EXPECT_GT(ReadCounter(*t.value()), frozen);
}

// The whole read path, with the fake message-queue DLL (run in a child process as any
// DLL that is not mpidbg's own): what `mpidbg snapshot --pid` does.
TargetSpec SnapshotSpec(pid_t pid) {
  TargetSpec spec;
  spec.pid = pid;
  spec.plugin = FAKE_DLL_PATH;
  return spec;
}

TEST_F(AttachCycles, SnapshotPathLeavesARunningProcessRunning) {
  Fixed fixed;
  uint64_t before = 0;
  Baseline(&fixed, &before);
  for (int i = 0; i < kCycles; ++i) {
    auto snap = ReadTarget(SnapshotSpec(child_));
    ASSERT_TRUE(snap.ok()) << "cycle " << i << ": " << snap.status().message();
    EXPECT_EQ(snap.value().process.source, "live");
    ASSERT_EQ(snap.value().communicators.size(), 1u);
    ExpectLeftAlone(child_, false, i);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto t = LiveTarget::Attach(child_);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(ReadFixed(*t.value()) == fixed);
  EXPECT_GT(ReadCounter(*t.value()), before);
}

TEST_F(AttachCycles, SnapshotPathLeavesAStoppedProcessStopped) {
  StopWithSigstop();
  Fixed fixed;
  uint64_t frozen = 0;
  Baseline(&fixed, &frozen);
  for (int i = 0; i < kCycles; ++i) {
    auto snap = ReadTarget(SnapshotSpec(child_));
    ASSERT_TRUE(snap.ok()) << "cycle " << i << ": " << snap.status().message();
    ExpectLeftAlone(child_, true, i);
  }
  auto t = LiveTarget::Attach(child_);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t.value()->was_stopped());
  EXPECT_TRUE(ReadFixed(*t.value()) == fixed);
  EXPECT_EQ(ReadCounter(*t.value()), frozen);
}

}  // namespace
}  // namespace mpidbg::host
