// monitor_coll.cc — collectives counted by kind (enum mpidbg_coll_kind) and per peer,
// "as if each collective sent its data by direct messages" (mpidbg/doc/monitoring.md
// has the rules; this file is their one implementation).
//
// Above PMPI the runtime sees a collective's arguments, not the messages the MPI's
// algorithm sends, so the counts are those of the simplest exchange that moves the
// data: the root of a Bcast sends its buffer to every other member, a Reduce's
// non-roots send theirs to the root, and so on. A member never "sends" to itself.
// The vector collectives (Gatherv, Scatterv, Allgatherv, Alltoallv, Reduce_scatter)
// take their per-peer blocks from the count arrays the wrapper is handed (CollArgs),
// read only where MPI reads them (a Gatherv's recvcounts and a Scatterv's sendcounts at
// the root alone).
//
// Runs only while monitoring is on: no lock, no allocation, no system call (the
// communicator view and datatype size come from the thread's caches).
#include <mpi.h>

#include "core/concurrency.h"
#include "core/normalise.h"
#include "mpidbg/call_ids.h"
#include "rt/hot/comm_cache.h"
#include "rt/hot/hook_args.h"
#include "rt/monitor/monitor.h"
#include "rt/process/registry.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {
namespace {

// Who this member "sends" its block to.
enum Sends {
  kSendsNothing,
  kSendsToRoot,    // one block to the root (not when it is the root)
  kSendsToOthers,  // one block to every other member
  kSendsToHigher,  // one block to every member of higher rank (Scan, Exscan)
};

// What one call on an intracommunicator of `size` moves, for member `me`.
struct Flow {
  Sends sends = kSendsNothing;
  uint64_t received_blocks = 0;  // blocks of the same size it receives
};

int KindOf(int32_t call) {
  switch (call) {
    case MPIDBG_CALL_MPI_Barrier:
    case MPIDBG_CALL_MPI_Ibarrier:
      return MPIDBG_COLL_BARRIER;
    case MPIDBG_CALL_MPI_Bcast:
    case MPIDBG_CALL_MPI_Ibcast:
    case MPIDBG_CALL_MPI_Scatter:
    case MPIDBG_CALL_MPI_Iscatter:
    case MPIDBG_CALL_MPI_Scatterv:
      return MPIDBG_COLL_ONE_TO_ALL;
    case MPIDBG_CALL_MPI_Reduce:
    case MPIDBG_CALL_MPI_Ireduce:
    case MPIDBG_CALL_MPI_Gather:
    case MPIDBG_CALL_MPI_Igather:
    case MPIDBG_CALL_MPI_Gatherv:
      return MPIDBG_COLL_ALL_TO_ONE;
    case MPIDBG_CALL_MPI_Allreduce:
    case MPIDBG_CALL_MPI_Iallreduce:
    case MPIDBG_CALL_MPI_Allgather:
    case MPIDBG_CALL_MPI_Iallgather:
    case MPIDBG_CALL_MPI_Allgatherv:
    case MPIDBG_CALL_MPI_Alltoall:
    case MPIDBG_CALL_MPI_Ialltoall:
    case MPIDBG_CALL_MPI_Alltoallv:
    case MPIDBG_CALL_MPI_Reduce_scatter:
    case MPIDBG_CALL_MPI_Reduce_scatter_block:
    case MPIDBG_CALL_MPI_Scan:
    case MPIDBG_CALL_MPI_Exscan:
      return MPIDBG_COLL_ALL_TO_ALL;
    default:
      return -1;
  }
}

// The rules of mpidbg/doc/monitoring.md, "Collectives".
Flow FlowOf(int32_t call, int32_t me, int32_t root, int32_t size) {
  Flow f;
  const uint64_t others = static_cast<uint64_t>(size - 1);
  const bool is_root = me == root;
  switch (call) {
    case MPIDBG_CALL_MPI_Bcast:
    case MPIDBG_CALL_MPI_Ibcast:
    case MPIDBG_CALL_MPI_Scatter:
    case MPIDBG_CALL_MPI_Iscatter:
      if (is_root) {
        f.sends = kSendsToOthers;
      } else {
        f.received_blocks = 1;
      }
      break;
    case MPIDBG_CALL_MPI_Reduce:
    case MPIDBG_CALL_MPI_Ireduce:
    case MPIDBG_CALL_MPI_Gather:
    case MPIDBG_CALL_MPI_Igather:
      if (is_root) {
        f.received_blocks = others;
      } else {
        f.sends = kSendsToRoot;
      }
      break;
    case MPIDBG_CALL_MPI_Allreduce:
    case MPIDBG_CALL_MPI_Iallreduce:
    case MPIDBG_CALL_MPI_Allgather:
    case MPIDBG_CALL_MPI_Iallgather:
    case MPIDBG_CALL_MPI_Alltoall:
    case MPIDBG_CALL_MPI_Ialltoall:
    case MPIDBG_CALL_MPI_Reduce_scatter_block:
      f.sends = kSendsToOthers;
      f.received_blocks = others;
      break;
    case MPIDBG_CALL_MPI_Scan:
    case MPIDBG_CALL_MPI_Exscan:
      f.sends = kSendsToHigher;
      f.received_blocks = static_cast<uint64_t>(me);
      break;
    default:  // the vector collectives: CountVector
      break;
  }
  return f;
}

bool IsVector(int32_t call) {
  return call == MPIDBG_CALL_MPI_Gatherv || call == MPIDBG_CALL_MPI_Scatterv ||
         call == MPIDBG_CALL_MPI_Allgatherv || call == MPIDBG_CALL_MPI_Alltoallv ||
         call == MPIDBG_CALL_MPI_Reduce_scatter;
}

// This process's rank in the view (its world rank's position), -1 if not a member.
int32_t MyRank(const CommView& v) {
  const int32_t world = mpidbg_runtime_root.world_rank;
  for (int32_t i = 0; i < v.size; ++i) {
    if (v.world_ranks[i] == world) return i;
  }
  return -1;
}

void SendBlock(int32_t peer_world, uint64_t bytes, bool concurrent) {
  mpidbg_monitor_peer* p = MonitorPeer(peer_world);
  if (p == nullptr) return;
  core::CounterAdd(&p->coll_messages, uint64_t{1}, concurrent);
  core::CounterAdd(&p->coll_bytes, bytes, concurrent);
}

// Bytes of the block this member contributes (the pair significant on this rank).
uint64_t BlockBytes(ThreadState* ts, const CollArgs& a) {
  const bool in_place = a.inplace_buf == MPI_IN_PLACE;
  const int64_t count = in_place ? a.alt_count : a.count;
  const MPI_Datatype datatype = in_place ? a.alt_datatype : a.datatype;
  if (datatype == MPI_DATATYPE_NULL) return 0;
  return MonitorBytes(count * DatatypeOf(ts, datatype).size);
}

uint64_t TypeSize(ThreadState* ts, MPI_Datatype datatype) {
  return datatype == MPI_DATATYPE_NULL ? 0 : static_cast<uint64_t>(DatatypeOf(ts, datatype).size);
}

uint64_t Blocks(const int* counts, int32_t i, uint64_t type_size) {
  return counts == nullptr || counts[i] <= 0 ? 0 : MonitorBytes(counts[i] * static_cast<int64_t>(type_size));
}

// A vector collective on an intracommunicator, for member `me` of `v` (the rules of
// mpidbg/doc/monitoring.md, "Collectives": the same direct exchanges as the plain
// forms, each block sized by its own count).
void CountVector(ThreadState* ts, int32_t call, const CollArgs& a, const CommView& v, int32_t me,
                 int32_t root, mpidbg_monitor_coll* c, bool concurrent) {
  const bool in_place = a.inplace_buf == MPI_IN_PLACE;
  uint64_t sent = 0, received = 0;
  auto send_to = [&](int32_t i, uint64_t bytes) {
    SendBlock(v.world_ranks[i], bytes, concurrent);
    sent += bytes;
  };
  switch (call) {
    case MPIDBG_CALL_MPI_Gatherv: {  // alt: recvcounts x recvtype, at the root
      if (me != root) {
        if (root >= 0 && root < v.size) send_to(root, BlockBytes(ts, a));
        break;
      }
      const uint64_t size = TypeSize(ts, a.alt_datatype);
      for (int32_t i = 0; i < v.size; ++i) {
        if (i != me) received += Blocks(a.alt_counts, i, size);
      }
      break;
    }
    case MPIDBG_CALL_MPI_Scatterv: {  // alt: sendcounts x sendtype, at the root
      if (me != root) {
        received = BlockBytes(ts, a);
        break;
      }
      const uint64_t size = TypeSize(ts, a.alt_datatype);
      for (int32_t i = 0; i < v.size; ++i) {
        if (i != me) send_to(i, Blocks(a.alt_counts, i, size));
      }
      break;
    }
    case MPIDBG_CALL_MPI_Allgatherv: {  // own block to every other member
      const uint64_t size = TypeSize(ts, a.alt_datatype);
      const uint64_t mine = in_place ? Blocks(a.alt_counts, me, size) : BlockBytes(ts, a);
      for (int32_t i = 0; i < v.size; ++i) {
        if (i == me) continue;
        send_to(i, mine);
        received += Blocks(a.alt_counts, i, size);
      }
      break;
    }
    case MPIDBG_CALL_MPI_Alltoallv: {  // in place: the receive side describes both
      const uint64_t recv_size = TypeSize(ts, a.alt_datatype);
      const uint64_t send_size = in_place ? recv_size : TypeSize(ts, a.datatype);
      const int* send_counts = in_place ? a.alt_counts : a.counts;
      for (int32_t i = 0; i < v.size; ++i) {
        if (i == me) continue;
        send_to(i, Blocks(send_counts, i, send_size));
        received += Blocks(a.alt_counts, i, recv_size);
      }
      break;
    }
    case MPIDBG_CALL_MPI_Reduce_scatter: {  // my part of block i to member i
      const uint64_t size = TypeSize(ts, a.datatype);
      for (int32_t i = 0; i < v.size; ++i) {
        if (i == me) continue;
        send_to(i, Blocks(a.counts, i, size));
        received += Blocks(a.counts, me, size);
      }
      break;
    }
    default:
      break;
  }
  core::CounterAdd(&c->bytes_sent, sent, concurrent);
  core::CounterAdd(&c->bytes_received, received, concurrent);
}

}  // namespace

