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

// Polls `done` every millisecond for up to 5 s (the machine may be loaded: the keeper's
// ticks are counted, not timed).
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 5000; ++i) {
    if (done()) return true;
    SleepMs(1);
  }
  return done();
}

TEST_F(TickClockTest, IdlesWhileTheActivityCounterStandsStill) {
  uint64_t activity = 0;
  ASSERT_TRUE(StartTickClock(1000000, &activity));
  EXPECT_NE(TickNowNs(), 0);
  // No activity: after its quiet ticks the keeper gives the word up (0: callers read the
  // clock themselves), and callers still get the time.
  ASSERT_TRUE(Eventually([] { return TickNowNs() == 0; }));
  EXPECT_TRUE(TickClockRunning());
  const int64_t before = CoarseNow();
  EXPECT_GE(CoarseRealtimeNs(), before);
  // A single step is not enough to resume (250 idle-period ticks' worth is)...
  __atomic_store_n(&activity, 1, __ATOMIC_RELAXED);
  SleepMs(600);
  EXPECT_EQ(TickNowNs(), 0);
  // ... activity again is: ticking resumes (the keeper looks every 250 ms while idle).
  __atomic_store_n(&activity, 1000, __ATOMIC_RELAXED);
  ASSERT_TRUE(Eventually([] { return TickNowNs() != 0; }));
  EXPECT_GE(TickNowNs(), before - TickPeriodNs(0));
  // Stopping an idle keeper is as quick as stopping a ticking one.
  ASSERT_TRUE(Eventually([] { return TickNowNs() == 0; }));
  StopTickClock();
  EXPECT_FALSE(TickClockRunning());
}

TEST_F(TickClockTest, KeepsTickingWhileTheCounterMoves) {
  uint64_t activity = 0;
  // 10 ms ticks, moved every millisecond for 500 ms (50 ticks, twice the quiet ticks):
  // never idle. Idling would need 250 ms without a move, beyond any scheduling delay.
  ASSERT_TRUE(StartTickClock(10000000, &activity));
  bool ever_zero = false;
  for (int i = 0; i < 500; ++i) {
    __atomic_add_fetch(&activity, 1, __ATOMIC_RELAXED);
    ever_zero = ever_zero || TickNowNs() == 0;
    SleepMs(1);
  }
  EXPECT_FALSE(ever_zero);
}

TEST_F(TickClockTest, IdlesWhenTheCounterMovesTooLittle) {
  uint64_t activity = 0;
  // 1 ms ticks that pay from 100 steps per tick; the counter moves about 1 per tick.
  ASSERT_TRUE(StartTickClock(1000000, &activity, 100));
  bool idled = false;
  for (int i = 0; i < 5000 && !idled; ++i) {
    __atomic_add_fetch(&activity, 1, __ATOMIC_RELAXED);
    idled = TickNowNs() == 0;
    SleepMs(1);
  }
  EXPECT_TRUE(idled);
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
