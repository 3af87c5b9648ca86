// monitor_counts_check — 4 ranks, monitoring started by the program: exact counts read
// through the runtime_api.h functions for known patterns of point-to-point (blocking,
// nonblocking, persistent, Sendrecv, wildcard receives, message sizes on known
// histogram buckets, MPI_PROC_NULL, an intercommunicator), every collective kind on
// MPI_COMM_WORLD and on a split communicator (peers are world ranks), one-sided calls
// per target (also on a split communicator's window), file I/O per file name; stop
// (nothing counted), reset (current against accumulated); the block reachable from
// root.monitor with the header's sizes.
// Usage: monitor_counts_check <mpich|openmpi>.
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "monitor_check.h"

using namespace monitor;

namespace {

constexpr int kAcc = MPIDBG_MONITOR_ACCUMULATED;
constexpr int kCur = MPIDBG_MONITOR_CURRENT;

int g_me = -1;
int g_size = 0;

// Every peer's current counters.
std::vector<mpidbg_monitor_peer> Current() {
  std::vector<mpidbg_monitor_peer> out;
  for (int w = 0; w < g_size; ++w) out.push_back(Peer(w, kCur));
  return out;
}

bool AllZero(const mpidbg_monitor_peer& p) {
  const uint64_t* w = reinterpret_cast<const uint64_t*>(&p);
  for (size_t i = 0; i < sizeof p / 8; ++i) {
    if (w[i] != 0) return false;
  }
  return true;
}

// --- the block ---
void CheckBlock() {
  const mpidbg_monitor* m = Block();
  RT_CHECK(m != nullptr);
  if (m == nullptr) return;
  RT_CHECK_EQ(m->size, sizeof(mpidbg_monitor));
  RT_CHECK_EQ(m->peer_size, sizeof(mpidbg_monitor_peer));
  RT_CHECK_EQ(m->file_size, sizeof(mpidbg_monitor_file));
  RT_CHECK_EQ(m->buckets, MPIDBG_MONITOR_BUCKETS);
  RT_CHECK_EQ(m->world_size, g_size);
  RT_CHECK_EQ(m->file_capacity, 64);
  RT_CHECK_EQ(m->active, 1);
  RT_CHECK_EQ(m->starts, 1);
  RT_CHECK(m->first_start_time_ns > 0);
  RT_CHECK(m->accumulated_peers != 0 && m->baseline_peers != 0);
  RT_CHECK(m->accumulated_files != 0 && m->baseline_files != 0);
  RT_CHECK_EQ(m->mpit_state, MPIDBG_MONITOR_MPIT_NOT_READ);
  RT_CHECK_STREQ(m->output_path, "");  // started by the program: no job file
}

// --- point-to-point ---
void CheckSizes() {
  Functions().reset();
  const int sizes[] = {0, 1, 7, 8, 1024, 65536};
  std::vector<char> buf(65536, 'x');
  uint64_t total = 0;
  for (int s : sizes) total += static_cast<uint64_t>(s);
  if (g_me == 0) {
    for (int s : sizes) MPI_Send(buf.data(), s, MPI_BYTE, 1, s, MPI_COMM_WORLD);
    MPI_Send(buf.data(), 5, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  } else if (g_me == 1) {
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
      MPI_Status st;
      MPI_Recv(buf.data(), 65536, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    }
    MPI_Recv(buf.data(), 5, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  std::vector<mpidbg_monitor_peer> c = Current();
  for (int w = 0; w < g_size; ++w) {
    if (g_me == 0 && w == 1) {
      RT_CHECK_EQ(c[w].sent_messages, 6);
      RT_CHECK_EQ(c[w].sent_bytes, total);
      RT_CHECK_EQ(c[w].received_messages, 0);
      const int buckets[] = {0, 1, 3, 4, 11, 17};
      uint64_t in_buckets = 0;
      for (int b : buckets) {
        RT_CHECK_EQ(c[w].sent_histogram[b], 1);
        in_buckets += c[w].sent_histogram[b];
      }
      uint64_t all = 0;
      for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) all += c[w].sent_histogram[b];
      RT_CHECK_EQ(all, in_buckets);
    } else if (g_me == 1 && w == 0) {
      RT_CHECK_EQ(c[w].received_messages, 6);
      RT_CHECK_EQ(c[w].received_bytes, total);
      RT_CHECK_EQ(c[w].sent_messages, 0);
    } else {
      RT_CHECK(AllZero(c[w]));
    }
  }
  // Accumulated keeps what the reset took out of the current phase.
  if (g_me == 0) {
    Functions().reset();
    RT_CHECK_EQ(Peer(1, kCur).sent_messages, 0);
    RT_CHECK_EQ(Peer(1, kAcc).sent_messages, 6);
    RT_CHECK_EQ(Peer(1, kAcc).sent_bytes, total);
    RT_CHECK_EQ(Block()->resets, 3);  // main's, this phase's, this one
  }
}

void CheckRing() {
  Functions().reset();
  const int next = (g_me + 1) % g_size, prev = (g_me + g_size - 1) % g_size;
  char out[128] = {}, in[128] = {};
  // Nonblocking, statuses ignored (the runtime keeps them itself).
  MPI_Request r[2];
  MPI_Irecv(in, 100, MPI_BYTE, prev, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(out, 100, MPI_BYTE, next, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  // Persistent: counted at each start.
  MPI_Request p[2];
  MPI_Recv_init(in, 16, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &p[0]);
  MPI_Send_init(out, 4, MPI_INT, next, 2, MPI_COMM_WORLD, &p[1]);
  for (int i = 0; i < 2; ++i) {
    MPI_Startall(2, p);
    MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&p[0]);
  MPI_Request_free(&p[1]);
  // Sendrecv.
  MPI_Sendrecv(out, 1, MPI_DOUBLE, next, 3, in, 1, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  std::vector<mpidbg_monitor_peer> c = Current();
  for (int w = 0; w < g_size; ++w) {
    RT_CHECK_EQ(c[w].sent_messages, w == next ? 4 : 0);
    RT_CHECK_EQ(c[w].sent_bytes, w == next ? 100 + 2 * 16 + 8 : 0);
    RT_CHECK_EQ(c[w].received_messages, w == prev ? 4 : 0);
    RT_CHECK_EQ(c[w].received_bytes, w == prev ? 100 + 2 * 16 + 8 : 0);
    // 100 bytes: bucket 7 [64,128); 16: bucket 5 [16,32); 8: bucket 4 [8,16).
    RT_CHECK_EQ(c[w].sent_histogram[7], w == next ? 1 : 0);
    RT_CHECK_EQ(c[w].sent_histogram[5], w == next ? 2 : 0);
    RT_CHECK_EQ(c[w].sent_histogram[4], w == next ? 1 : 0);
    RT_CHECK_EQ(c[w].coll_messages, 0);
  }
}

// Over an intercommunicator between the even and the odd ranks: a message to remote
// rank r goes to the world rank that is r in the other group (here: g_me ^ 1); a
// collective counts as an operation, without bytes.
void CheckIntercomm() {
  if (g_size % 2 != 0) return;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, g_me % 2, g_me, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - g_me % 2, 7, &inter);
  int local = 0;
  MPI_Comm_rank(half, &local);
  Functions().reset();
  int out[3] = {}, in[3] = {};
  MPI_Request r;
  MPI_Irecv(in, 3, MPI_INT, MPI_ANY_SOURCE, 0, inter, &r);
  MPI_Send(out, 3, MPI_INT, local, 0, inter);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int x = 1, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, inter);
  std::vector<mpidbg_monitor_peer> c = Current();
  const int partner = g_me ^ 1;
  for (int w = 0; w < g_size; ++w) {
    RT_CHECK_EQ(c[w].sent_messages, w == partner ? 1 : 0);
    RT_CHECK_EQ(c[w].sent_bytes, w == partner ? 12 : 0);
    RT_CHECK_EQ(c[w].received_messages, w == partner ? 1 : 0);
    RT_CHECK_EQ(c[w].received_bytes, w == partner ? 12 : 0);
    RT_CHECK_EQ(c[w].coll_messages, 0);
  }
  const mpidbg_monitor_coll k = Coll(MPIDBG_COLL_ALL_TO_ALL, kCur);
  RT_CHECK_EQ(k.operations, 1);
  RT_CHECK_EQ(k.bytes_sent, 0);
  RT_CHECK_EQ(k.bytes_received, 0);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

// --- collectives: the rules of mpidbg/doc/monitoring.md, written out per call ---
struct Expected {
  std::vector<uint64_t> messages, bytes;  // per world rank
  mpidbg_monitor_coll kinds[MPIDBG_COLL_KINDS] = {};
  explicit Expected(int n) : messages(n, 0), bytes(n, 0) {}
  void Op(int kind, uint64_t sent, uint64_t received) {
    kinds[kind].operations += 1;
    kinds[kind].bytes_sent += sent;
    kinds[kind].bytes_received += received;
  }
  void To(int world, uint64_t b) {
    messages[world] += 1;
    bytes[world] += b;
  }
};

// A communicator's members as world ranks.
std::vector<int> WorldRanks(MPI_Comm comm) {
  int n = 0;
  MPI_Comm_size(comm, &n);
  MPI_Group g, wg;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i;
  MPI_Group_translate_ranks(g, n, in.data(), wg, out.data());
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  return out;
}

// Runs every collective on `comm` and adds what it should count to `e`.
void Collectives(MPI_Comm comm, Expected& e) {
  int me = 0, n = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const std::vector<int> world = WorldRanks(comm);
  const uint64_t others = static_cast<uint64_t>(n - 1);
  int ints[64] = {}, rints[64] = {};
  double dbl[8] = {}, rdbl[8] = {};
  auto to_others = [&](uint64_t b) {
    for (int i = 0; i < n; ++i) {
      if (i != me) e.To(world[i], b);
    }
  };

  MPI_Barrier(comm);
  e.Op(MPIDBG_COLL_BARRIER, 0, 0);

  MPI_Bcast(ints, 10, MPI_INT, 0, comm);  // 40 bytes from rank 0
  if (me == 0) {
    to_others(40);
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 40 * others, 0);
  } else {
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 0, 40);
  }

  const int rroot = n - 1;
  MPI_Reduce(dbl, rdbl, 3, MPI_DOUBLE, MPI_SUM, rroot, comm);  // 24 bytes to the root
  if (me == rroot) {
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 0, 24 * others);
  } else {
    e.To(world[rroot], 24);
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 24, 0);
  }

  MPI_Allreduce(ints, rints, 2, MPI_INT, MPI_SUM, comm);  // 8 bytes to every other
  to_others(8);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 8 * others, 8 * others);

