// thread_multiple_check — 2 ranks, MPI_THREAD_MULTIPLE, 4 threads per rank doing
// point-to-point at the same time: blocking and nonblocking on a tag of their own, and
// all four on one shared tag (so they race to create the same counter entry). Counts
// must be exact, the entry unique, no event dropped, every op record returned.
// Usage: thread_multiple_check <mpich|openmpi>.
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#include "traffic_check.h"

using namespace traffic;

namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 200;
constexpr int kSharedTag = 399;
int g_peer = -1;

void* Worker(void* p) {
  const int t = static_cast<int>(reinterpret_cast<intptr_t>(p));
  const int own = 300 + t, own_nb = 310 + t;
  for (int i = 0; i < kRounds; ++i) {
    int out = i, in = -1;
    if (rtcheck::g_rank == 0) {
      MPI_Send(&out, 1, MPI_INT, g_peer, own, MPI_COMM_WORLD);
      MPI_Recv(&in, 1, MPI_INT, g_peer, own, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&in, 1, MPI_INT, g_peer, own, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&out, 1, MPI_INT, g_peer, own, MPI_COMM_WORLD);
    }
    if (in != i) {
      fprintf(stderr, "[rank %d] thread %d: wrong payload\n", rtcheck::g_rank, t);
      ++rtcheck::g_failures;
    }
    MPI_Request r[4];
    int a = i, b = -1, c = i, d = -1;
    MPI_Irecv(&b, 1, MPI_INT, g_peer, own_nb, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&a, 1, MPI_INT, g_peer, own_nb, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(&d, 1, MPI_INT, MPI_ANY_SOURCE, kSharedTag, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&c, 1, MPI_INT, g_peer, kSharedTag, MPI_COMM_WORLD, &r[3]);
    if (i % 2 == 0) {
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    } else {
      for (int done = 0; done < 4;) {
        int outcount = 0, idx[4];
        MPI_Waitsome(4, r, &outcount, idx, MPI_STATUSES_IGNORE);
        if (outcount != MPI_UNDEFINED) done += outcount;
      }
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  g_peer = 1 - rtcheck::g_rank;
  if (provided != MPI_THREAD_MULTIPLE) {
    if (rtcheck::g_rank == 0) fprintf(stderr, "note: MPI_THREAD_MULTIPLE not provided; skipped\n");
    MPI_Finalize();
    return 0;
  }
  RT_CHECK_EQ(Root()->thread_level, MPIDBG_THREAD_MULTIPLE);
  const uint64_t world = JobIdOf(MPI_COMM_WORLD);
  const mpidbg_traffic* t = Traffic();
  RT_CHECK(t != nullptr);
  if (t == nullptr) return rtcheck::Finish("thread_multiple_check");
  const uint64_t head_before = t->log_head;
  const uint32_t ops_before = Root()->operations.live_count;

  pthread_t th[kThreads];
  for (intptr_t i = 0; i < kThreads; ++i) {
    pthread_create(&th[i], nullptr, Worker, reinterpret_cast<void*>(i));
  }
  for (pthread_t& x : th) pthread_join(x, nullptr);

  for (int i = 0; i < kThreads; ++i) {
    for (int tag : {300 + i, 310 + i}) {
      Counts c = CountsOf(world, g_peer, tag);
      RT_CHECK_EQ(c.found, 1);
      RT_CHECK_EQ(c.sends, kRounds);
      RT_CHECK_EQ(c.receives, kRounds);
      RT_CHECK_EQ(c.send_bytes, 4 * kRounds);
      RT_CHECK_EQ(c.peer_world, g_peer);
    }
  }
  Counts shared = CountsOf(world, g_peer, kSharedTag);
  RT_CHECK_EQ(shared.found, 1);
  RT_CHECK_EQ(shared.sends, kThreads * kRounds);
  RT_CHECK_EQ(shared.receives, kThreads * kRounds);
  RT_CHECK_EQ(t->dropped, 0);
  RT_CHECK_EQ(t->log_head - head_before, 3 * kThreads * kRounds);
  RT_CHECK_EQ(Root()->operations.live_count, ops_before);
  // The shared tag's ordinals in the log are distinct: each send took its own number.
  std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(world, g_peer, kSharedTag);
  RT_CHECK(!log.empty());
  for (size_t i = 0; i < log.size(); ++i) {
    for (size_t j = i + 1; j < log.size(); ++j) RT_CHECK(log[i].ordinal != log[j].ordinal);
  }
  const int rc = rtcheck::Finish("thread_multiple_check");
  MPI_Finalize();
  return rc;
}
