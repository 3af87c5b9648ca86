// thread_signal_check — 2 ranks. mpidbg_thread_mpi_state() called from a SIGPROF
// handler: a timer aimed at rank 0's main thread fires while that thread is blocked in
// MPI_Recv (rank 1 sends only after a while), and while it is busy outside MPI.
// Usage: thread_signal_check <mpich|openmpi>.
#include <dlfcn.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mpidbg/runtime_api.h"
#include "rt_check.h"

namespace {

using StateFn = int (*)(int32_t*);
StateFn g_state_fn = nullptr;

// Written only by the handler (on the main thread): samples by state, and whether a
// sample inside MPI named another call than the expected one (or one outside MPI named
// a call at all).
volatile sig_atomic_t g_samples[3] = {0, 0, 0};
volatile sig_atomic_t g_blocked_in_recv = 0;
volatile sig_atomic_t g_other_call = 0;
volatile sig_atomic_t g_expect_call = MPIDBG_CALL_NONE;

void OnProf(int) {
  int32_t call = -1;
  const int state = g_state_fn(&call);
  if (state >= 0 && state <= 2) g_samples[state] = g_samples[state] + 1;
  if (state == MPIDBG_THREAD_BLOCKED && call == MPIDBG_CALL_MPI_Recv) g_blocked_in_recv = 1;
  if (state != MPIDBG_THREAD_NOT_IN_MPI && call != g_expect_call) g_other_call = 1;
  if (state == MPIDBG_THREAD_NOT_IN_MPI && call != MPIDBG_CALL_NONE) g_other_call = 1;
}

void ResetSamples(int expect) {
  g_samples[0] = g_samples[1] = g_samples[2] = 0;
  g_blocked_in_recv = 0;
  g_other_call = 0;
  g_expect_call = expect;
}

// A CLOCK_MONOTONIC timer sending SIGPROF to this (the main) thread every 2 ms.
timer_t StartTimer() {
  struct sigevent sev = {};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  timer_t timer;
  RT_CHECK(timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0);
  struct itimerspec its = {};
  its.it_interval.tv_nsec = 2000000;
  its.it_value.tv_nsec = 2000000;
  timer_settime(timer, 0, &its, nullptr);
  return timer;
}

void StopTimer(timer_t timer) {
  struct itimerspec its = {};
  timer_settime(timer, 0, &its, nullptr);
  timer_delete(timer);
}

void SleepMs(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  // nanosleep returns early on every SIGPROF; go on until the time has passed.
  while (nanosleep(&ts, &ts) != 0) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  g_state_fn = reinterpret_cast<StateFn>(dlsym(RTLD_DEFAULT, "mpidbg_thread_mpi_state"));
  if (g_state_fn == nullptr) {
    fprintf(stderr, "thread_signal_check: mpidbg_thread_mpi_state not found\n");
    return 2;
  }
  int32_t call = -1;
  RT_CHECK_EQ(g_state_fn(&call), MPIDBG_THREAD_NOT_IN_MPI);  // before MPI_Init
  RT_CHECK_EQ(call, MPIDBG_CALL_NONE);
  RT_CHECK_EQ(g_state_fn(nullptr), MPIDBG_THREAD_NOT_IN_MPI);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  struct sigaction sa = {};
  sa.sa_handler = OnProf;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, nullptr);

  int v = 0;
  if (rtcheck::g_rank == 0) {
    // Blocked in MPI_Recv for ~300 ms.
    ResetSamples(MPIDBG_CALL_MPI_Recv);
    timer_t timer = StartTimer();
    MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    StopTimer(timer);
    RT_CHECK(g_blocked_in_recv);
    RT_CHECK(g_samples[MPIDBG_THREAD_BLOCKED] >= 10);
    RT_CHECK(!g_other_call);
    fprintf(stderr, "[rank 0] in MPI_Recv: %d blocked, %d in MPI, %d outside\n",
            (int)g_samples[2], (int)g_samples[1], (int)g_samples[0]);

    // Outside MPI: every sample says so.
    ResetSamples(MPIDBG_CALL_NONE);
    timer = StartTimer();
    SleepMs(100);
    StopTimer(timer);
    RT_CHECK(g_samples[MPIDBG_THREAD_NOT_IN_MPI] >= 5);
    RT_CHECK_EQ(g_samples[MPIDBG_THREAD_BLOCKED] + g_samples[MPIDBG_THREAD_IN_MPI], 0);
    RT_CHECK(!g_other_call);

    // A nonblocking call is IN_MPI while it runs; MPI_Test polling shows IN_MPI samples.
    ResetSamples(MPIDBG_CALL_MPI_Test);
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
    timer = StartTimer();
    for (int flag = 0; !flag;) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    StopTimer(timer);
    RT_CHECK_EQ(g_samples[MPIDBG_THREAD_BLOCKED], 0);
    RT_CHECK(!g_other_call);
    fprintf(stderr, "[rank 0] polling MPI_Test: %d in MPI, %d outside\n", (int)g_samples[1],
            (int)g_samples[0]);
  } else {
    SleepMs(300);
    MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    SleepMs(300);
    MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  RT_CHECK_EQ(g_state_fn(&call), MPIDBG_THREAD_NOT_IN_MPI);
  const int rc = rtcheck::Finish("thread_signal_check");
  MPI_Finalize();
  return rc;
}
