// profile_fallback_check — 2 ranks, MPIDBG_PROFILE=1 MPIDBG_PROFILE_CLOCK=cpu, no
// MPIDBG_PROFILE_OUT, and a program that handles SIGPROF itself: the runtime leaves
// SIGPROF alone and samples on a free real-time signal, at 100 Hz of each thread's CPU
// time, and rank 0 writes mpidbg-profile.<job>.json in the working directory.
// Usage: profile_fallback_check <mpich|openmpi>.
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile_check.h"

using profcheck::json;
using profcheck::Num;

namespace {

void OwnProf(int) {}

}  // namespace

int main(int argc, char** argv) {
  unsetenv("MPIDBG_PROFILE_OUT");
  struct sigaction sa = {};
  sa.sa_handler = OwnProf;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, nullptr);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  const mpidbg_profile* b = profcheck::Block();
  RT_CHECK(b != nullptr);
  if (b == nullptr) {
    MPI_Finalize();
    return rtcheck::Finish("profile_fallback_check");
  }
  RT_CHECK_EQ(b->period_ns, 10000000);
  RT_CHECK_EQ(b->clock, MPIDBG_PROFILE_CPU);
  RT_CHECK(b->signal >= SIGRTMIN && b->signal <= SIGRTMAX);
  struct sigaction now = {};
  sigaction(SIGPROF, nullptr, &now);
  RT_CHECK(now.sa_handler == OwnProf);

  profcheck::Busy(0.4);  // ~40 samples of CPU time, fewer if the machine is busy
  int v = 1;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  RT_CHECK(b->samples[MPIDBG_THREAD_NOT_IN_MPI] >= 5);
  const std::string path = profcheck::DefaultPath();
  const int32_t signal = b->signal;
  MPI_Finalize();

  if (rtcheck::g_rank == 0) {
    RT_CHECK(profcheck::Exists(path));
    const json doc = profcheck::Load(path);
    profcheck::CheckSums(doc, 2);
    if (doc.is_object()) {
      RT_CHECK(doc["job"].value("clock", "") == "cpu");
      RT_CHECK_EQ(Num(doc["job"], "period_ns"), 10000000);
      RT_CHECK_EQ(Num(doc["job"], "signal"), signal);
      RT_CHECK_EQ(Num(doc["ranks"][0], "signal"), signal);
      RT_CHECK(Num(doc["job"]["samples"], "not_in_mpi") >= 10);
    }
    if (rtcheck::g_failures == 0) unlink(path.c_str());
  }
  return rtcheck::Finish("profile_fallback_check");
}
