// profile_blocking_check — 2 ranks, MPIDBG_PROFILE=200 (wall clock): known blocking
// time, attributed by state, function and call site, in the block and in the job file.
//   rank 1: computes 1.0 s, sends (tag 1), computes 0.8 s, sends (tag 2), finalizes;
//   rank 0: blocked in MPI_Recv (tag 1) ~1.0 s, computes 0.5 s outside MPI, then polls
//           MPI_Test on an Irecv (tag 2) for ~0.3 s (in MPI, working), finalizes.
// Both start after a barrier. Each rank points MPIDBG_PROFILE_OUT at a file of its own before MPI_Init: only rank
// 0's may exist afterwards.
// Usage: profile_blocking_check <mpich|openmpi>.
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "profile_check.h"

using profcheck::json;
using profcheck::Num;

namespace {

constexpr int kHz = 200;

// Wall time rank 0's MPI_Recv took (~1.0 s; more if the machine is busy).
double g_recv_seconds = 0;

// Blocked samples before the timed part: the runtime's last steps of MPI_Init, which
// run after sampling starts (with Open MPI its MPI_T capture takes ~0.2 s), and the
// barrier that waits for the other rank to be done with them.
long long InitBlocked(const json& rank) {
  long long n = 0;
  for (const char* call : {"MPI_Init", "MPI_Barrier"}) {
    const json f = profcheck::ByCall(rank["functions"], call);
    if (f.is_object()) n += Num(f, "blocked");
  }
  return n;
}

// The file, as the job wrote it (rank 0).
void CheckFile(const std::string& path, int rank1_pid) {
  RT_CHECK(profcheck::Exists(path));
  RT_CHECK(!profcheck::Exists(path + ".tmp." + std::to_string(getpid())));
  const json doc = profcheck::Load(path);
  profcheck::CheckSums(doc, 2);
  if (!doc.is_object()) return;
  const json& job = doc["job"];
  RT_CHECK_EQ(Num(job, "period_ns"), 1000000000 / kHz);
  RT_CHECK(job.value("clock", "") == "wall");
  RT_CHECK_EQ(Num(job, "signal"), SIGPROF);
  RT_CHECK_EQ(Num(job, "threads"), 2);
  RT_CHECK_EQ(Num(job, "lost"), 0);
  RT_CHECK_EQ(Num(job, "ranks_missing"), 0);
  const json& r0 = doc["ranks"][0];
  const json& r1 = doc["ranks"][1];
  RT_CHECK_EQ(Num(r0, "pid"), getpid());
  RT_CHECK_EQ(Num(r1, "pid"), rank1_pid);
  RT_CHECK_EQ(Num(r0, "threads"), 1);

  // Rank 0: ~1.0 s blocked, all of it in MPI_Recv at one site of this program.
  const long long blocked = Num(r0["samples"], "blocked");
  const long long recv_blocked = Num(profcheck::ByCall(r0["functions"], "MPI_Recv"), "blocked");
  fprintf(stderr,
          "[rank 0] file: rank 0 blocked %lld (MPI_Recv %lld, which took %.3f s), in MPI %lld, "
          "outside %lld; rank 1 outside %lld\n",
          blocked, recv_blocked, g_recv_seconds, Num(r0["samples"], "in_mpi"),
          Num(r0["samples"], "not_in_mpi"), Num(r1["samples"], "not_in_mpi"));
  RT_CHECK(recv_blocked >= kHz * 3 / 4 && recv_blocked <= kHz * 5 / 4);
  RT_CHECK(recv_blocked >= g_recv_seconds * kHz * 0.75 &&
           recv_blocked <= g_recv_seconds * kHz * 1.25 + 2);
  RT_CHECK(blocked - recv_blocked - InitBlocked(r0) <= 10);
  const auto recv_sites = profcheck::SitesOf(r0["sites"], "MPI_Recv");
  RT_CHECK_EQ(recv_sites.size(), 1);
  if (recv_sites.size() == 1) {
    const json& s = recv_sites[0];
    RT_CHECK_EQ(Num(s, "blocked"), recv_blocked);
    RT_CHECK(s.value("module", "") == profcheck::ExePath());
    const std::string base = profcheck::ExePath().substr(profcheck::ExePath().rfind('/') + 1);
    RT_CHECK(s.value("site", "") == base + "+" + s.value("offset", ""));
  }
  // Polling MPI_Test: in MPI, working, never blocked.
  const json test = profcheck::ByCall(r0["functions"], "MPI_Test");
  RT_CHECK(Num(test, "working") > 0);
  RT_CHECK_EQ(Num(test, "blocked"), 0);
  // Outside MPI: the 0.5 s computation and the loop around MPI_Test (at most 0.3 s).
  const long long outside0 = Num(r0["samples"], "not_in_mpi");
  RT_CHECK(outside0 >= kHz / 2 * 3 / 4 && outside0 <= kHz * 8 / 10 * 5 / 4);
  // Rank 1: ~1.8 s of computation, its sends take no time to speak of.
  const long long outside1 = Num(r1["samples"], "not_in_mpi");
  RT_CHECK(outside1 >= kHz * 18 / 10 * 3 / 4 && outside1 <= kHz * 18 / 10 * 5 / 4);
  RT_CHECK(Num(r1["samples"], "blocked") - InitBlocked(r1) <= 10);
  // The job's MPI_Recv site: one rank had it.
  const auto job_recv = profcheck::SitesOf(job["sites"], "MPI_Recv");
  RT_CHECK_EQ(job_recv.size(), 1);
  if (job_recv.size() == 1) {
    RT_CHECK_EQ(Num(job_recv[0], "ranks"), 1);
    RT_CHECK_EQ(Num(job_recv[0], "blocked"), recv_blocked);
  }
  // Seconds are samples x period.
  RT_CHECK(doc["job"]["seconds"]["blocked"].is_number());
  const double seconds = doc["job"]["seconds"].value("blocked", -1.0);
  RT_CHECK(seconds > Num(job["samples"], "blocked") / double(kHz) - 1e-3 &&
           seconds < Num(job["samples"], "blocked") / double(kHz) + 1e-3);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string own_path = "profile_blocking." + std::to_string(getpid()) + ".json";
  setenv("MPIDBG_PROFILE_OUT", own_path.c_str(), 1);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  const mpidbg_profile* b = profcheck::Block();
  RT_CHECK(b != nullptr);
  if (b == nullptr) {
    MPI_Finalize();
    return rtcheck::Finish("profile_blocking_check");
  }
  RT_CHECK_EQ(b->active, 1);
  RT_CHECK_EQ(b->period_ns, 1000000000 / kHz);
  RT_CHECK_EQ(b->signal, SIGPROF);
  RT_CHECK_EQ(b->threads, 1);

  // The ranks leave MPI_Init at different times (the runtime's last steps of MPI_Init
  // take a while, more with Open MPI): start the clock together.
  MPI_Barrier(MPI_COMM_WORLD);
  int rank1_pid = 0;
  if (rtcheck::g_rank == 0) {
    const double start = profcheck::Now();
    MPI_Recv(&rank1_pid, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    g_recv_seconds = profcheck::Now() - start;
    profcheck::Busy(0.5);
    int v = 0;
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
    for (int flag = 0; !flag;) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  } else {
    int pid = static_cast<int>(getpid());
    profcheck::Busy(1.0);
    MPI_Send(&pid, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    profcheck::Busy(0.8);
    MPI_Send(&pid, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  // The block as a debugger sees it, before MPI_Finalize stops sampling.
  if (rtcheck::g_rank == 0) {
    const mpidbg_profile_function* recv = profcheck::BlockFunction(b, MPIDBG_CALL_MPI_Recv);
    RT_CHECK(recv != nullptr && recv->blocked >= kHz * 3 / 4 && recv->blocked <= kHz * 5 / 4);
    RT_CHECK(b->site_count >= 2);  // MPI_Recv, MPI_Test (and perhaps MPI_Irecv, MPI_Init)
  }
  MPI_Finalize();
  // Kept after MPI_Finalize, stopped.
  RT_CHECK_EQ(b->active, 0);
  RT_CHECK(b->stop_time_ns >= b->start_time_ns && b->start_time_ns > 0);
  RT_CHECK_EQ(rtcheck::Root()->profile, rtcheck::Addr(b));
  if (rtcheck::g_rank == 0) {
    CheckFile(own_path, rank1_pid);
    if (rtcheck::g_failures == 0) unlink(own_path.c_str());
  } else {
    RT_CHECK(!profcheck::Exists(own_path));  // only rank 0 writes
  }
  return rtcheck::Finish("profile_blocking_check");
}
