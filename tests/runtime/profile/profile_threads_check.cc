// profile_threads_check — 2 ranks under MPI_THREAD_MULTIPLE, MPIDBG_PROFILE=200: a
// second thread that calls MPI gets a timer of its own (threads == 2 per rank) and its
// samples land at its own call site; its timer goes away when it exits.
//   rank 0: main thread blocked in MPI_Recv (tag 8) ~0.6 s while a second thread is
//           blocked in MPI_Recv (tag 7) ~0.3 s; both threads' time counts (wall clock).
//   rank 1: a second thread computes 0.3 s and sends tag 7; the main thread computes
//           0.6 s and sends tag 8.
// Usage: profile_threads_check <mpich|openmpi>.
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "profile_check.h"

using profcheck::json;
using profcheck::Num;

namespace {

constexpr int kHz = 200;

// Wall time rank 0's two MPI_Recv calls took, as the threads measured them: on a busy
// machine a thread may notice its message late, and the samples follow the real time.
double g_main_recv_seconds = 0;
double g_thread_recv_seconds = 0;

// Samples within 25 % (and two ticks) of `seconds` at kHz.
bool Near(long long samples, double seconds) {
  const double want = seconds * kHz;
  return samples >= want * 0.75 - 2 && samples <= want * 1.25 + 2;
}

void* SecondThread(void*) {
  int v = 0;
  if (rtcheck::g_rank == 0) {
    const double start = profcheck::Now();
    MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    g_thread_recv_seconds = profcheck::Now() - start;
  } else {
    profcheck::Busy(0.3);
    MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  return nullptr;
}

void CheckFile(const std::string& path) {
  const json doc = profcheck::Load(path);
  profcheck::CheckSums(doc, 2);
  if (!doc.is_object()) return;
  RT_CHECK_EQ(Num(doc["job"], "threads"), 4);
  const json& r0 = doc["ranks"][0];
  RT_CHECK_EQ(Num(r0, "threads"), 2);
  RT_CHECK_EQ(Num(doc["ranks"][1], "threads"), 2);
  // Two MPI_Recv sites in this program on rank 0.
  const auto sites = profcheck::SitesOf(r0["sites"], "MPI_Recv");
  RT_CHECK_EQ(sites.size(), 2);
  if (sites.size() != 2) return;
  // Sites come most samples first: the main thread's (~0.6 s), the second thread's.
  const long long first = Num(sites[0], "blocked"), second = Num(sites[1], "blocked");
  fprintf(stderr, "[rank 0] MPI_Recv sites: %lld and %lld blocked samples (%.3f s and %.3f s)\n",
          first, second, g_main_recv_seconds, g_thread_recv_seconds);
  RT_CHECK(g_main_recv_seconds >= 0.55 && g_thread_recv_seconds >= 0.25);
  RT_CHECK(Near(first, g_main_recv_seconds));
  RT_CHECK(Near(second, g_thread_recv_seconds));
  for (const auto& s : sites) RT_CHECK(s.value("module", "") == profcheck::ExePath());
  RT_CHECK(sites[0].value("offset", "") != sites[1].value("offset", ""));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string own_path = "profile_threads." + std::to_string(getpid()) + ".json";
  setenv("MPIDBG_PROFILE_OUT", own_path.c_str(), 1);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "[rank %d] MPI_THREAD_MULTIPLE not provided; nothing to check\n", rtcheck::g_rank);
    MPI_Finalize();
    return 0;
  }
  const mpidbg_profile* b = profcheck::Block();
  RT_CHECK(b != nullptr);
  if (b == nullptr) {
    MPI_Finalize();
    return rtcheck::Finish("profile_threads_check");
  }
  RT_CHECK_EQ(b->threads, 1);
  MPI_Barrier(MPI_COMM_WORLD);  // both ranks start the timed part together
  pthread_t thread;
  pthread_create(&thread, nullptr, SecondThread, nullptr);
  int v = 0;
  if (rtcheck::g_rank == 0) {
    const double start = profcheck::Now();
    MPI_Recv(&v, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    g_main_recv_seconds = profcheck::Now() - start;
  } else {
    profcheck::Busy(0.6);
    MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
  }
  pthread_join(thread, nullptr);
  RT_CHECK_EQ(b->threads, 2);

  // The second thread has exited, and its timer with it: 0.3 s more of this thread
  // alone adds ~60 samples, not ~120.
  uint64_t before = 0, after = 0;
  for (int s = 0; s < 3; ++s) before += b->samples[s];
  profcheck::Busy(0.3);
  for (int s = 0; s < 3; ++s) after += b->samples[s];
  fprintf(stderr, "[rank %d] one thread, 0.3 s: %llu samples\n", rtcheck::g_rank,
          static_cast<unsigned long long>(after - before));
  RT_CHECK(after - before >= kHz * 3 / 10 * 3 / 4 && after - before <= kHz * 3 / 10 * 5 / 4);

  MPI_Finalize();
  if (rtcheck::g_rank == 0) {
    CheckFile(own_path);
    if (rtcheck::g_failures == 0) unlink(own_path.c_str());
  } else {
    RT_CHECK(!profcheck::Exists(own_path));
  }
  return rtcheck::Finish("profile_threads_check");
}