  MPI_Gather(ints, 1, MPI_INT, rints, 1, MPI_INT, 0, comm);
  if (me == 0) {
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 0, 4 * others);
  } else {
    e.To(world[0], 4);
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 4, 0);
  }

  // In place at the root: its block is recvcount x recvtype.
  if (me == 0) {
    MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, rints, 2, MPI_INT, 0, comm);
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 0, 8 * others);
  } else {
    MPI_Gather(ints, 2, MPI_INT, rints, 2, MPI_INT, 0, comm);
    e.To(world[0], 8);
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 8, 0);
  }

  const int sroot = n > 2 ? 2 : 0;
  MPI_Scatter(ints, 2, MPI_INT, rints, 2, MPI_INT, sroot, comm);  // 8 bytes per member
  if (me == sroot) {
    to_others(8);
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 8 * others, 0);
  } else {
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 0, 8);
  }

  MPI_Allgather(ints, 1, MPI_INT, rints, 1, MPI_INT, comm);
  to_others(4);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 4 * others, 4 * others);

  MPI_Alltoall(ints, 3, MPI_INT, rints, 3, MPI_INT, comm);
  to_others(12);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 12 * others, 12 * others);

  MPI_Reduce_scatter_block(ints, rints, 1, MPI_INT, MPI_SUM, comm);
  to_others(4);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 4 * others, 4 * others);

  MPI_Scan(ints, rints, 1, MPI_INT, MPI_SUM, comm);
  for (int i = me + 1; i < n; ++i) e.To(world[i], 4);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 4 * static_cast<uint64_t>(n - 1 - me), 4 * static_cast<uint64_t>(me));
  MPI_Exscan(ints, rints, 1, MPI_INT, MPI_SUM, comm);
  for (int i = me + 1; i < n; ++i) e.To(world[i], 4);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 4 * static_cast<uint64_t>(n - 1 - me), 4 * static_cast<uint64_t>(me));

  // Vector forms, each member's block its own size: member i's count is i + 1 ints.
  std::vector<int> counts(n), displs(n);
  for (int i = 0, at = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = at;
    at += i + 1;
  }
  const uint64_t mine = 4 * static_cast<uint64_t>(me + 1);
  uint64_t all_others = 0;  // bytes of every other member's block
  for (int i = 0; i < n; ++i) {
    if (i != me) all_others += 4 * static_cast<uint64_t>(i + 1);
  }
  MPI_Gatherv(ints, me + 1, MPI_INT, rints, counts.data(), displs.data(), MPI_INT, 0, comm);
  if (me == 0) {
    e.Op(MPIDBG_COLL_ALL_TO_ONE, 0, all_others);
  } else {
    e.To(world[0], mine);
    e.Op(MPIDBG_COLL_ALL_TO_ONE, mine, 0);
  }
  MPI_Scatterv(ints, counts.data(), displs.data(), MPI_INT, rints, me + 1, MPI_INT, 0, comm);
  if (me == 0) {
    for (int i = 1; i < n; ++i) e.To(world[i], 4 * static_cast<uint64_t>(i + 1));
    e.Op(MPIDBG_COLL_ONE_TO_ALL, all_others, 0);
  } else {
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 0, mine);
  }
  MPI_Allgatherv(ints, me + 1, MPI_INT, rints, counts.data(), displs.data(), MPI_INT, comm);
  to_others(mine);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, mine * others, all_others);
  // Alltoallv: i + 1 ints to member i, so every member receives me + 1 ints from each.
  std::vector<int> rcounts(n, me + 1), rdispls(n);
  for (int i = 0; i < n; ++i) rdispls[i] = i * (me + 1);
  MPI_Alltoallv(ints, counts.data(), displs.data(), MPI_INT, rints, rcounts.data(),
                rdispls.data(), MPI_INT, comm);
  for (int i = 0; i < n; ++i) {
    if (i != me) e.To(world[i], 4 * static_cast<uint64_t>(i + 1));
  }
  e.Op(MPIDBG_COLL_ALL_TO_ALL, all_others, mine * others);
  // Reduce_scatter: member i's result is i + 1 ints; this member's part of it goes to i.
  MPI_Reduce_scatter(ints, rints, counts.data(), MPI_INT, MPI_SUM, comm);
  for (int i = 0; i < n; ++i) {
    if (i != me) e.To(world[i], 4 * static_cast<uint64_t>(i + 1));
  }
  e.Op(MPIDBG_COLL_ALL_TO_ALL, all_others, mine * others);

  // Nonblocking: counted when posted.
  MPI_Request r;
  char bytes[8] = {};
  const int broot = n - 1;
  MPI_Ibcast(bytes, 5, MPI_BYTE, broot, comm, &r);
  if (me == broot) {
    to_others(5);
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 5 * others, 0);
  } else {
    e.Op(MPIDBG_COLL_ONE_TO_ALL, 0, 5);
  }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Iallreduce(dbl, rdbl, 1, MPI_DOUBLE, MPI_MAX, comm, &r);
  to_others(8);
  e.Op(MPIDBG_COLL_ALL_TO_ALL, 8 * others, 8 * others);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ibarrier(comm, &r);
  e.Op(MPIDBG_COLL_BARRIER, 0, 0);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