void MonitorCollective(ThreadState* ts, int32_t call, const CollArgs& args) {
  const int kind = KindOf(call);
  if (kind < 0) return;
  const bool concurrent = core::Concurrent();
  mpidbg_monitor_coll* c = &MonitorBlock().accumulated_coll[kind];
  core::CounterAdd(&c->operations, uint64_t{1}, concurrent);
  if (kind == MPIDBG_COLL_BARRIER) return;

  // Intercommunicators and communicators the runtime does not know: operations only.
  const CommView& v = CommViewOf(ts, args.comm);
  if (v.job_id == 0 || v.inter || v.world_ranks == nullptr || v.size <= 0) return;
  const int32_t me = MyRank(v);
  if (me < 0) return;
  const int32_t root = args.root == kAbsent ? -1 : core::NormaliseRank(args.root, kEncodings);
  if (IsVector(call)) {
    CountVector(ts, call, args, v, me, root, c, concurrent);
    return;
  }
  const Flow f = FlowOf(call, me, root, v.size);
  if (f.sends == kSendsNothing && f.received_blocks == 0) return;
  const uint64_t block = BlockBytes(ts, args);

  uint64_t sent = 0;
  switch (f.sends) {
    case kSendsToRoot:
      if (root >= 0 && root < v.size && root != me) {
        SendBlock(v.world_ranks[root], block, concurrent);
        sent = block;
      }
      break;
    case kSendsToOthers:
    case kSendsToHigher:
      for (int32_t i = f.sends == kSendsToHigher ? me + 1 : 0; i < v.size; ++i) {
        if (i == me) continue;
        SendBlock(v.world_ranks[i], block, concurrent);
        sent += block;
      }
      break;
    case kSendsNothing:
      break;
  }
  core::CounterAdd(&c->bytes_sent, sent, concurrent);
  core::CounterAdd(&c->bytes_received, f.received_blocks * block, concurrent);
}

}  // namespace mpidbg::rt
