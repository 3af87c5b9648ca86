// profile_off_check — 2 ranks, no MPIDBG_PROFILE: no sampling (root.profile stays 0),
// no signal handler taken, no file written.
// Usage: profile_off_check <mpich|openmpi>.
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "profile_check.h"

int main(int argc, char** argv) {
  unsetenv("MPIDBG_PROFILE");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  RT_CHECK(rtcheck::Root() != nullptr);
  RT_CHECK_EQ(rtcheck::Root()->profile, 0);
  struct sigaction old = {};
  sigaction(SIGPROF, nullptr, &old);
  RT_CHECK(old.sa_handler == SIG_DFL);
  int v = rtcheck::g_rank;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const std::string path = profcheck::DefaultPath();
  MPI_Finalize();
  RT_CHECK_EQ(rtcheck::Root()->profile, 0);
  RT_CHECK(!profcheck::Exists(path));
  return rtcheck::Finish("profile_off_check");
}