void CheckExpected(const Expected& e) {
  std::vector<mpidbg_monitor_peer> c = Current();
  for (int w = 0; w < g_size; ++w) {
    RT_CHECK_EQ(c[w].coll_messages, e.messages[w]);
    RT_CHECK_EQ(c[w].coll_bytes, e.bytes[w]);
    RT_CHECK_EQ(c[w].sent_messages, 0);  // collectives are not point-to-point
    RT_CHECK_EQ(c[w].received_messages, 0);
  }
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    mpidbg_monitor_coll got = Coll(k, kCur);
    RT_CHECK_EQ(got.operations, e.kinds[k].operations);
    RT_CHECK_EQ(got.bytes_sent, e.kinds[k].bytes_sent);
    RT_CHECK_EQ(got.bytes_received, e.kinds[k].bytes_received);
  }
}

void CheckCollectives() {
  // Split: colour by parity, ranks in reverse world order, so split rank 0 is the
  // highest world rank of each half.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, g_me % 2, -g_me, &half);
  Functions().reset();
  Expected world(g_size);
  Collectives(MPI_COMM_WORLD, world);
  CheckExpected(world);

  Functions().reset();
  Expected split(g_size);
  Collectives(half, split);
  CheckExpected(split);
  MPI_Comm_free(&half);
}

