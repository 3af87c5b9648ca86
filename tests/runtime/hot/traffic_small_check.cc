// traffic_small_check — 2 ranks with MPIDBG_TRAFFIC_ENTRIES=8 and MPIDBG_SEND_LOG=5:
// sizes round up to powers of two, a full table drops (and counts) what it cannot
// place, and the send log keeps the newest sends only. Flight rings off
// (MPIDBG_FLIGHT_RING=0): a send posted into a ring is logged there, not in the send
// log, and MPI_Sendrecv's sends would be.
// Usage: traffic_small_check <mpich|openmpi>.
#include <mpi.h>
#include <stdio.h>

#include "traffic_check.h"

using namespace traffic;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  const int peer = 1 - rtcheck::g_rank;
  const uint64_t world = JobIdOf(MPI_COMM_WORLD);
  const mpidbg_traffic* t = Traffic();
  RT_CHECK(t != nullptr);
  if (t == nullptr) return rtcheck::Finish("traffic_small_check");
  RT_CHECK_EQ(t->capacity, 8);
  RT_CHECK_EQ(t->log_capacity, 8);

  // 20 tags, one message each way: more keys than the table holds.
  for (int tag = 0; tag < 20; ++tag) {
    int out = tag, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, peer, tag, &in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  RT_CHECK_EQ(t->used, 8);
  RT_CHECK_EQ(Entries().size(), 8);
  RT_CHECK_EQ(t->dropped, 2 * (20 - 8));  // each unplaced key: its send and its receive
  for (const auto& e : Entries()) RT_CHECK(e.sends == 1 && e.receives == 1);
  RT_CHECK_EQ(t->log_head, 20);
  std::vector<mpidbg_send_log_entry> log = LoggedSends();
  RT_CHECK_EQ(log.size(), 8);
  for (size_t i = 0; i < log.size(); ++i) {
    RT_CHECK_EQ(log[i].tag, 12 + static_cast<int>(i));  // the newest 8
    // Sends whose key found no entry have no ordinal.
    Counts c = CountsOf(world, peer, log[i].tag);
    RT_CHECK_EQ(log[i].ordinal, c.found == 1 ? 1u : 0u);
  }
  const int rc = rtcheck::Finish("traffic_small_check");
  MPI_Finalize();
  return rc;
}
