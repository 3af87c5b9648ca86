/* threaded_recv — MPI_THREAD_MULTIPLE: on every rank a second thread blocks in a
 * receive from the next rank (tag 77) and the main thread, after a barrier, in a
 * receive from the previous rank (tag 99). Nobody sends: every thread of every rank is
 * blocked, and each rank waits for both neighbours. */
#include <pthread.h>

#include "scenario_common.h"

static int g_rank, g_size;

static void* receiver(void* arg) {
  (void)arg;
  int v;
  MPI_Recv(&v, 1, MPI_INT, (g_rank + 1) % g_size, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  pthread_t t;
  pthread_create(&t, NULL, receiver, NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  scenario_ready(g_rank);
  int v;
  MPI_Recv(&v, 1, MPI_INT, (g_rank + g_size - 1) % g_size, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  pthread_join(t, NULL);
  MPI_Finalize();
  return 0;
}