// --- one-sided ---
void CheckRma() {
  int buffer[256] = {};
  MPI_Win win;
  MPI_Win_create(buffer, sizeof buffer, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  Functions().reset();
  const int next = (g_me + 1) % g_size, across = (g_me + 2) % g_size,
            prev = (g_me + g_size - 1) % g_size;
  int ints[8] = {1, 2, 3, 4}, result[8] = {};
  double d[4] = {};
  MPI_Win_fence(0, win);
  MPI_Put(ints, 3, MPI_INT, next, 0, 3, MPI_INT, win);                 // 12 bytes
  MPI_Get(d, 2, MPI_DOUBLE, across, 8, 2, MPI_DOUBLE, win);            // 16 bytes
  MPI_Accumulate(ints, 4, MPI_INT, prev, 16, 4, MPI_INT, MPI_SUM, win);  // 16 bytes
  MPI_Put(ints, 3, MPI_INT, MPI_PROC_NULL, 0, 3, MPI_INT, win);        // not counted
  MPI_Win_fence(0, win);
  MPI_Fetch_and_op(ints, result, MPI_INT, next, 32, MPI_SUM, win);     // 4 bytes
  MPI_Win_fence(0, win);
  MPI_Compare_and_swap(ints, ints + 1, result, MPI_INT, next, 33, win);  // 4 bytes
  MPI_Win_fence(0, win);
  MPI_Win_lock_all(0, win);
  MPI_Request r;
  MPI_Rput(d, 1, MPI_DOUBLE, next, 40, 1, MPI_DOUBLE, win, &r);       // 8 bytes
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  std::vector<mpidbg_monitor_peer> c = Current();
  MPI_Win_free(&win);
  for (int w = 0; w < g_size; ++w) {
    RT_CHECK_EQ(c[w].put_messages, w == next ? 2 : 0);
    RT_CHECK_EQ(c[w].put_bytes, w == next ? 20 : 0);
    RT_CHECK_EQ(c[w].get_messages, w == across ? 1 : 0);
    RT_CHECK_EQ(c[w].get_bytes, w == across ? 16 : 0);
    RT_CHECK_EQ(c[w].acc_messages, w == next ? 2 : w == prev ? 1 : 0);
    RT_CHECK_EQ(c[w].acc_bytes, w == next ? 8 : w == prev ? 16 : 0);
    RT_CHECK_EQ(c[w].sent_messages, 0);
  }
}

// A window on a split communicator freed before the calls: targets are world ranks
// (found through the window's group once the communicator is gone). Only the even
// ranks make one: Open MPI names a window's shared-memory segment after the
// communicator's id, which both halves of a split share.
void CheckRmaSplit() {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, g_me % 2 == 0 ? 0 : MPI_UNDEFINED, -g_me, &half);
  Functions().reset();
  if (half == MPI_COMM_NULL) {
    for (const mpidbg_monitor_peer& p : Current()) RT_CHECK_EQ(p.put_messages, 0);
    return;
  }
  const int target_world = WorldRanks(half)[0];  // split rank 0: the highest even rank
  int buffer[16] = {};
  MPI_Win win;
  MPI_Win_create(buffer, sizeof buffer, sizeof(int), MPI_INFO_NULL, half, &win);
  MPI_Comm_free(&half);
  Functions().reset();
  int ints[2] = {5, 6};
  MPI_Win_fence(0, win);
  MPI_Put(ints, 2, MPI_INT, 0, g_me, 2, MPI_INT, win);  // 8 bytes to split rank 0
  MPI_Win_fence(0, win);
  std::vector<mpidbg_monitor_peer> c = Current();
  MPI_Win_free(&win);
  for (int w = 0; w < g_size; ++w) {
    RT_CHECK_EQ(c[w].put_messages, w == target_world ? 1 : 0);
    RT_CHECK_EQ(c[w].put_bytes, w == target_world ? 8 : 0);
  }
}

