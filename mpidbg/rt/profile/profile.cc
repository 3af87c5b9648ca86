// profile.cc — see profile.h: settings, the signal and its handler, per-thread timers,
// and this area's init step (rt/process/init_steps.h: ProfileAfterInit).
#include "rt/profile/profile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "mpidbg/call_ids.h"
#include "mpidbg/runtime_api.h"
#include "rt/process/init_steps.h"
#include "rt/profile/profile_sites.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

// Static storage: no allocation, valid for the life of the process and in core files.
mpidbg_profile g_block;
mpidbg_profile_function g_functions[MPIDBG_CALL_ID_LIMIT];
mpidbg_profile_site g_sites[kProfileSiteCapacity];
ProfileConfig g_config;

// What the handler checks before counting (set last at start, cleared first at stop).
int g_active = 0;

// Marks the timers' own signals: anything else arriving on the signal (kill, sigqueue,
// another timer) is ignored.
constexpr int kTimerCookie = 0x6d706462;  // "mpdb"

// The most ticks one signal stands for: a thread that was not scheduled for a while
// gets one signal for all the expirations it missed (si_overrun); beyond this the
// count is more likely garbage than a real stall.
constexpr uint64_t kMaxWeight = 1u << 20;

// Timers of live threads, so MPI_Finalize can delete them all. Changed under the lock
// (a thread's first MPI call, its exit, MPI_Finalize), never by the handler.
constexpr int kMaxTimers = 1024;
struct TimerSlot {
  bool used;
  uint64_t tid;
  timer_t timer;
};
TimerSlot g_timers[kMaxTimers];
pthread_mutex_t g_timer_lock = PTHREAD_MUTEX_INITIALIZER;
__thread int t_timer_slot __attribute__((tls_model("initial-exec"))) = -1;

// The profiling tick, on the thread whose timer expired. Async-signal-safe: one call of
// mpidbg_thread_mpi_state(), a thread-local load, relaxed atomic adds; errno kept.
void OnTick(int, siginfo_t* info, void*) {
  const int saved_errno = errno;
  if (__atomic_load_n(&g_active, __ATOMIC_ACQUIRE) != 0 && info != nullptr &&
      info->si_code == SI_TIMER && info->si_value.sival_int == kTimerCookie) {
    int32_t call = MPIDBG_CALL_NONE;
    const int state = mpidbg_thread_mpi_state(&call);
    uint64_t site = 0;
    // The thread is stopped in this handler, so its words cannot change under us: the
    // site belongs to the same call as `state` and `call` (thread_state.h stores the
    // site and call before the state on entry, and the state first on return).
    if (state != MPIDBG_THREAD_NOT_IN_MPI) {
      if (ThreadState* ts = t_state) site = __atomic_load_n(&ts->live.site, __ATOMIC_RELAXED);
    }
    uint64_t weight = 1;
    if (info->si_overrun > 0) weight += static_cast<uint64_t>(info->si_overrun);
    if (weight > kMaxWeight) weight = kMaxWeight;
    ProfileCount(&g_block, g_functions, g_sites, kProfileSiteCapacity - 1, state, call, site,
                 weight);
  }
  errno = saved_errno;
}

// True when nobody handles `sig` yet (default action), so the runtime may take it.
bool SignalFree(int sig) {
  struct sigaction old = {};
  if (sigaction(sig, nullptr, &old) != 0) return false;
  if ((old.sa_flags & SA_SIGINFO) != 0) return false;
  return old.sa_handler == SIG_DFL;
}

// The signal to use: the one asked for (SIGPROF by default) if it is free, else the
// highest free real-time signal (libraries that take real-time signals take the low
// ones: glibc's own, SIGRTMIN+n of threading libraries). 0 when none is free.
int ChooseSignal(int wanted) {
  if (wanted == 0) wanted = SIGPROF;
  if (SignalFree(wanted)) return wanted;
  for (int sig = SIGRTMAX; sig >= SIGRTMIN; --sig) {
    if (SignalFree(sig)) return sig;
  }
  return 0;
}

bool InstallHandler(int sig) {
  struct sigaction sa = {};
  sa.sa_sigaction = OnTick;
  // SA_RESTART: a system call the tick interrupts is restarted where the kernel can.
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  return sigaction(sig, &sa, nullptr) == 0;
}

void SetupBlock(const ProfileConfig& c, int sig) {
  g_block.size = sizeof(mpidbg_profile);
  g_block.site_size = sizeof(mpidbg_profile_site);
  g_block.function_size = sizeof(mpidbg_profile_function);
  g_block.period_ns = c.period_ns;
  g_block.signal = sig;
  g_block.clock = c.clock;
  g_block.functions = reinterpret_cast<uintptr_t>(g_functions);
  g_block.function_count = MPIDBG_CALL_ID_LIMIT;
  g_block.site_capacity = kProfileSiteCapacity;
  g_block.sites = reinterpret_cast<uintptr_t>(g_sites);
}

