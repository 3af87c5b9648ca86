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
 * MPIDBG_BENCH_CHURN=0 in the environment leaves the churn measurements out (for the
 * floor interposers, which wrap the point-to-point calls only).
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

/* One-way latency in microseconds. */
static double Latency(int bytes, int iterations) {
  char* buf = calloc(1, bytes > 0 ? (size_t)bytes : 1);
  double batch[kBatches];
  PingPong(buf, bytes, iterations / 4); /* warm up */
  for (int b = 0; b < kBatches; ++b) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    PingPong(buf, bytes, iterations);
    batch[b] = (MPI_Wtime() - t0) * 1e6 / (2.0 * iterations);
  }
  free(buf);
  return Median(batch, kBatches);
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

/* Messages per second. */
static double MessageRate(int windows) {
  char buf[8 * kWindow];
  double batch[kBatches];
  memset(buf, 0, sizeof buf);
  Stream(buf, windows / 4);
  for (int b = 0; b < kBatches; ++b) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    Stream(buf, windows);
    batch[b] = (double)windows * kWindow / (MPI_Wtime() - t0);
  }
  return Median(batch, kBatches);
}

/* The median over batches of one iteration of `body`, in microseconds per `per`. */
static double Timed(void (*body)(void), int iterations, double per) {
  double batch[kBatches];
  for (int i = 0; i < iterations / 4; ++i) body(); /* warm up */
  for (int b = 0; b < kBatches; ++b) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) body();
    batch[b] = (MPI_Wtime() - t0) * 1e6 / ((double)iterations * per);
  }
  return Median(batch, kBatches);
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
  double lat0 = Latency(0, iterations);
  double lat1k = Latency(1024, iterations);
  double rate = MessageRate(windows);
#if MPI_VERSION >= 4
  g_large = 1;
  double lat0_c = Latency(0, iterations);
  double rate_c = MessageRate(windows);
  g_large = 0;
#endif
  const char* churn_env = getenv("MPIDBG_BENCH_CHURN");
  const int churn = churn_env == NULL || strcmp(churn_env, "0") != 0;
  double churn_comm = 0, churn_type = 0, churn_requests = 0;
  if (churn) {
    churn_comm = Timed(ChurnComm, (int)(2000 * scale), 1.0);
    churn_type = Timed(ChurnType, (int)(20000 * scale), 1.0);
    churn_requests = Timed(ChurnRequests, (int)(1000 * scale), 2.0 * kChurnRequests + 2);
  }
  if (g_rank == 0) {
    printf("latency_0 %.4f us\n", lat0);
    printf("latency_1024 %.4f us\n", lat1k);
    printf("message_rate %.1f msg/s\n", rate);
#if MPI_VERSION >= 4
    printf("latency_0_c %.4f us\n", lat0_c);
    printf("message_rate_c %.1f msg/s\n", rate_c);
#endif
    if (churn) {
      printf("churn_comm %.4f us\n", churn_comm);
      printf("churn_type %.4f us\n", churn_type);
      printf("churn_requests %.4f us\n", churn_requests);
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
