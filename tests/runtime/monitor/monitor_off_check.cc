// monitor_off_check — 2 ranks, monitoring never started: root.monitor stays 0, the
// read and control functions answer -1 (start too, before MPI_Init), and traffic goes
// uncounted.
// Usage: monitor_off_check <mpich|openmpi>.
#include <mpi.h>

#include "monitor_check.h"

using namespace monitor;

int main(int argc, char** argv) {
  const bool usable = Usable();
  if (usable) RT_CHECK_EQ(Functions().start(), -1);  // before MPI_Init: not possible
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  if (!usable) return rtcheck::Finish("monitor_off_check");
  const int peer = 1 - rtcheck::g_rank;
  int x = 1, y = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &y, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  RT_CHECK(rtcheck::Root() != nullptr && rtcheck::Root()->monitor == 0);
  RT_CHECK(Block() == nullptr);
  RT_CHECK_EQ(Functions().active(), 0);
  mpidbg_monitor_peer p;
  mpidbg_monitor_coll c;
  mpidbg_monitor_file f;
  RT_CHECK_EQ(Functions().read_peer(peer, MPIDBG_MONITOR_ACCUMULATED, &p), -1);
  RT_CHECK_EQ(Functions().read_peer(peer, MPIDBG_MONITOR_CURRENT, &p), -1);
  RT_CHECK_EQ(Functions().read_collective(MPIDBG_COLL_ALL_TO_ALL, MPIDBG_MONITOR_ACCUMULATED, &c), -1);
  RT_CHECK_EQ(Functions().read_file(0, MPIDBG_MONITOR_ACCUMULATED, &f), -1);
  RT_CHECK_EQ(Functions().stop(), -1);
  RT_CHECK_EQ(Functions().reset(), -1);
  const int rc = rtcheck::Finish("monitor_off_check");
  MPI_Finalize();
  return rc;
}