// --- files ---
void CheckFiles() {
  int tag = g_me == 0 ? static_cast<int>(getpid()) : 0;
  MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char a[128], b[128];
  snprintf(a, sizeof a, "/tmp/mpidbg_monitor_check_%d_a.dat", tag);
  snprintf(b, sizeof b, "/tmp/mpidbg_monitor_check_%d_b.dat", tag);
  Functions().reset();
  char data[128] = {};
  const MPI_Offset mine = static_cast<MPI_Offset>(g_me) * 128;
  MPI_File f;
  MPI_File_open(MPI_COMM_WORLD, a, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f);
  MPI_File_write_at(f, mine, data, 25, MPI_INT, MPI_STATUS_IGNORE);  // 100 bytes
  MPI_Request r;
  MPI_File_iwrite_at(f, mine + 100, data, 10, MPI_BYTE, &r);          // 10 bytes
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_File_close(&f);
  MPI_File_open(MPI_COMM_WORLD, a, MPI_MODE_RDONLY, MPI_INFO_NULL, &f);
  MPI_File_read_at(f, mine, data, 100, MPI_BYTE, MPI_STATUS_IGNORE);  // 100 bytes
  MPI_File_read_at_all(f, mine, data, 4, MPI_INT, MPI_STATUS_IGNORE);  // 16 bytes
  MPI_File_close(&f);
  MPI_File_open(MPI_COMM_WORLD, b, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &f);
  MPI_File_write_at_all(f, mine, data, 3, MPI_DOUBLE, MPI_STATUS_IGNORE);  // 24 bytes
  MPI_File_close(&f);
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_me == 0) MPI_File_delete(a, MPI_INFO_NULL);

  mpidbg_monitor_file e;
  RT_CHECK_EQ(Functions().read_file(0, kCur, &e), 0);
  RT_CHECK_STREQ(e.name, a);
  RT_CHECK_EQ(e.state, MPIDBG_MONITOR_FILE_READY);
  RT_CHECK_EQ(e.opens, 2);
  RT_CHECK_EQ(e.write_operations, 2);
  RT_CHECK_EQ(e.write_bytes, 110);
  RT_CHECK_EQ(e.read_operations, 2);
  RT_CHECK_EQ(e.read_bytes, 116);
  RT_CHECK_EQ(Functions().read_file(1, kCur, &e), 0);
  RT_CHECK_STREQ(e.name, b);
  RT_CHECK_EQ(e.opens, 1);
  RT_CHECK_EQ(e.write_operations, 1);
  RT_CHECK_EQ(e.write_bytes, 24);
  RT_CHECK_EQ(e.read_operations, 0);
  RT_CHECK_EQ(Functions().read_file(2, kCur, &e), -1);
  RT_CHECK_EQ(Block()->files_dropped, 0);
  // A reset: current is zero, accumulated keeps the counts; the name stays.
  Functions().reset();
  RT_CHECK_EQ(Functions().read_file(0, kCur, &e), 0);
  RT_CHECK_EQ(e.opens, 0);
  RT_CHECK_EQ(e.write_bytes, 0);
  RT_CHECK_STREQ(e.name, a);
  RT_CHECK_EQ(Functions().read_file(0, kAcc, &e), 0);
  RT_CHECK_EQ(e.opens, 2);
  RT_CHECK_EQ(e.read_bytes, 116);
}

