// gate_timeout_check.cc — MPIDBG_DEBUG_GATE=1 with MPIDBG_DEBUG_GATE_TIMEOUT=1.5 and no
// debugger: MPI_Init holds about 1.5 s, then returns normally with the gate still closed.
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "rt_check.h"

using namespace rtcheck;

namespace {

double NowS() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const mpidbg_root* root = Root();
  double t0 = NowS();
  MPI_Init(&argc, &argv);
  double held = NowS() - t0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  if (root == nullptr) return Finish("gate_timeout_check");

  RT_CHECK(held >= 1.4);
  RT_CHECK(held < 30);
  RT_CHECK_EQ(root->debug_gate_hold, 0);
  const int* gate = static_cast<const int*>(dlsym(RTLD_DEFAULT, "MPIR_debug_gate"));
  RT_CHECK(gate != nullptr);
  if (gate != nullptr) RT_CHECK_EQ(*gate, 0);
  // The records were in place during the hold.
  RT_CHECK(root->launch != 0);
  RT_CHECK_EQ(root->world_rank, g_rank);
  if (g_rank == 0) printf("[rank 0] MPI_Init held %.2f s\n", held);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return Finish("gate_timeout_check");
}
