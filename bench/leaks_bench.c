/*
 * leaks_bench — what the leak report costs at MPI_Finalize (2 ranks).
 *
 *   leaks_bench [objects-per-rank]   (default 10000)
 *
 * Each rank makes `objects` MPI objects and frees none — half datatypes
 * (MPI_Type_contiguous, committed), half info objects — then finalizes with the runtime's
 * leak report asked for (MPIDBG_LEAKS, set here to a temporary file). Rank 0 reads the
 * report back and prints, "name value unit":
 *   objects_per_rank     the objects each rank left
 *   leaked_total         the report's total (objects_per_rank x ranks when all is well)
 *   leak_report_seconds  the report's own time: counting the records on every rank,
 *                        the reduction to rank 0, and building the document there
 * Run under the runtime (LD_PRELOAD or `mpidbg run`); without it no report is written
 * and the program says so.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The number after "key": in the report, -1 when absent. */
static double NumberAfter(const char* doc, const char* key) {
  const char* at = strstr(doc, key);
  if (at == NULL) return -1;
  at = strchr(at, ':');
  return at == NULL ? -1 : atof(at + 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int objects = argc > 1 ? atoi(argv[1]) : 10000;
  char path[256];
  if (rank == 0) snprintf(path, sizeof path, "/tmp/mpidbg-leaks-bench.%d.json", (int)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  setenv("MPIDBG_LEAKS", path, 1);
  for (int i = 0; i < objects; ++i) {
    if (i % 2 == 0) {
      MPI_Datatype t;
      MPI_Type_contiguous(2, MPI_INT, &t);
      MPI_Type_commit(&t);
    } else {
      MPI_Info info;
      MPI_Info_create(&info);
    }
  }
  MPI_Finalize();
  if (rank != 0) return 0;
  static char doc[1 << 16];
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "leaks_bench: no report at %s (is the runtime loaded?)\n", path);
    return 1;
  }
  const size_t n = fread(doc, 1, sizeof doc - 1, f);
  doc[n] = '\0';
  fclose(f);
  unlink(path);
  printf("objects_per_rank %d objects\n", objects);
  printf("leaked_total %.0f objects\n", NumberAfter(doc, "\"total\""));
  printf("leak_report_seconds %.6f s\n", NumberAfter(doc, "\"report_seconds\""));
  return 0;
}
