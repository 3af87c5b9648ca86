/*
 * abort.c — MPI_Abort ends the whole job with the given error code, while the other
 * rank is blocked in a receive that will never be matched. Only the exit status of the
 * launcher and the runtime report are compared (the launcher's messages name pids).
 * Run with 2 ranks.
 */
#include <unistd.h>

#include "tp.h"

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1); /* rank 0 reports the runtime on stderr in there */
  int go = 0;
  if (tp_rank == 1) {
    /* Abort only after rank 0 has made its report. */
    MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Abort(MPI_COMM_WORLD, 3);
  } else if (tp_rank == 0) {
    /* The report went into the launcher's stderr pipe; MPI_Abort would kill the job
     * before the launcher forwards it. Half a second lets it through. */
    usleep(500000);
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    int never = 0;
    MPI_Recv(&never, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return tp_finish(); /* not reached */
}
