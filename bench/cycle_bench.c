/*
 * cycle_bench — one rank repeating one object or request cycle, for the cost per cycle
 * with and without the runtime (bench/run_cycles.py: timed, or counted under callgrind
 * by the difference of two run lengths, which cancels MPI_Init and MPI_Finalize).
 *
 *   cycle_bench LOOP [CYCLES [PASSES]]
 *
 * LOOP is one of
 *   type              MPI_Type_vector(4, 2, 8, MPI_DOUBLE) + MPI_Type_commit + MPI_Type_free
 *   comm              MPI_Comm_dup(MPI_COMM_WORLD) + MPI_Comm_free (a one-rank world: the
 *                     dup's agreement is local, so the cycle is the objects' own cost)
 *   persistent        MPI_Startall + MPI_Waitall of a persistent receive and send to
 *                     itself, made once: the steady state of a persistent exchange
 *   persistent_churn  the same pair made (MPI_Recv_init, MPI_Send_init), started,
 *                     completed and freed every cycle
 *   test_poll         MPI_Test of a receive nothing will match: one poll of a program
 *                     that waits by testing
 *   testany_poll      MPI_Testany over four such receives
 *   sendrecv          MPI_Sendrecv of one integer to itself (MPI_COMM_SELF)
 *   iprobe_poll       MPI_Iprobe for a message nobody sends
 *   halo              MPI_Irecv + MPI_Send + MPI_Wait to itself (MPI_COMM_SELF), twice,
 *                     3 then 5 doubles under two tags: a halo exchange's swaps as a
 *                     molecular-dynamics code makes them (LAMMPS), one Wait per receive
 * Runs CYCLES cycles (default 200000) PASSES times (default 5) after one untimed warm-up
 * pass of a tenth, and prints the best pass in microseconds per cycle, "%.4f\n". With
 * PASSES 0 it runs CYCLES cycles once, untimed, and prints nothing: a run for callgrind.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*cycle_fn)(long n);

static void TypeCycles(long n) {
  for (long i = 0; i < n; ++i) {
    MPI_Datatype t;
    MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&t);
  }
}

static void CommCycles(long n) {
  for (long i = 0; i < n; ++i) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_free(&c);
  }
}

static int g_out, g_in;
static MPI_Request g_pair[2];
static MPI_Status g_statuses[2];

static void MakePair(void) {
  MPI_Recv_init(&g_in, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &g_pair[0]);
  MPI_Send_init(&g_out, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &g_pair[1]);
}

static void PersistentCycles(long n) {
  for (long i = 0; i < n; ++i) {
    MPI_Startall(2, g_pair);
    MPI_Waitall(2, g_pair, g_statuses);
  }
}

static void PersistentChurnCycles(long n) {
  for (long i = 0; i < n; ++i) {
    MakePair();
    MPI_Startall(2, g_pair);
    MPI_Waitall(2, g_pair, g_statuses);
    MPI_Request_free(&g_pair[0]);
    MPI_Request_free(&g_pair[1]);
  }
}

/* Receives nothing will match (a tag nobody sends), made before the timed passes and
 * cancelled after them. */
enum { kPolled = 4, kNeverTag = 99 };
static int g_never[kPolled];
static MPI_Request g_polled[kPolled];

static void PostNever(void) {
  for (int i = 0; i < kPolled; ++i) {
    MPI_Irecv(&g_never[i], 1, MPI_INT, 0, kNeverTag, MPI_COMM_SELF, &g_polled[i]);
  }
}

static void CancelNever(void) {
  for (int i = 0; i < kPolled; ++i) {
    MPI_Cancel(&g_polled[i]);
    MPI_Wait(&g_polled[i], MPI_STATUS_IGNORE);
  }
}

static void TestPollCycles(long n) {
  int flag = 0;
  for (long i = 0; i < n; ++i) MPI_Test(&g_polled[0], &flag, MPI_STATUS_IGNORE);
}

static void TestanyPollCycles(long n) {
  int index = 0, flag = 0;
  for (long i = 0; i < n; ++i) MPI_Testany(kPolled, g_polled, &index, &flag, MPI_STATUS_IGNORE);
}

static void SendrecvCycles(long n) {
  for (long i = 0; i < n; ++i) {
    MPI_Sendrecv(&g_out, 1, MPI_INT, 0, 8, &g_in, 1, MPI_INT, 0, 8, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
  }
}

static void IprobePollCycles(long n) {
  int flag = 0;
  for (long i = 0; i < n; ++i) MPI_Iprobe(0, kNeverTag, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
}

static double g_halo_in[5], g_halo_out[5];

static void HaloCycles(long n) {
  for (long i = 0; i < n; ++i) {
    for (int swap = 0; swap < 2; ++swap) {
      MPI_Request r;
      const int count = 3 + 2 * swap;
      MPI_Irecv(g_halo_in, count, MPI_DOUBLE, 0, 20 + swap, MPI_COMM_SELF, &r);
      MPI_Send(g_halo_out, count, MPI_DOUBLE, 0, 20 + swap, MPI_COMM_SELF);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  }
}

int main(int argc, char** argv) {
  static const struct {
    const char* name;
    cycle_fn run;
  } kLoops[] = {{"type", TypeCycles},
                {"comm", CommCycles},
                {"persistent", PersistentCycles},
                {"persistent_churn", PersistentChurnCycles},
                {"test_poll", TestPollCycles},
                {"testany_poll", TestanyPollCycles},
                {"sendrecv", SendrecvCycles},
                {"iprobe_poll", IprobePollCycles},
                {"halo", HaloCycles}};
  cycle_fn run = NULL;
  const char* loop = argc > 1 ? argv[1] : "";
  for (size_t i = 0; i < sizeof kLoops / sizeof kLoops[0]; ++i) {
    if (strcmp(loop, kLoops[i].name) == 0) run = kLoops[i].run;
  }
  if (run == NULL) {
    fprintf(stderr, "usage: cycle_bench LOOP [CYCLES [PASSES]] (loops: bench/cycle_bench.c)\n");
    return 2;
  }
  const long cycles = argc > 2 ? atol(argv[2]) : 200000;
  const int passes = argc > 3 ? atoi(argv[3]) : 5;
  if (cycles <= 0 || passes < 0) {
    fprintf(stderr, "cycle_bench: CYCLES must be positive and PASSES not negative\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) {
    fprintf(stderr, "cycle_bench: run it as one rank\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (run == PersistentCycles) MakePair();
  const int polls = run == TestPollCycles || run == TestanyPollCycles;
  if (polls) PostNever();
  if (passes == 0) {
    run(cycles);
  } else {
    run(cycles / 10 + 1);
    double best = 1e30;
    for (int p = 0; p < passes; ++p) {
      const double t0 = MPI_Wtime();
      run(cycles);
      const double us = (MPI_Wtime() - t0) / (double)cycles * 1e6;
      if (us < best) best = us;
    }
    printf("%.4f\n", best);
  }
  if (run == PersistentCycles) {
    MPI_Request_free(&g_pair[0]);
    MPI_Request_free(&g_pair[1]);
  }
  if (polls) CancelNever();
  MPI_Finalize();
  return 0;
}
