/*
 * tp.h — what the transparency programs share.
 *
 * A transparency program runs a fixed sequence of MPI calls and prints only what MPI
 * made of them (buffer contents, statuses, counts, flags, error classes, sizes) — never
 * addresses, timings, pids or handle values — so its output is the same on every run of
 * the same MPI. The runner compares a run without the runtime with a run that has it
 * LD_PRELOADed: any difference is a change of MPI semantics by the runtime.
 *
 * Every rank appends lines with tp_out(); tp_finish() gathers them on rank 0, which
 * prints them by rank, then finalizes. On stderr rank 0 reports whether the runtime was
 * loaded and initialised (the runner checks that the preloaded run really had it).
 */
#ifndef MPIDBG_TESTS_TRANSPARENCY_TP_H
#define MPIDBG_TESTS_TRANSPARENCY_TP_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpidbg/records.h"

static int tp_rank = -1;
static int tp_size = 0;
static char* tp_buf = NULL;
static size_t tp_len = 0;
static size_t tp_cap = 0;

/* Appends one line (a newline is added) to this rank's output. */
static void tp_out(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void tp_out(const char* fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n > sizeof line - 2) n = (int)(sizeof line - 2);
  line[n++] = '\n';
  if (tp_len + (size_t)n + 1 > tp_cap) {
    size_t cap = tp_cap == 0 ? 4096 : tp_cap;
    while (tp_len + (size_t)n + 1 > cap) cap *= 2;
    char* grown = (char*)realloc(tp_buf, cap);
    if (grown == NULL) abort();
    tp_buf = grown;
    tp_cap = cap;
  }
  memcpy(tp_buf + tp_len, line, (size_t)n);
  tp_len += (size_t)n;
  tp_buf[tp_len] = '\0';
}

/* The name of an MPI error class (the value returned by a call, reduced to its class). */
__attribute__((unused)) static const char* tp_err(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  switch (cls) {
#define TP_ERR(name) \
  case name:         \
    return #name;
    TP_ERR(MPI_SUCCESS)
    TP_ERR(MPI_ERR_BUFFER)
    TP_ERR(MPI_ERR_COUNT)
    TP_ERR(MPI_ERR_TYPE)
    TP_ERR(MPI_ERR_TAG)
    TP_ERR(MPI_ERR_COMM)
    TP_ERR(MPI_ERR_RANK)
    TP_ERR(MPI_ERR_REQUEST)
    TP_ERR(MPI_ERR_ROOT)
    TP_ERR(MPI_ERR_GROUP)
    TP_ERR(MPI_ERR_OP)
    TP_ERR(MPI_ERR_TOPOLOGY)
    TP_ERR(MPI_ERR_DIMS)
    TP_ERR(MPI_ERR_ARG)
    TP_ERR(MPI_ERR_UNKNOWN)
    TP_ERR(MPI_ERR_TRUNCATE)
    TP_ERR(MPI_ERR_OTHER)
    TP_ERR(MPI_ERR_INTERN)
    TP_ERR(MPI_ERR_IN_STATUS)
    TP_ERR(MPI_ERR_PENDING)
    TP_ERR(MPI_ERR_KEYVAL)
    TP_ERR(MPI_ERR_NO_MEM)
    TP_ERR(MPI_ERR_BASE)
    TP_ERR(MPI_ERR_INFO_KEY)
    TP_ERR(MPI_ERR_INFO_VALUE)
    TP_ERR(MPI_ERR_INFO_NOKEY)
    TP_ERR(MPI_ERR_SPAWN)
    TP_ERR(MPI_ERR_PORT)
    TP_ERR(MPI_ERR_SERVICE)
    TP_ERR(MPI_ERR_NAME)
    TP_ERR(MPI_ERR_WIN)
    TP_ERR(MPI_ERR_SIZE)
    TP_ERR(MPI_ERR_DISP)
    TP_ERR(MPI_ERR_INFO)
    TP_ERR(MPI_ERR_LOCKTYPE)
    TP_ERR(MPI_ERR_ASSERT)
    TP_ERR(MPI_ERR_RMA_CONFLICT)
    TP_ERR(MPI_ERR_RMA_SYNC)
    TP_ERR(MPI_ERR_RMA_RANGE)
    TP_ERR(MPI_ERR_RMA_ATTACH)
    TP_ERR(MPI_ERR_RMA_SHARED)
    TP_ERR(MPI_ERR_RMA_FLAVOR)
    TP_ERR(MPI_ERR_FILE)
    TP_ERR(MPI_ERR_NOT_SAME)
    TP_ERR(MPI_ERR_AMODE)
    TP_ERR(MPI_ERR_UNSUPPORTED_DATAREP)
    TP_ERR(MPI_ERR_UNSUPPORTED_OPERATION)
    TP_ERR(MPI_ERR_NO_SUCH_FILE)
    TP_ERR(MPI_ERR_FILE_EXISTS)
    TP_ERR(MPI_ERR_BAD_FILE)
    TP_ERR(MPI_ERR_ACCESS)
    TP_ERR(MPI_ERR_NO_SPACE)
    TP_ERR(MPI_ERR_QUOTA)
    TP_ERR(MPI_ERR_READ_ONLY)
    TP_ERR(MPI_ERR_FILE_IN_USE)
    TP_ERR(MPI_ERR_DUP_DATAREP)
    TP_ERR(MPI_ERR_CONVERSION)
    TP_ERR(MPI_ERR_IO)
#if MPI_VERSION >= 4
    TP_ERR(MPI_ERR_SESSION)
    TP_ERR(MPI_ERR_VALUE_TOO_LARGE)
#endif
#undef TP_ERR
    default:
      return "MPI_ERR_(other class)";
  }
}

