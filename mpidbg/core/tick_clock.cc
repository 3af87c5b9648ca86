// tick_clock.cc — the keeper thread behind TickNowNs() (tick_clock.h).
#include "core/tick_clock.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "core/clock.h"

namespace mpidbg::core {

int64_t g_tick_now_ns = 0;

namespace {

// Idle: after this many ticks in a row with too little activity the keeper stops
// ticking, and looks every kIdlePeriodNs instead (tick_clock.h).
constexpr int kQuietTicks = 25;
constexpr int64_t kIdlePeriodNs = 250000000;

// The keeper's state; g_mutex guards all of it but g_tick_now_ns.
pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t g_wake;  // CLOCK_MONOTONIC, initialised by the first start
bool g_cond_ready = false;
bool g_running = false;
bool g_stop = false;
int64_t g_period_ns = 0;
const uint64_t* g_activity = nullptr;  // see StartTickClock; nullptr: always tick
uint64_t g_min_activity = 0;           // per tick, for ticking to pay
void (*g_chore)() = nullptr;           // see StartTickClock
pthread_t g_thread;
bool g_atfork_registered = false;

int64_t ReadCoarse() { return ClockNs(CLOCK_REALTIME_COARSE); }

void Store(int64_t ns) { __atomic_store_n(&g_tick_now_ns, ns, __ATOMIC_RELAXED); }

// The chore without g_mutex, so a stop is never held up by it. g_mutex held.
void RunChore() {
  if (g_chore == nullptr) return;
  pthread_mutex_unlock(&g_mutex);
  g_chore();
  pthread_mutex_lock(&g_mutex);
}

// Sleeps until `period_ns` from now or a stop, then runs the chore; false when
// stopped. g_mutex held.
bool WaitFor(int64_t period_ns) {
  const int64_t end = ClockNs(CLOCK_MONOTONIC) + period_ns;
  struct timespec until;
  until.tv_sec = static_cast<time_t>(end / 1000000000);
  until.tv_nsec = static_cast<long>(end % 1000000000);
  // Spurious or early wake-ups only mean an extra tick.
  while (!g_stop && pthread_cond_timedwait(&g_wake, &g_mutex, &until) == 0) {
  }
  if (g_stop) return false;
  RunChore();
  return !g_stop;
}

uint64_t Activity() {
  return g_activity != nullptr ? __atomic_load_n(g_activity, __ATOMIC_RELAXED) : 0;
}

// Too little activity for ticks to pay: stop ticking (calls read the clock themselves
// while the word is 0) and look a few times a second until there is enough again.
// False when stopped.
bool IdleUntilBusy(uint64_t* seen) {
  Store(0);
  // Enough over an idle period: as much as its ticks would have needed.
  const uint64_t enough = g_min_activity * static_cast<uint64_t>(kIdlePeriodNs / g_period_ns);
  for (;;) {
    if (!WaitFor(kIdlePeriodNs)) return false;
    const uint64_t now = Activity();
    const bool busy = now - *seen >= (enough > 0 ? enough : 1);
    *seen = now;
    if (busy) return true;
  }
}

void* KeeperMain(void*) {
  pthread_mutex_lock(&g_mutex);
  uint64_t seen = Activity();
  int quiet_ticks = 0;
  for (;;) {
    if (g_activity != nullptr && quiet_ticks >= kQuietTicks) {
      if (!IdleUntilBusy(&seen)) break;
      quiet_ticks = 0;
    }
    Store(ReadCoarse());
    if (!WaitFor(g_period_ns)) break;
    const uint64_t now = Activity();
    quiet_ticks = now - seen < (g_min_activity > 0 ? g_min_activity : 1) ? quiet_ticks + 1 : 0;
    seen = now;
  }
  pthread_mutex_unlock(&g_mutex);
  return nullptr;
}

// In a child after fork() only the forking thread exists: the keeper is gone, and the
// stamps must not stand still. The child reads the clock itself until it starts a
// keeper of its own (it never will: MPI is not re-initialised in a forked child).
void AfterForkInChild() {
  g_running = false;
  g_stop = false;
  Store(0);
  // The keeper may have held the mutex, or waited on the condition, at the fork.
  pthread_mutex_init(&g_mutex, nullptr);
  g_cond_ready = false;
}

}  // namespace

int64_t TickPeriodNs(long requested_ms) {
  if (requested_ms >= 1 && requested_ms <= 1000) return requested_ms * 1000000;
  struct timespec res;
  if (clock_getres(CLOCK_REALTIME_COARSE, &res) == 0 && res.tv_sec == 0 && res.tv_nsec > 0) {
    return res.tv_nsec;
  }
  return 4000000;  // HZ=250, the common kernel tick
}

bool StartTickClock(int64_t period_ns, const uint64_t* activity, uint64_t min_activity,
                    void (*chore)()) {
  pthread_mutex_lock(&g_mutex);
  if (g_running) {
    pthread_mutex_unlock(&g_mutex);
    return true;
  }
  if (!g_cond_ready) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g_wake, &attr);
    pthread_condattr_destroy(&attr);
    g_cond_ready = true;
  }
  if (!g_atfork_registered) {
    g_atfork_registered = pthread_atfork(nullptr, nullptr, AfterForkInChild) == 0;
  }
  g_period_ns = period_ns > 0 ? period_ns : TickPeriodNs(0);
  g_activity = activity;
  g_min_activity = min_activity;
  g_chore = chore;
  g_stop = false;
  // The first stamp before any caller can see the keeper as running.
  Store(ReadCoarse());
  // Every signal blocked in the new thread (it inherits the creator's mask): no
  // handler of the application's may run on it.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  const int rc = pthread_create(&g_thread, &attr, KeeperMain, nullptr);
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (rc != 0) {
    Store(0);
    pthread_mutex_unlock(&g_mutex);
    return false;
  }
  pthread_setname_np(g_thread, "mpidbg-clock");
  g_running = true;
  pthread_mutex_unlock(&g_mutex);
  return true;
}

void StopTickClock() {
  pthread_mutex_lock(&g_mutex);
  if (!g_running) {
    pthread_mutex_unlock(&g_mutex);
    return;
  }
  g_stop = true;
  pthread_cond_signal(&g_wake);
  const pthread_t thread = g_thread;
  g_running = false;
  pthread_mutex_unlock(&g_mutex);
  pthread_join(thread, nullptr);
  // Callers read the clock themselves from here on.
  Store(0);
}

bool TickClockRunning() {
  pthread_mutex_lock(&g_mutex);
  const bool running = g_running;
  pthread_mutex_unlock(&g_mutex);
  return running;
}

}  // namespace mpidbg::core
