/*
 * mpi_bench — the point-to-point programs the overhead benchmark runs (2 ranks).
 *
 *   mpi_bench [iterations-scale]
 *
 * Prints one line per measurement, "name value unit":
 *   latency_0      one-way latency of a 0-byte ping-pong, in microseconds
 *   latency_1024   the same with 1 KiB messages
 *   message_rate   messages per second: rank 0 streams windows of nonblocking 8-byte
 *                  sends, rank 1 posts matching receives, one acknowledgement per window
 *   latency_0_c    latency_0 and message_rate through the MPI-4 large-count twins
 *   message_rate_c (MPI_Send_c, MPI_Recv_c, MPI_Isend_c, MPI_Irecv_c), when the MPI has
 *                  them: the runtime's cost of a _c call against its plain twin's
 *   churn_comm     object churn, microseconds per iteration: MPI_Comm_dup + MPI_Comm_free
 *   churn_type     MPI_Type_vector + MPI_Type_commit + MPI_Type_free
 *   churn_requests per request of a request-heavy loop: both ranks post 16 MPI_Irecv and
 *                  16 MPI_Isend to each other and complete them with one MPI_Waitall,
 *                  then start and complete a persistent send/receive pair made for the
 *                  iteration and free it (MPI_Send_init, MPI_Recv_init, MPI_Startall,
 *                  MPI_Waitall, MPI_Request_free)
 *   request_bytes  root.request_bytes and root.orphan_budget of the mpidbg runtime,
 *   orphan_budget  when it is loaded (looked up by name, so the program itself does not
 *                  depend on the runtime)
 *   <name>_paired_ratio
 *                  when both ranks run under the mpidbg runtime (or a floor interposer
 *                  with thread state, which offers the same pause): each batch of <name>
 *                  is paired with one run with recording paused on both ranks
 *                  (mpidbg_pause_recording, runtime_api.h), the two in alternating
 *                  order, and this is the median over the pairs of recording / paused —
 *                  what recording costs, measured within one process and one mode of
 *                  the machine, against calls that still pass through the wrappers
 *                  (one thread-local load and a test each)
 * MPIDBG_BENCH_CHURN=0 in the environment leaves the churn measurements out (for the
 * floor interposers, which wrap the point-to-point calls only); MPIDBG_BENCH_PAIRED=0
 * leaves the paired batches out.
 * Each value is the median over several batches, so one slow batch (another process
 * taking the core) does not decide the result.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpidbg/records.h"

enum { kBatches = 15, kWindow = 64 };

static int g_rank;

/* The runtime's pause and resume (runtime_api.h), when both ranks have them. */
typedef int (*ToggleFn)(void);
static ToggleFn g_pause, g_resume;

static int CompareDoubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double Median(double* v, int n) {
  qsort(v, (size_t)n, sizeof *v, CompareDoubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#if MPI_VERSION >= 4
/* Whether the measurements go through the large-count twins (MPI-4). */
static int g_large;

#define BENCH_SEND(buf, n, peer, tag) \
  (g_large ? MPI_Send_c(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD) \
           : MPI_Send(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD))
#define BENCH_RECV(buf, n, peer, tag) \
  (g_large ? MPI_Recv_c(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) \
           : MPI_Recv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE))
#define BENCH_ISEND(buf, n, peer, tag, req) \
  (g_large ? MPI_Isend_c(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req) \
           : MPI_Isend(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req))
#define BENCH_IRECV(buf, n, peer, tag, req) \
  (g_large ? MPI_Irecv_c(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req) \
           : MPI_Irecv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req))
#else
#define BENCH_SEND(buf, n, peer, tag) MPI_Send(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD)
#define BENCH_RECV(buf, n, peer, tag) \
  MPI_Recv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
#define BENCH_ISEND(buf, n, peer, tag, req) \
  MPI_Isend(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req)
#define BENCH_IRECV(buf, n, peer, tag, req) \
  MPI_Irecv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, req)
#endif

static void PingPong(char* buf, int bytes, int iterations) {
  const int peer = 1 - g_rank;
  for (int i = 0; i < iterations; ++i) {
    if (g_rank == 0) {
      BENCH_SEND(buf, bytes, peer, 1);
      BENCH_RECV(buf, bytes, peer, 1);
    } else {
      BENCH_RECV(buf, bytes, peer, 1);
      BENCH_SEND(buf, bytes, peer, 1);
    }
  }
}

