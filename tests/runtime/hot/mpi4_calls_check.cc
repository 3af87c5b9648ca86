// mpi4_calls_check.cc — the calls wrapped for issue 17 record what their twins do, per
// class: a neighbourhood collective blocks and is named on its topology communicator;
// the nonblocking v/w/scan and neighbourhood collectives leave a request record; and,
// where the MPI has MPI-4 (MPICH 4.0): a rank blocked in MPI_Send_c/MPI_Recv_c shows the
// same envelope as MPI_Send/MPI_Recv, persistent collectives are requests that go
// inactive -> active -> inactive, partitioned send/receive requests are persistent
// point-to-point records of all partitions' elements. 2 ranks.
#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "rt_check.h"

using namespace rtcheck;

namespace {

const uint32_t kPersistentInactive = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;


// A neighbourhood collective on a periodic ring of the two ranks: rank 1 joins late,
// rank 0 is seen BLOCKED in it on the cartesian communicator.
void CheckNeighbourhoodBlocks(int rank) {
  int dims[1] = {2}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int out[2] = {rank, rank}, in[2] = {-1, -1};
  if (rank == 1) {
    usleep(300 * 1000);
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
  } else {
    std::atomic<bool> seen{false};
    std::thread watcher([&] { seen = SeenBlocked(MPIDBG_CALL_MPI_Neighbor_alltoall, U64(ring), 5.0); });
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    watcher.join();
    RT_CHECK(seen);
  }
  RT_CHECK_EQ(in[0], 1 - rank);

  MPI_Request req;
  MPI_Ineighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring, &req);
  const mpidbg_operation_record* o = RequestOp(U64(req));
  RT_CHECK(o != nullptr);
  if (o != nullptr) {
    RT_CHECK_EQ(o->direction, MPIDBG_OPERATION_COLLECTIVE);
    RT_CHECK_EQ(o->call, MPIDBG_CALL_MPI_Ineighbor_allgather);
    RT_CHECK_EQ(o->comm_job_id, CommJobId(U64(ring)));
    RT_CHECK_EQ(o->bytes, 4);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Comm_free(&ring);
}

// The nonblocking vector and scan collectives leave a request record like MPI_Ibcast's.
void CheckNonblockingVectorCollectives(int rank) {
  int counts[2] = {1, 1}, displs[2] = {0, 1};
  int send[2] = {rank, rank}, recv[2] = {0, 0};
  MPI_Request req;
  MPI_Igatherv(send, 1, MPI_INT, recv, counts, displs, MPI_INT, 1, MPI_COMM_WORLD, &req);
  const mpidbg_operation_record* o = RequestOp(U64(req));
  RT_CHECK(o != nullptr && o->call == MPIDBG_CALL_MPI_Igatherv && o->peer == 1 &&
           o->direction == MPIDBG_OPERATION_COLLECTIVE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iscan(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  o = RequestOp(U64(req));
  RT_CHECK(o != nullptr && o->call == MPIDBG_CALL_MPI_Iscan && o->bytes == 8);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(recv[0], rank == 0 ? 0 : 1);
}

#if MPI_VERSION >= 4
// The thread showing `call` BLOCKED with an envelope (its record with its live words,
// rtcheck::ThreadNow; the state is set as the call is entered, the envelope named once
// it is described), polled from another thread while the caller is inside it; the
// operation it names is copied into *op (zeroed if none).
bool SeenBlockedOp(int32_t call, double seconds, mpidbg_operation_record* op) {
  memset(op, 0, sizeof *op);
  for (int i = 0; i < seconds * 1000; ++i) {
    for (const auto* r : Records<mpidbg_thread_record>(Root()->threads)) {
      const mpidbg_thread_record t = rtcheck::ThreadNow(r);
      if (t.call != call || t.state != MPIDBG_THREAD_BLOCKED || t.op == 0) continue;
      if (const mpidbg_operation_record* o = rtcheck::OperationAt(t.op)) *op = *o;
      return true;
    }
    usleep(1000);
  }
  return false;
}

// A rank blocked in MPI_Send_c (a message large enough for rendezvous) and one blocked
// in MPI_Recv_c: the thread names the call and the same envelope a plain
// MPI_Send/MPI_Recv records.
void CheckLargeCountBlocking(int rank) {
  const MPI_Count n = MPI_Count{1} << 20;
  static int buf[1 << 20];
  mpidbg_operation_record op;
  if (rank == 0) {
    std::atomic<bool> seen{false};
    std::thread watcher([&] { seen = SeenBlockedOp(MPIDBG_CALL_MPI_Send_c, 5.0, &op); });
    MPI_Send_c(buf, n, MPI_INT, 1, 5, MPI_COMM_WORLD);
    watcher.join();
    RT_CHECK(seen);
    RT_CHECK_EQ(op.call, MPIDBG_CALL_MPI_Send_c);
    RT_CHECK_EQ(op.direction, MPIDBG_OPERATION_SEND);
    RT_CHECK_EQ(op.mode, MPIDBG_MODE_STANDARD);
    RT_CHECK_EQ(op.peer, 1);
    RT_CHECK_EQ(op.peer_world, 1);
    RT_CHECK_EQ(op.tag, 5);
    RT_CHECK_EQ(op.count, n);
    RT_CHECK_EQ(op.bytes, 4 * n);
    RT_CHECK(strcmp(op.datatype_name, "MPI_INT") == 0);
    // The receive side: rank 1 waits in MPI_Recv_c for rank 0's late send.
    usleep(300 * 1000);
    MPI_Send_c(buf, 4, MPI_INT, 1, 6, MPI_COMM_WORLD);
  } else {
    usleep(300 * 1000);
    MPI_Recv_c(buf, n, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::atomic<bool> seen{false};
    std::thread watcher([&] { seen = SeenBlockedOp(MPIDBG_CALL_MPI_Recv_c, 5.0, &op); });
    MPI_Status st;
    MPI_Recv_c(buf, 8, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &st);
    watcher.join();
    RT_CHECK(seen);
    RT_CHECK_EQ(op.call, MPIDBG_CALL_MPI_Recv_c);
    RT_CHECK_EQ(op.direction, MPIDBG_OPERATION_RECV);
    RT_CHECK_EQ(op.peer, MPIDBG_RANK_ANY_SOURCE);
    RT_CHECK_EQ(op.tag, 6);
    RT_CHECK_EQ(op.count, 8);
    RT_CHECK_EQ(op.bytes, 32);
    MPI_Count got = 0;
    MPI_Get_count_c(&st, MPI_INT, &got);
    RT_CHECK_EQ(got, 4);
  }
}

// MPI_Allreduce_init: INACTIVE, active after MPI_Start, INACTIVE again after MPI_Wait,
// gone after MPI_Request_free.
void CheckPersistentCollective(int rank) {
  int in = rank + 1, out = 0;
  MPI_Request req;
  MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  const mpidbg_operation_record* o = RequestOp(U64(req));
  RT_CHECK(o != nullptr);
  if (o == nullptr) return;
  RT_CHECK_EQ(o->call, MPIDBG_CALL_MPI_Allreduce_init);
  RT_CHECK_EQ(o->direction, MPIDBG_OPERATION_COLLECTIVE);
  RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, kPersistentInactive);
  RT_CHECK_EQ(o->bytes, 4);
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&req);
    RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, MPIDBG_OPERATION_PERSISTENT);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, kPersistentInactive);
    RT_CHECK_EQ(out, 3);
  }
  const uint64_t h = U64(req);
  MPI_Request_free(&req);
  RT_CHECK(RequestOp(h) == nullptr);

  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  o = RequestOp(U64(req));
  RT_CHECK(o != nullptr && o->call == MPIDBG_CALL_MPI_Barrier_init);
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request_free(&req);
}

