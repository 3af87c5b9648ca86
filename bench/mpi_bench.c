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
 *   request_bytes  root.request_bytes and root.orphan_budget of the mpidbg runtime,
 *   orphan_budget  when it is loaded (looked up by name, so the program itself does not
 *                  depend on the runtime)
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

static void PingPong(char* buf, int bytes, int iterations) {
  const int peer = 1 - g_rank;
  for (int i = 0; i < iterations; ++i) {
    if (g_rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
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
      for (int i = 0; i < kWindow; ++i)
        MPI_Isend(buf + 8 * i, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[i]);
      MPI_Waitall(kWindow, req, statuses);
      MPI_Recv(&ack, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      for (int i = 0; i < kWindow; ++i)
        MPI_Irecv(buf + 8 * i, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[i]);
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
  if (g_rank == 0) {
    printf("latency_0 %.4f us\n", lat0);
    printf("latency_1024 %.4f us\n", lat1k);
    printf("message_rate %.1f msg/s\n", rate);
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
