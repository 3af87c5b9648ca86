/*
 * delay_interposer.c — a fixed wait at one point of one MPI call, and nothing else:
 * where in a call does time a recording layer adds lengthen a ping-pong or slow a
 * stream of messages?
 *
 * A runtime does its work before and after the PMPI call of every call mpi_bench times:
 * MPI_Send and MPI_Recv (its ping-pong), MPI_Isend, MPI_Irecv and MPI_Waitall (its
 * message rate). This library, LD_PRELOADed in place of the runtime, waits
 * MPIDBG_DELAY_NS nanoseconds at the one point MPIDBG_DELAY_AT names (send_entry,
 * send_return, recv_entry, recv_return, isend_entry, ..., waitall_return: the call, then
 * before PMPI is entered or after it returns) and passes every call straight to PMPI
 * otherwise. bench/run_critical.py sweeps points and waits and prints the ratios; what
 * it shows decides where a layer's per-call work belongs (mpidbg/doc/hot_path.md,
 * "Where a call's time counts").
 *
 * The wait is a spin of a count of iterations calibrated against CLOCK_MONOTONIC once at
 * load (about a millisecond), so it touches no memory and makes no call: what it adds is
 * time on one core, nothing else.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DELAY_EXPORT __attribute__((visibility("default")))

/* Each call's entry point, then its return point (entry + 1), in kPoints' order. */
enum { kSend = 0, kRecv = 2, kIsend = 4, kIrecv = 6, kWaitall = 8, kNowhere = 10 };

static int g_at = kNowhere;
static uint64_t g_spins; /* iterations of Spin() that take MPIDBG_DELAY_NS */

static void Spin(uint64_t n) {
  /* The empty asm keeps the loop: each iteration is a compare and a branch on a
   * register, about a cycle. */
  for (uint64_t i = 0; i < n; ++i) __asm__ volatile("");
}

static int64_t NowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

__attribute__((constructor)) static void Configure(void) {
  static const char* const kPoints[kNowhere] = {
      "send_entry",  "send_return",  "recv_entry",    "recv_return",    "isend_entry",
      "isend_return", "irecv_entry", "irecv_return", "waitall_entry", "waitall_return"};
  const char* at = getenv("MPIDBG_DELAY_AT");
  const char* ns = getenv("MPIDBG_DELAY_NS");
  for (int i = 0; at != NULL && i < kNowhere; ++i) {
    if (strcmp(at, kPoints[i]) == 0) g_at = i;
  }
  const double want = ns != NULL ? atof(ns) : 0.0;
  if (g_at == kNowhere || want <= 0) return;
  /* Best of three, so a preemption during one does not skew the rate. */
  const uint64_t kCalibration = 2000000;
  double best = 0;
  for (int k = 0; k < 3; ++k) {
    const int64_t t0 = NowNs();
    Spin(kCalibration);
    const int64_t dt = NowNs() - t0;
    const double per_ns = dt > 0 ? (double)kCalibration / (double)dt : 0;
    if (per_ns > best) best = per_ns;
  }
  g_spins = (uint64_t)(want * best + 0.5);
}

static inline void WaitAt(int point) {
  if (g_at == point) Spin(g_spins);
}

/* The body of every wrapper: the call's entry point (`point`), its PMPI call, its return
 * point. */
#define DELAYED(point, pmpi_call) \
  do {                            \
    WaitAt(point);                \
    const int rc = (pmpi_call);   \
    WaitAt((point) + 1);          \
    return rc;                    \
  } while (0)

DELAY_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm) {
  DELAYED(kSend, PMPI_Send(buf, count, datatype, dest, tag, comm));
}

DELAY_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Status* status) {
  DELAYED(kRecv, PMPI_Recv(buf, count, datatype, source, tag, comm, status));
}

DELAY_EXPORT int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request* request) {
  DELAYED(kIsend, PMPI_Isend(buf, count, datatype, dest, tag, comm, request));
}

DELAY_EXPORT int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Request* request) {
  DELAYED(kIrecv, PMPI_Irecv(buf, count, datatype, source, tag, comm, request));
}

/* Once per call, not per request: a layer's per-request work there is a wait times the
 * count, which a longer wait stands for. */
DELAY_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  DELAYED(kWaitall, PMPI_Waitall(count, requests, statuses));
}