// The partition record of a request, nullptr when there is none.
const mpidbg_partition_record* PartitionRecord(uint64_t request) {
  for (const auto* r : Records<mpidbg_partition_record>(Root()->partitions)) {
    if (r->request == request) return r;
  }
  return nullptr;
}

// MPI_Psend_init/MPI_Precv_init: persistent point-to-point records of partitions x count
// elements, inactive until started; beside each a partition record counting the
// partitions marked ready (send) or seen arrived (receive) in the round since the last
// MPI_Start, with one bit per partition; gone with the request.
void CheckPartitioned(int rank) {
  const int partitions = 4;
  const MPI_Count per = 3;
  int buf[12] = {0};
  MPI_Request req;
  if (rank == 0) {
    for (int i = 0; i < 12; ++i) buf[i] = i;
    MPI_Psend_init(buf, partitions, per, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  } else {
    MPI_Precv_init(buf, partitions, per, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  }
  const mpidbg_operation_record* o = RequestOp(U64(req));
  RT_CHECK(o != nullptr);
  if (o != nullptr) {
    RT_CHECK_EQ(o->call, rank == 0 ? MPIDBG_CALL_MPI_Psend_init : MPIDBG_CALL_MPI_Precv_init);
    RT_CHECK_EQ(o->direction, rank == 0 ? MPIDBG_OPERATION_SEND : MPIDBG_OPERATION_RECV);
    RT_CHECK_EQ(o->peer, 1 - rank);
    RT_CHECK_EQ(o->tag, 8);
    RT_CHECK_EQ(o->count, 12);
    RT_CHECK_EQ(o->bytes, 48);
    RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, kPersistentInactive);
  }
  const uint64_t handle = U64(req);
  const mpidbg_partition_record* p = PartitionRecord(handle);
  RT_CHECK(p != nullptr);
  if (p == nullptr) return;
  RT_CHECK_EQ(p->partitions, partitions);
  RT_CHECK_EQ(p->partition_count, per);
  RT_CHECK_EQ(p->direction, rank == 0 ? MPIDBG_OPERATION_SEND : MPIDBG_OPERATION_RECV);
  RT_CHECK_EQ(p->done, 0);
  RT_CHECK_EQ(p->starts, 0);
  RT_CHECK_EQ(p->done_bits.count, 1);
  const uint8_t* bits = At<uint8_t>(p->done_bits.address);
  MPI_Start(&req);
  if (o != nullptr) RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, MPIDBG_OPERATION_PERSISTENT);
  RT_CHECK_EQ(p->starts, 1);
  if (rank == 0) {
    MPI_Pready(0, req);
    RT_CHECK_EQ(p->done, 1);
    MPI_Pready_range(1, 2, req);
    RT_CHECK_EQ(p->done, 3);
    int last[1] = {3};
    MPI_Pready_list(1, last, req);
    RT_CHECK_EQ(p->done, 4);
    RT_CHECK_EQ(bits[0], 0x0f);
  } else {
    int flag = 0;
    while (!flag) MPI_Parrived(req, partitions - 1, &flag);
    RT_CHECK_EQ(bits[0] & 0x08, 0x08);  // partition 3 seen arrived
    RT_CHECK(p->done >= 1);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (o != nullptr) RT_CHECK_EQ(o->hdr.flags & kPersistentInactive, kPersistentInactive);
  if (rank == 1) RT_CHECK_EQ(buf[11], 11);

  // A second round starts from nothing.
  MPI_Start(&req);
  RT_CHECK_EQ(p->starts, 2);
  RT_CHECK_EQ(p->done, 0);
  RT_CHECK_EQ(bits[0], 0);
  if (rank == 0) {
    MPI_Pready_range(0, partitions - 1, req);
    RT_CHECK_EQ(p->done, partitions);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request_free(&req);
  RT_CHECK(PartitionRecord(handle) == nullptr);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  CheckNeighbourhoodBlocks(g_rank);
  CheckNonblockingVectorCollectives(g_rank);
#if MPI_VERSION >= 4
  CheckLargeCountBlocking(g_rank);
  CheckPersistentCollective(g_rank);
  CheckPartitioned(g_rank);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  const int rc = Finish("mpi4_calls_check");
  MPI_Finalize();
  return rc;
}
