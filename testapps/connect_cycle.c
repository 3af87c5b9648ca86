/* connect_cycle — MPI_Comm_accept and MPI_Comm_connect inside one job: rank 0 opens a
 * port and accepts over MPI_COMM_SELF, rank 1 connects over MPI_COMM_SELF, and then
 * each waits in MPI_Recv for the other over the new intercommunicator. Nobody sends: a
 * cycle 0 -> 1 -> 0 through a communicator made by the dynamic-process calls. Run with
 * 2 ranks. An MPI that cannot open a port says so and exits 3.
 *
 * Two jobs started apart: `connect_cycle server` (1 rank) opens a port, prints
 * "PORT <name>" and accepts over MPI_COMM_WORLD; `connect_cycle <name>` (1 rank)
 * connects to it. Then each rank 0 waits for the other job's rank 0: a cycle across
 * two jobs joined by accept/connect (Open MPI needs both under one ompi-server). */
#include <string.h>

#include "scenario_common.h"

/* The two-job form; returns the exit status. */
static int two_jobs(const char* role) {
  MPI_Comm inter;
  if (strcmp(role, "server") == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Open_port(MPI_INFO_NULL, port);
    printf("PORT %s\n", port);
    fflush(stdout);
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
  } else {
    MPI_Comm_connect(role, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
  }
  int rank, in[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scenario_ready(rank);
  MPI_Recv(in, 2, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1) return two_jobs(argv[1]);
  scenario_require_size(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char port[MPI_MAX_PORT_NAME] = "";
  int rc = MPI_SUCCESS;
  if (rank == 0) {
    /* Where the error of a call without a communicator goes differs (MPI 4.0: SELF;
     * MPICH 4.0: WORLD), so both return it. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) {
    if (rank == 0) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      MPI_Error_string(rc, text, &length);
      fprintf(stderr, "rank 0: MPI_Open_port failed: %s\n", text);
    }
    MPI_Finalize();
    return 3;
  }
  MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Comm inter;
  if (rank == 0) {
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
  } else {
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
  }
  int in[2];
  scenario_ready(rank);
  MPI_Recv(in, 2, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