/* "SOURCE=s TAG=t COUNT=c" of a status, the count in units of `type`. */
__attribute__((unused)) static const char* tp_status(const MPI_Status* st, MPI_Datatype type) {
  static char text[96];
  int count = -1;
  MPI_Get_count(st, type, &count);
  snprintf(text, sizeof text, "source=%d tag=%d count=%d", st->MPI_SOURCE, st->MPI_TAG, count);
  return text;
}

/* "a b c ..." of n ints. */
__attribute__((unused)) static const char* tp_ints(const int* v, int n) {
  static char text[2048];
  size_t used = 0;
  text[0] = '\0';
  for (int i = 0; i < n && used + 16 < sizeof text; ++i) {
    used += (size_t)snprintf(text + used, sizeof text - used, i ? " %d" : "%d", v[i]);
  }
  return text;
}

/* "a b c ..." of n doubles (printed exactly enough to compare runs). */
__attribute__((unused)) static const char* tp_doubles(const double* v, int n) {
  static char text[2048];
  size_t used = 0;
  text[0] = '\0';
  for (int i = 0; i < n && used + 32 < sizeof text; ++i) {
    used += (size_t)snprintf(text + used, sizeof text - used, i ? " %.17g" : "%.17g", v[i]);
  }
  return text;
}

/* Reports on stderr whether the runtime is loaded and saw MPI initialised: the runner
 * refuses a "with runtime" run in which it was not (the comparison would prove
 * nothing). Reads the exported root only; never calls into the runtime. */
static void tp_report_runtime(void) {
  const mpidbg_root* root = (const mpidbg_root*)dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL);
  int loaded = root != NULL && root->magic == MPIDBG_ROOT_MAGIC;
  int initialised = loaded && root->process_state == MPIDBG_PROCESS_RUNNING;
  fprintf(stderr, "tp-runtime: loaded=%d initialised=%d\n", loaded, initialised);
  fflush(stderr);
}

/* MPI_Init, or MPI_Init_thread when `required` >= 0 (prints whether the level was
 * provided). Returns the thread level provided (MPI_THREAD_SINGLE after MPI_Init). */
static int tp_init(int* argc, char*** argv, int required) {
  int provided = MPI_THREAD_SINGLE;
  if (required >= 0) {
    MPI_Init_thread(argc, argv, required, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &tp_rank);
    tp_out("init_thread required=%d provided>=required: %d", required, provided >= required);
  } else {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &tp_rank);
  }
  MPI_Comm_size(MPI_COMM_WORLD, &tp_size);
  if (tp_rank == 0) tp_report_runtime();
  return provided;
}

/* Gathers every rank's lines on rank 0, prints them by rank, finalizes. Returns the
 * exit status for main. */
static int tp_finish(void) {
  int len = (int)tp_len;
  int* lens = NULL;
  int* displs = NULL;
  char* all = NULL;
  if (tp_rank == 0) {
    lens = (int*)calloc((size_t)tp_size, sizeof(int));
    displs = (int*)calloc((size_t)tp_size, sizeof(int));
  }
  MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  if (tp_rank == 0) {
    for (int r = 0; r < tp_size; ++r) {
      displs[r] = total;
      total += lens[r];
    }
    all = (char*)malloc((size_t)total + 1);
  }
  MPI_Gatherv(tp_buf, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (tp_rank == 0) {
    for (int r = 0; r < tp_size; ++r) {
      const char* p = all + displs[r];
      const char* end = p + lens[r];
      while (p < end) {
        const char* nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL) nl = end;
        printf("[%d] %.*s\n", r, (int)(nl - p), p);
        p = nl + 1;
      }
    }
    fflush(stdout);
  }
  free(lens);
  free(displs);
  free(all);
  free(tp_buf);
  MPI_Finalize();
  return 0;
}

#endif /* MPIDBG_TESTS_TRANSPARENCY_TP_H */
