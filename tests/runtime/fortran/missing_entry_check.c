/*
 * missing_entry_check.c — a program linked against the runtime but no Fortran MPI
 * library calls a Fortran entry point (runtime.fortran_missing.<flavour>).
 *
 * The runtime defines mpi_barrier_ and resolves the library's definition only when it is
 * called; nothing defines it here, so the call must end the process with the runtime's
 * message (the test matches it), not crash and not fail at load time.
 */
#include <stdio.h>

/* INTEGER arguments: MPI_Fint is int in both MPIs (no mpi.h needed for that). */
void mpi_barrier_(int* comm, int* ierr);

int main(void) {
  printf("loaded\n");
  fflush(stdout);
  int comm = 0, ierr = 0;
  mpi_barrier_(&comm, &ierr);
  printf("FAIL: mpi_barrier_ returned\n");
  return 1;
}