/* A measurement's batches: each returns its figure. */
typedef double (*BatchFn)(const void* ctx);

/* One batch with recording paused on both ranks. */
static double PausedBatch(BatchFn batch, const void* ctx) {
  g_pause();
  MPI_Barrier(MPI_COMM_WORLD);
  const double figure = batch(ctx);
  g_resume();
  return figure;
}

/* The median of kBatches batches with recording on (a plain run: as they are); with
 * the runtime's pause (g_pause), each batch paired with one paused, and *paired_ratio the
 * median of recording / paused over the pairs (0 without). */
static double Measure(BatchFn batch, const void* ctx, double* paired_ratio) {
  double recording[kBatches], ratio[kBatches];
  for (int b = 0; b < kBatches; ++b) {
    double paused = 0;
    /* Alternating order: a drift of the machine within a pair favours neither. */
    if (g_pause != NULL && b % 2 == 1) paused = PausedBatch(batch, ctx);
    MPI_Barrier(MPI_COMM_WORLD);
    recording[b] = batch(ctx);
    if (g_pause != NULL && b % 2 == 0) paused = PausedBatch(batch, ctx);
    ratio[b] = paused > 0 ? recording[b] / paused : 0;
  }
  *paired_ratio = g_pause != NULL ? Median(ratio, kBatches) : 0;
  return Median(recording, kBatches);
}

struct PingPongBatch {
  char* buf;
  int bytes, iterations;
};

/* One-way latency in microseconds. */
static double PingPongTime(const void* ctx) {
  const struct PingPongBatch* p = ctx;
  double t0 = MPI_Wtime();
  PingPong(p->buf, p->bytes, p->iterations);
  return (MPI_Wtime() - t0) * 1e6 / (2.0 * p->iterations);
}

static double Latency(int bytes, int iterations, double* paired_ratio) {
  struct PingPongBatch p = {calloc(1, bytes > 0 ? (size_t)bytes : 1), bytes, iterations};
  PingPong(p.buf, bytes, iterations / 4); /* warm up */
  double v = Measure(PingPongTime, &p, paired_ratio);
  free(p.buf);
  return v;
}

static void Stream(char* buf, int windows) {
  const int peer = 1 - g_rank;
  static MPI_Status statuses[kWindow];
  MPI_Request req[kWindow];
  char ack = 0;
  for (int w = 0; w < windows; ++w) {
    if (g_rank == 0) {
      for (int i = 0; i < kWindow; ++i) BENCH_ISEND(buf + 8 * i, 8, peer, 2, &req[i]);
      MPI_Waitall(kWindow, req, statuses);
      MPI_Recv(&ack, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      for (int i = 0; i < kWindow; ++i) BENCH_IRECV(buf + 8 * i, 8, peer, 2, &req[i]);
      MPI_Waitall(kWindow, req, statuses);
      MPI_Send(&ack, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
    }
  }
}

struct StreamBatch {
  char* buf;
  int windows;
};

/* Messages per second. */
static double StreamRate(const void* ctx) {
  const struct StreamBatch* p = ctx;
  double t0 = MPI_Wtime();
  Stream(p->buf, p->windows);
  return (double)p->windows * kWindow / (MPI_Wtime() - t0);
}

static double MessageRate(int windows, double* paired_ratio) {
  char buf[8 * kWindow];
  memset(buf, 0, sizeof buf);
  struct StreamBatch p = {buf, windows};
  Stream(buf, windows / 4); /* warm up */
  return Measure(StreamRate, &p, paired_ratio);
}

struct LoopBatch {
  void (*body)(void);
  int iterations;
  double per;
};

/* Microseconds per `per` of one iteration of `body`. */
static double LoopTime(const void* ctx) {
  const struct LoopBatch* p = ctx;
  double t0 = MPI_Wtime();
  for (int i = 0; i < p->iterations; ++i) p->body();
  return (MPI_Wtime() - t0) * 1e6 / ((double)p->iterations * p->per);
}

static double Timed(void (*body)(void), int iterations, double per, double* paired_ratio) {
  struct LoopBatch p = {body, iterations, per};
  for (int i = 0; i < iterations / 4; ++i) body(); /* warm up */
  return Measure(LoopTime, &p, paired_ratio);
}

static void ChurnComm(void) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_free(&c);
}

static void ChurnType(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 3, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&t);
}

