// monitor_threads_check — 2 ranks under MPI_THREAD_MULTIPLE, 4 threads each sending
// and receiving 500 messages of 8 bytes to the other rank (tag = thread) while another
// thread posts collectives: every message and operation is counted exactly once.
// Usage: monitor_threads_check <mpich|openmpi>.
#include <mpi.h>

#include <thread>
#include <vector>

#include "monitor_check.h"

using namespace monitor;

namespace {
constexpr int kThreads = 4;
constexpr int kMessages = 500;
}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  if (!Usable()) return rtcheck::Finish("monitor_threads_check");
  if (provided != MPI_THREAD_MULTIPLE) {
    printf("[rank %d] MPI_THREAD_MULTIPLE not provided: nothing to check\n", rtcheck::g_rank);
    MPI_Finalize();
    return 0;
  }
  const int peer = 1 - rtcheck::g_rank;
  RT_CHECK_EQ(Functions().start(), 0);
  MPI_Comm coll;  // the collective thread's own communicator
  MPI_Comm_dup(MPI_COMM_WORLD, &coll);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, peer] {
      double out = t, in = 0;
      for (int i = 0; i < kMessages; ++i) {
        MPI_Request r;
        MPI_Irecv(&in, 1, MPI_DOUBLE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &r);
        MPI_Send(&out, 1, MPI_DOUBLE, peer, t, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    });
  }
  threads.emplace_back([coll] {
    int x = 1, y = 0;
    for (int i = 0; i < kMessages; ++i) MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, coll);
  });
  for (auto& th : threads) th.join();
  const mpidbg_monitor_peer p = Peer(peer, MPIDBG_MONITOR_ACCUMULATED);
  RT_CHECK_EQ(p.sent_messages, kThreads * kMessages);
  RT_CHECK_EQ(p.sent_bytes, kThreads * kMessages * 8);
  RT_CHECK_EQ(p.sent_histogram[4], kThreads * kMessages);
  RT_CHECK_EQ(p.received_messages, kThreads * kMessages);
  RT_CHECK_EQ(p.received_bytes, kThreads * kMessages * 8);
  RT_CHECK_EQ(p.coll_messages, kMessages);
  RT_CHECK_EQ(p.coll_bytes, kMessages * 4);
  const mpidbg_monitor_coll c = Coll(MPIDBG_COLL_ALL_TO_ALL, MPIDBG_MONITOR_ACCUMULATED);
  RT_CHECK_EQ(c.operations, kMessages);
  RT_CHECK_EQ(c.bytes_sent, kMessages * 4);
  RT_CHECK_EQ(c.bytes_received, kMessages * 4);
  MPI_Comm_free(&coll);
  const int rc = rtcheck::Finish("monitor_threads_check");
  MPI_Finalize();
  return rc;
}
