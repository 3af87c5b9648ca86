// The tick keeper (core/tick_clock.h): its word follows the coarse clock while it runs,
// is 0 otherwise, its thread blocks every signal, and a forked child reads the clock
// itself.
#include "core/tick_clock.h"

#include <dirent.h>
#include <signal.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "core/clock.h"

namespace {

using namespace mpidbg::core;

int64_t CoarseNow() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void SleepMs(int ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, nullptr);
}

// The "SigBlk:" line of /proc/self/task/*/status of the thread named `name`; empty if
// no such thread.
std::string BlockedSignalsOf(const std::string& name) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return "";
  std::string found;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string base = std::string("/proc/self/task/") + e->d_name;
    std::ifstream comm(base + "/comm");
    std::string comm_name;
    std::getline(comm, comm_name);
    if (comm_name != name) continue;
    std::ifstream status(base + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigBlk:", 0) == 0) found = line.substr(7);
    }
  }
  closedir(dir);
  return found;
}

class TickClockTest : public ::testing::Test {
 protected:
  void TearDown() override { StopTickClock(); }
};

TEST_F(TickClockTest, ZeroWhileNotRunning) {
  StopTickClock();
  EXPECT_FALSE(TickClockRunning());
  EXPECT_EQ(TickNowNs(), 0);
  // Callers then read the clock themselves.
  const int64_t before = CoarseNow();
  const int64_t t = CoarseRealtimeNs();
  EXPECT_GE(t, before);
  EXPECT_LE(t, CoarseNow());
}

TEST_F(TickClockTest, FollowsTheCoarseClock) {
  const int64_t period = 2000000;  // 2 ms
  ASSERT_TRUE(StartTickClock(period));
  EXPECT_TRUE(TickClockRunning());
  const int64_t first = TickNowNs();
  EXPECT_NE(first, 0);
  // Callers get the word (a tick may come between the loads, never a clock reading of
  // their own: that would not be a multiple of the tick's stores).
  const int64_t word = TickNowNs();
  const int64_t read = CoarseRealtimeNs();
  EXPECT_GE(read, word);
  EXPECT_LE(read, TickNowNs());
  // It keeps moving: after 50 periods the word has advanced, and it is never ahead of
  // the clock nor further behind than a few periods plus the clock's own resolution.
  SleepMs(100);
  const int64_t later = TickNowNs();
  EXPECT_GT(later, first);
  const int64_t now = CoarseNow();
  EXPECT_LE(later, now);
  EXPECT_GE(later, now - 20 * period - TickPeriodNs(0));
}

TEST_F(TickClockTest, StopsAndRestarts) {
  ASSERT_TRUE(StartTickClock(1000000));
  ASSERT_TRUE(StartTickClock(1000000));  // already running: no second thread
  StopTickClock();
  EXPECT_FALSE(TickClockRunning());
  EXPECT_EQ(TickNowNs(), 0);
  EXPECT_EQ(BlockedSignalsOf("mpidbg-clock"), "");
  ASSERT_TRUE(StartTickClock(1000000));
  EXPECT_NE(TickNowNs(), 0);
}

TEST_F(TickClockTest, KeeperBlocksEverySignal) {
  ASSERT_TRUE(StartTickClock(1000000));
  const std::string blocked = BlockedSignalsOf("mpidbg-clock");
  ASSERT_FALSE(blocked.empty()) << "no thread named mpidbg-clock";
  // Every signal an application can handle: all but SIGKILL and SIGSTOP (the kernel
  // blocks neither) and the C library's own real-time signals below SIGRTMIN (32 and
  // 33 in glibc, which never lets a thread block them).
  const unsigned long long mask = std::stoull(blocked, nullptr, 16);
  unsigned long long unblockable = (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1));
  for (int sig = 32; sig < SIGRTMIN; ++sig) unblockable |= 1ULL << (sig - 1);
  EXPECT_EQ(mask | unblockable, ~0ULL) << blocked;
}

TEST_F(TickClockTest, ForkedChildReadsTheClockItself) {
  ASSERT_TRUE(StartTickClock(1000000));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Only this thread survived the fork: a frozen word would be wrong.
    int code = 0;
    if (TickNowNs() != 0) code |= 1;
    if (TickClockRunning()) code |= 2;
    if (CoarseRealtimeNs() <= 0) code |= 4;
    // The child may start a keeper of its own.
    if (!StartTickClock(1000000) || TickNowNs() == 0) code |= 8;
    StopTickClock();
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // The parent's keeper is untouched.
  EXPECT_TRUE(TickClockRunning());
  EXPECT_NE(TickNowNs(), 0);
}

TEST(TickPeriod, RequestedOrTheClockResolution) {
  EXPECT_EQ(TickPeriodNs(5), 5000000);
  EXPECT_EQ(TickPeriodNs(1000), 1000000000);
  struct timespec res;
  ASSERT_EQ(clock_getres(CLOCK_REALTIME_COARSE, &res), 0);
  EXPECT_EQ(TickPeriodNs(0), res.tv_nsec);
  EXPECT_EQ(TickPeriodNs(-1), res.tv_nsec);
  EXPECT_EQ(TickPeriodNs(1001), res.tv_nsec);
}

}  // namespace
