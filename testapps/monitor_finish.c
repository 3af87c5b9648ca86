/* monitor_finish — monitor_pattern's traffic, then MPI_Finalize on every rank (so the
 * runtime writes the job's monitoring and profile files). */
#define MONITOR_PATTERN_FINISH 1
#include "monitor_pattern.c"
