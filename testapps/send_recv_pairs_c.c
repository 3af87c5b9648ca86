/* send_recv_pairs_c — send_recv_pairs with MPI_Send_c and MPI_Recv_c (MPI-4: built for
 * MPICH only). */
#define SCENARIO_LARGE_COUNT 1
#include "send_recv_pairs.c"
