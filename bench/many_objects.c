/* many_objects — a process holding N MPI objects (default 100000: half derived
 * datatypes, half info objects), for timing `mpidbg handles` on a large listing
 * (bench/run_objects.py). Prints "ready" and sleeps until killed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long n = argc > 1 ? atol(argv[1]) : 100000;
  for (long i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      MPI_Datatype t;
      MPI_Type_contiguous((int)(i % 13) + 1, MPI_INT, &t);
    } else {
      MPI_Info info;
      MPI_Info_create(&info);
    }
  }
  printf("ready %ld pid %ld\n", n, (long)getpid());
  fflush(stdout);
  for (;;) sleep(1);
  MPI_Finalize();
  return 0;
}