// Creates and arms a timer ticking on the calling thread; false if the kernel refused.
bool CreateThreadTimer(uint64_t tid, timer_t* out) {
  struct sigevent sev = {};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = g_block.signal;
  sev.sigev_value.sival_int = kTimerCookie;
  sev._sigev_un._tid = static_cast<pid_t>(tid);
  const clockid_t clock = g_block.clock == MPIDBG_PROFILE_CPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
  timer_t timer;
  if (timer_create(clock, &sev, &timer) != 0) return false;
  struct itimerspec its = {};
  its.it_interval.tv_sec = g_block.period_ns / 1000000000;
  its.it_interval.tv_nsec = g_block.period_ns % 1000000000;
  its.it_value = its.it_interval;
  if (timer_settime(timer, 0, &its, nullptr) != 0) {
    timer_delete(timer);
    return false;
  }
  *out = timer;
  return true;
}

}  // namespace

const ProfileConfig& ProfileSettings() { return g_config; }
mpidbg_profile* ProfileBlock() { return &g_block; }
const mpidbg_profile_function* ProfileFunctions() { return g_functions; }
const mpidbg_profile_site* ProfileSites() { return g_sites; }

void ProfileThreadStart() {
  if (__atomic_load_n(&g_active, __ATOMIC_ACQUIRE) == 0 || t_timer_slot >= 0) return;
  const uint64_t tid = core::KernelThreadId();
  pthread_mutex_lock(&g_timer_lock);
  // Checked again under the lock: MPI_Finalize may have stopped sampling meanwhile.
  if (__atomic_load_n(&g_active, __ATOMIC_ACQUIRE) != 0) {
    for (int i = 0; i < kMaxTimers; ++i) {
      if (g_timers[i].used) continue;
      if (CreateThreadTimer(tid, &g_timers[i].timer)) {
        g_timers[i].used = true;
        g_timers[i].tid = tid;
        t_timer_slot = i;
        __atomic_fetch_add(&g_block.threads, 1, __ATOMIC_RELAXED);
      }
      break;
    }
  }
  pthread_mutex_unlock(&g_timer_lock);
}

void ProfileThreadExit() {
  const int slot = t_timer_slot;
  if (slot < 0) return;
  t_timer_slot = -1;
  const uint64_t tid = core::KernelThreadId();
  pthread_mutex_lock(&g_timer_lock);
  // MPI_Finalize may have deleted it already (and the slot then is free).
  if (g_timers[slot].used && g_timers[slot].tid == tid) {
    timer_delete(g_timers[slot].timer);
    g_timers[slot].used = false;
  }
  pthread_mutex_unlock(&g_timer_lock);
}

void ProfileStop() {
  if (__atomic_exchange_n(&g_active, 0, __ATOMIC_ACQ_REL) == 0) return;
  __atomic_store_n(&g_block.active, 0, __ATOMIC_RELEASE);
  pthread_mutex_lock(&g_timer_lock);
  for (int i = 0; i < kMaxTimers; ++i) {
    if (!g_timers[i].used) continue;
    timer_delete(g_timers[i].timer);
    g_timers[i].used = false;
  }
  pthread_mutex_unlock(&g_timer_lock);
  g_block.stop_time_ns = core::RealtimeNs();
}

void ProfileAfterInit() {
  g_config = ReadProfileConfig([](void*, const char* name) -> const char* { return getenv(name); },
                               nullptr);
  const int rank = mpidbg_runtime_root.world_rank;
  if (g_config.bad_value && rank == 0) {
    fprintf(stderr, "mpidbg: MPIDBG_PROFILE=%s is not 0, 1 or a rate in Hz; sampling is off\n",
            getenv("MPIDBG_PROFILE"));
  }
  if (!g_config.enabled) return;
  const int sig = ChooseSignal(g_config.signal);
  if (sig == 0 || !InstallHandler(sig)) {
    fprintf(stderr, "mpidbg: rank %d: no free signal for MPI-state sampling; sampling is off\n",
            rank);
    return;
  }
  SetupBlock(g_config, sig);
  g_block.start_time_ns = core::RealtimeNs();
  __atomic_store_n(&g_block.active, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&g_active, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&mpidbg_runtime_root.profile, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&g_block)),
                   __ATOMIC_RELEASE);
  ProfileThreadStart();
}

}  // namespace mpidbg::rt