enum { kChurnRequests = 16 };

static void ChurnRequests(void) {
  static int in[kChurnRequests], out[kChurnRequests], pin, pout;
  static MPI_Status statuses[2 * kChurnRequests];
  MPI_Request req[2 * kChurnRequests];
  const int peer = 1 - g_rank;
  for (int i = 0; i < kChurnRequests; ++i) {
    MPI_Irecv(&in[i], 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &req[i]);
  }
  for (int i = 0; i < kChurnRequests; ++i) {
    MPI_Isend(&out[i], 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &req[kChurnRequests + i]);
  }
  MPI_Waitall(2 * kChurnRequests, req, statuses);
  MPI_Recv_init(&pin, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(&pout, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req[1]);
  MPI_Startall(2, req);
  MPI_Waitall(2, req, statuses);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (g_rank == 0) fprintf(stderr, "mpi_bench: run with exactly 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  if (scale <= 0) scale = 1.0;
  const int iterations = (int)(20000 * scale);
  const int windows = (int)(2000 * scale);
  /* Paired batches only when both ranks run under the runtime (one may not: bench/
   * run_sides.py preloads it into one rank), or the ranks' batches would not match. */
  const char* paired_env = getenv("MPIDBG_BENCH_PAIRED");
  int have = paired_env == NULL || strcmp(paired_env, "0") != 0;
  ToggleFn pause = (ToggleFn)dlsym(RTLD_DEFAULT, "mpidbg_pause_recording");
  ToggleFn resume = (ToggleFn)dlsym(RTLD_DEFAULT, "mpidbg_resume_recording");
  have = have && pause != NULL && resume != NULL;
  int both = 0;
  MPI_Allreduce(&have, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (both) {
    g_pause = pause;
    g_resume = resume;
  }
  enum { kLat0, kLat1k, kRate, kLat0c, kRatec, kComm, kType, kRequests, kFigures };
  static const char* const kNames[kFigures] = {
      "latency_0", "latency_1024", "message_rate", "latency_0_c", "message_rate_c",
      "churn_comm", "churn_type", "churn_requests"};
  double value[kFigures] = {0}, paired[kFigures] = {0};
  int measured[kFigures] = {0};
  value[kLat0] = Latency(0, iterations, &paired[kLat0]);
  value[kLat1k] = Latency(1024, iterations, &paired[kLat1k]);
  value[kRate] = MessageRate(windows, &paired[kRate]);
  measured[kLat0] = measured[kLat1k] = measured[kRate] = 1;
#if MPI_VERSION >= 4
  g_large = 1;
  value[kLat0c] = Latency(0, iterations, &paired[kLat0c]);
  value[kRatec] = MessageRate(windows, &paired[kRatec]);
  measured[kLat0c] = measured[kRatec] = 1;
  g_large = 0;
#endif
  const char* churn_env = getenv("MPIDBG_BENCH_CHURN");
  const int churn = churn_env == NULL || strcmp(churn_env, "0") != 0;
  if (churn) {
    value[kComm] = Timed(ChurnComm, (int)(2000 * scale), 1.0, &paired[kComm]);
    value[kType] = Timed(ChurnType, (int)(20000 * scale), 1.0, &paired[kType]);
    value[kRequests] = Timed(ChurnRequests, (int)(1000 * scale), 2.0 * kChurnRequests + 2,
                             &paired[kRequests]);
    measured[kComm] = measured[kType] = measured[kRequests] = 1;
  }
  if (g_rank == 0) {
    for (int f = 0; f < kFigures; ++f) {
      if (!measured[f]) continue;
      if (f == kRate || f == kRatec) {
        printf("%s %.1f msg/s\n", kNames[f], value[f]);
      } else {
        printf("%s %.4f us\n", kNames[f], value[f]);
      }
    }
    for (int f = 0; f < kFigures; ++f) {
      if (measured[f] && g_pause != NULL) printf("%s_paired_ratio %.4f\n", kNames[f], paired[f]);
    }
    const mpidbg_root* root = (const mpidbg_root*)dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL);
    if (root != NULL) {
      printf("request_bytes %llu bytes\n", (unsigned long long)root->request_bytes);
      printf("orphan_budget %u records\n", root->orphan_budget);
    }
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