// --- stop and start ---
void CheckStop() {
  const int next = (g_me + 1) % g_size, prev = (g_me + g_size - 1) % g_size;
  const mpidbg_monitor_peer before = Peer(next, kAcc);
  const mpidbg_monitor_peer before_prev = Peer(prev, kAcc);
  const mpidbg_monitor_coll before_coll = Coll(MPIDBG_COLL_ALL_TO_ALL, kAcc);
  RT_CHECK_EQ(Functions().stop(), 0);
  RT_CHECK_EQ(Functions().active(), 0);
  RT_CHECK_EQ(Block()->active, 0);
  int x = 0, y = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, next, 9, &y, 1, MPI_INT, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const mpidbg_monitor_peer after = Peer(next, kAcc);
  RT_CHECK_EQ(after.sent_messages, before.sent_messages);
  RT_CHECK_EQ(after.coll_messages, before.coll_messages);
  RT_CHECK_EQ(Coll(MPIDBG_COLL_ALL_TO_ALL, kAcc).operations, before_coll.operations);
  RT_CHECK_EQ(Functions().stop(), 0);  // stopping twice is one stop
  RT_CHECK_EQ(Block()->stops, 1);
  RT_CHECK_EQ(Functions().start(), 0);
  RT_CHECK_EQ(Functions().active(), 1);
  RT_CHECK_EQ(Block()->starts, 2);
  MPI_Sendrecv(&x, 1, MPI_INT, next, 9, &y, 1, MPI_INT, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(Peer(next, kAcc).sent_messages, before.sent_messages + 1);
  RT_CHECK_EQ(Peer(prev, kAcc).received_messages, before_prev.received_messages + 1);
  // Out of range.
  mpidbg_monitor_peer p;
  RT_CHECK_EQ(Functions().read_peer(g_size, kAcc, &p), -1);
  RT_CHECK_EQ(Functions().read_peer(-1, kAcc, &p), -1);
  RT_CHECK_EQ(Functions().read_peer(0, 7, &p), -1);
  mpidbg_monitor_coll c;
  RT_CHECK_EQ(Functions().read_collective(MPIDBG_COLL_KINDS, kAcc, &c), -1);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_me = rtcheck::g_rank;
  if (!Usable()) return rtcheck::Finish("monitor_counts_check");
  RT_CHECK_EQ(Functions().active(), 0);
  RT_CHECK(Block() == nullptr);
  RT_CHECK_EQ(Functions().start(), 0);
  RT_CHECK_EQ(Functions().start(), 0);  // already counting: not a second start
  RT_CHECK_EQ(Functions().active(), 1);
  RT_CHECK_EQ(Functions().reset(), 0);
  CheckBlock();
  CheckSizes();
  CheckRing();
  CheckIntercomm();
  CheckCollectives();
  CheckRma();
  CheckRmaSplit();
  CheckFiles();
  CheckStop();
  const int rc = rtcheck::Finish("monitor_counts_check");
  MPI_Finalize();
  return rc;
}
