// runtime_mpi_check — an MPI program (2 ranks) that checks, from inside the process,
// the records the runtime writes. It finds `mpidbg_runtime_root` through the dynamic
// symbol table, so it works both linked against the runtime and with the runtime
// LD_PRELOADed. Usage: runtime_mpi_check <mpich|openmpi>. Exit status 0 = all passed.
#include <dirent.h>
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "mpidbg/records.h"
#include "rt_check.h"

namespace {

int g_rank = -1;
int g_failures = 0;
const mpidbg_root* g_root = nullptr;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, \
              #cond);                                                                 \
      ++g_failures;                                                                   \
    }                                                                                 \
  } while (0)

#define CHECK_EQ(a, b)                                                                   \
  do {                                                                                   \
    long long va_ = static_cast<long long>(a), vb_ = static_cast<long long>(b);          \
    if (va_ != vb_) {                                                                    \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s == %s (%lld vs %lld)\n", g_rank, \
              __FILE__, __LINE__, #a, #b, va_, vb_);                                     \
      ++g_failures;                                                                      \
    }                                                                                    \
  } while (0)

using rtcheck::Addr;
using rtcheck::At;
using rtcheck::Tid;
using rtcheck::U64;

// The debugger-style table walk every MPI check program shares (rt_check.h); its own
// failures are counted in rtcheck::g_failures and added in at the end.
using rtcheck::Records;

const mpidbg_comm_record* FindComm(uint64_t handle, bool include_freed = false) {
  for (const auto* c : Records<mpidbg_comm_record>(g_root->comms)) {
    if (c->handle != handle) continue;
    if (!include_freed && (c->hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    return c;
  }
  return nullptr;
}

const mpidbg_operation_record* FindOp(uint64_t request) {
  for (const auto* o : Records<mpidbg_operation_record>(g_root->operations)) {
    if (o->request == request && (o->hdr.flags & MPIDBG_OPERATION_BLOCKING) == 0) return o;
  }
  return nullptr;
}

// A request as a reader sees it (rt_check.h Operations(): a persistent request's start
// in a flight ring applied to its record), copied; request 0 when there is none.
mpidbg_operation_record Seen(MPI_Request r) {
  mpidbg_operation_record out{};
  if (const mpidbg_operation_record* op = rtcheck::RequestOp(U64(r))) out = *op;
  return out;
}

const mpidbg_thread_record* FindThread(uint64_t tid) {
  for (const auto* t : Records<mpidbg_thread_record>(g_root->threads)) {
    if (t->tid == tid) return t;
  }
  return nullptr;
}

uint64_t JobIdOf(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return 0;
  const mpidbg_comm_record* c = FindComm(U64(comm));
  CHECK(c != nullptr);
  return c == nullptr ? 0 : c->job_id;
}

// The job ids every world rank reports for its communicator.
std::vector<uint64_t> GatherIds(uint64_t id) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<uint64_t> all(size);
  MPI_Allgather(&id, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  return all;
}

void CheckSameEverywhere(MPI_Comm comm, const char* what) {
  const uint64_t id = JobIdOf(comm);
  CHECK(id != 0);
  for (uint64_t other : GatherIds(id)) {
    if (other != id) {
      fprintf(stderr, "[rank %d] job id of %s differs across ranks: %llx vs %llx\n", g_rank,
              what, (unsigned long long)id, (unsigned long long)other);
      ++g_failures;
    }
  }
}

void CheckRoot(int expected_flavour, int size, int provided) {
  CHECK(g_root->magic == MPIDBG_ROOT_MAGIC);
  CHECK_EQ(g_root->size, sizeof(mpidbg_root));
  CHECK_EQ(g_root->layout_version, MPIDBG_LAYOUT_VERSION);
  CHECK_EQ(g_root->flavour, expected_flavour);
  CHECK_EQ(g_root->handle_size, sizeof(MPI_Comm));
  CHECK_EQ(g_root->process_state, MPIDBG_PROCESS_RUNNING);
  CHECK_EQ(g_root->world_rank, g_rank);
  CHECK_EQ(g_root->world_size, size);
  CHECK_EQ(g_root->pid, getpid());
  CHECK_EQ(g_root->mpi_any_source, MPI_ANY_SOURCE);
  CHECK_EQ(g_root->mpi_any_tag, MPI_ANY_TAG);
  CHECK_EQ(g_root->mpi_proc_null, MPI_PROC_NULL);
  CHECK_EQ(g_root->comm_world_handle, U64(MPI_COMM_WORLD));
  CHECK_EQ(g_root->comm_self_handle, U64(MPI_COMM_SELF));
  CHECK(g_root->init_time_ns > 0);
  CHECK(g_root->hostname[0] != '\0');
  CHECK(g_root->mpi_library[0] != '\0');
  CHECK(strchr(g_root->mpi_library, '\n') == nullptr);
  CHECK_EQ(g_root->thread_level, provided == MPI_THREAD_MULTIPLE ? MPIDBG_THREAD_MULTIPLE
                                 : provided == MPI_THREAD_SERIALIZED ? MPIDBG_THREAD_SERIALIZED
                                 : provided == MPI_THREAD_FUNNELED   ? MPIDBG_THREAD_FUNNELED
                                                                     : MPIDBG_THREAD_SINGLE);
  CHECK_EQ(g_root->comms.kind, MPIDBG_KIND_COMM);
  CHECK_EQ(g_root->operations.record_size, sizeof(mpidbg_operation_record));
  CHECK_EQ(g_root->threads.record_size, sizeof(mpidbg_thread_record));
}

void CheckPredefined() {
  const mpidbg_comm_record* world = FindComm(U64(MPI_COMM_WORLD));
  const mpidbg_comm_record* self = FindComm(U64(MPI_COMM_SELF));
  CHECK(world != nullptr && self != nullptr);
  if (world == nullptr || self == nullptr) return;
  CHECK(world->hdr.flags & MPIDBG_REC_PREDEFINED);
  CHECK(self->hdr.flags & MPIDBG_REC_PREDEFINED);
  CHECK_EQ(world->creator, MPIDBG_CALL_MPIDBG_PREDEFINED);
  CHECK(strcmp(world->name, "MPI_COMM_WORLD") == 0);
  CHECK(strcmp(self->name, "MPI_COMM_SELF") == 0);
  CHECK_EQ(world->rank, g_rank);
  CHECK_EQ(world->size, 2);
  const int32_t* wr = At<int32_t>(world->world_ranks);
  CHECK(wr != nullptr && wr[0] == 0 && wr[1] == 1);
  CHECK_EQ(self->size, 1);
  CHECK_EQ(At<int32_t>(self->world_ranks)[0], g_rank);
  CheckSameEverywhere(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  std::vector<uint64_t> selves = GatherIds(self->job_id);
  CHECK(selves[0] != selves[1]);
}

void CheckDerivedComms(MPI_Comm* dup_out) {
  const int peer = 1 - g_rank;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const mpidbg_comm_record* d = FindComm(U64(dup));
  CHECK(d != nullptr);
  if (d != nullptr) {
    CHECK_EQ(d->creator, MPIDBG_CALL_MPI_Comm_dup);
    CHECK_EQ(d->parent_job_id, JobIdOf(MPI_COMM_WORLD));
    CHECK_EQ(d->name[0], '\0');
    CHECK_EQ(d->size, 2);
    CHECK_EQ(d->rank, g_rank);
    CHECK(d->job_id != JobIdOf(MPI_COMM_WORLD));
  }
  MPI_Comm_set_name(dup, "dupcomm");
  CHECK(d != nullptr && strcmp(d->name, "dupcomm") == 0);
  CheckSameEverywhere(dup, "dup");

  // Reversed split: rank order differs from world order.
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 3, -g_rank, &rev);
  const mpidbg_comm_record* r = FindComm(U64(rev));
  CHECK(r != nullptr);
  if (r != nullptr) {
    CHECK_EQ(r->creator, MPIDBG_CALL_MPI_Comm_split);
    CHECK_EQ(r->split_color, 3);
    CHECK_EQ(r->split_key, -g_rank);
    CHECK_EQ(r->rank, 1 - g_rank);
    const int32_t* wr = At<int32_t>(r->world_ranks);
    CHECK(wr != nullptr && wr[0] == 1 && wr[1] == 0);
  }
  CheckSameEverywhere(rev, "reversed split");

  // A split that gives rank 1 MPI_COMM_NULL still advances its creation counter.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank == 0 ? 0 : MPI_UNDEFINED, 0, &half);
  CHECK((g_rank == 0) == (half != MPI_COMM_NULL));
  MPI_Comm dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
  CheckSameEverywhere(dup2, "dup after an MPI_UNDEFINED split");
  CHECK(JobIdOf(dup2) != JobIdOf(dup));

  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
  const mpidbg_comm_record* s = FindComm(U64(shared));
  CHECK(s != nullptr && s->split_color == MPI_COMM_TYPE_SHARED &&
        s->creator == MPIDBG_CALL_MPI_Comm_split_type);
  CheckSameEverywhere(shared, "split_type");

  int dims[1] = {2}, periods[1] = {0};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  const mpidbg_comm_record* c = FindComm(U64(cart));
  CHECK(c != nullptr && (c->hdr.flags & MPIDBG_COMM_CART) && c->creator == MPIDBG_CALL_MPI_Cart_create);
  CheckSameEverywhere(cart, "cart");

  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm grp;
  MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 5, &grp);
  CheckSameEverywhere(grp, "create_group");
  MPI_Comm created;
  MPI_Comm_create(MPI_COMM_WORLD, world_group, &created);
  CheckSameEverywhere(created, "create");
  MPI_Group_free(&world_group);

  // Intercommunicator between the two single-rank halves.
  MPI_Comm local, inter, merged;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank, 0, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, peer, 42, &inter);
  const mpidbg_comm_record* ic = FindComm(U64(inter));
  CHECK(ic != nullptr);
  if (ic != nullptr) {
    CHECK(ic->hdr.flags & MPIDBG_COMM_INTER);
    CHECK_EQ(ic->remote_size, 1);
    CHECK(ic->remote_world_ranks != 0 && At<int32_t>(ic->remote_world_ranks)[0] == peer);
    CHECK_EQ(ic->creator, MPIDBG_CALL_MPI_Intercomm_create);
  }
  CheckSameEverywhere(inter, "intercomm");
  MPI_Intercomm_merge(inter, g_rank, &merged);
  const mpidbg_comm_record* m = FindComm(U64(merged));
  CHECK(m != nullptr && m->size == 2 && m->creator == MPIDBG_CALL_MPI_Intercomm_merge);
  CheckSameEverywhere(merged, "merged");
  MPI_Comm interdup;
  MPI_Comm_dup(inter, &interdup);
  CheckSameEverywhere(interdup, "dup of an intercomm");

  MPI_Comm idup;
  MPI_Request req;
  MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
  const mpidbg_operation_record* io = FindOp(U64(req));
  CHECK(io != nullptr && io->direction == MPIDBG_OPERATION_COLLECTIVE && io->call == MPIDBG_CALL_MPI_Comm_idup);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  const mpidbg_comm_record* id = FindComm(U64(idup));
  CHECK(id != nullptr && id->creator == MPIDBG_CALL_MPI_Comm_idup);
  CheckSameEverywhere(idup, "idup");

  // Freeing keeps an orphan record marked freed.
  const uint64_t dup2_handle = U64(dup2);
  MPI_Comm_free(&dup2);
  const mpidbg_comm_record* freed = FindComm(dup2_handle, true);
  CHECK(freed != nullptr && (freed->hdr.flags & MPIDBG_REC_FREED));
  CHECK(FindComm(dup2_handle) == nullptr);

  for (MPI_Comm* p : {&rev, &shared, &cart, &grp, &created, &local, &inter, &merged, &interdup, &idup}) {
    MPI_Comm_free(p);
  }
  if (half != MPI_COMM_NULL) MPI_Comm_free(&half);
  *dup_out = dup;
}

void CheckNonblocking() {
  const int peer = 1 - g_rank;
  const uint32_t live_before = g_root->operations.live_count;
  int r7[10], rany[5], s9[3] = {1, 2, 3}, s7[10] = {0};
  MPI_Request req[3];
  MPI_Irecv(r7, 10, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(rany, 5, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
  MPI_Issend(s9, 3, MPI_INT, peer, 9, MPI_COMM_WORLD, &req[2]);
  const uint64_t handles[3] = {U64(req[0]), U64(req[1]), U64(req[2])};
  const mpidbg_operation_record* o[3] = {FindOp(handles[0]), FindOp(handles[1]), FindOp(handles[2])};
  CHECK(o[0] != nullptr && o[1] != nullptr && o[2] != nullptr);
  CHECK_EQ(g_root->operations.live_count, live_before + 3);
  const uint64_t world_id = JobIdOf(MPI_COMM_WORLD);
  if (o[0] != nullptr && o[1] != nullptr && o[2] != nullptr) {
    CHECK_EQ(o[0]->direction, MPIDBG_OPERATION_RECV);
    CHECK_EQ(o[0]->mode, MPIDBG_MODE_NONE);
    CHECK_EQ(o[0]->call, MPIDBG_CALL_MPI_Irecv);
    CHECK_EQ(o[0]->peer, peer);
    CHECK_EQ(o[0]->peer_world, peer);
    CHECK_EQ(o[0]->tag, 7);
    CHECK_EQ(o[0]->count, 10);
    CHECK_EQ(o[0]->bytes, 40);
    CHECK_EQ(o[0]->buffer, Addr(r7));
    CHECK_EQ(o[0]->status, MPIDBG_OPERATION_PENDING);
    CHECK(strcmp(o[0]->datatype_name, "MPI_INT") == 0);
    CHECK_EQ(o[0]->datatype, U64(MPI_INT));
    CHECK_EQ(o[0]->comm_handle, U64(MPI_COMM_WORLD));
    CHECK_EQ(o[0]->comm_job_id, world_id);
    CHECK_EQ(o[0]->tid, Tid());
    CHECK(o[0]->post_time_ns > 0);
    CHECK_EQ(o[0]->hdr.seq & 1u, 0);

    CHECK_EQ(o[1]->peer, MPIDBG_RANK_ANY_SOURCE);
    CHECK_EQ(o[1]->peer_world, MPIDBG_RANK_ANY_SOURCE);
    CHECK_EQ(o[1]->tag, MPIDBG_TAG_ANY);

    CHECK_EQ(o[2]->direction, MPIDBG_OPERATION_SEND);
    CHECK_EQ(o[2]->mode, MPIDBG_MODE_SYNCHRONOUS);
    CHECK_EQ(o[2]->call, MPIDBG_CALL_MPI_Issend);
    CHECK_EQ(o[2]->tag, 9);
    CHECK_EQ(o[2]->bytes, 12);
    CHECK(o[0]->post_serial < o[1]->post_serial && o[1]->post_serial < o[2]->post_serial);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(s7, 10, MPI_INT, peer, 7, MPI_COMM_WORLD);
  MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  CHECK_EQ(g_root->operations.live_count, live_before);
  for (uint64_t h : handles) CHECK(FindOp(h) == nullptr);

  // Waitany and Test on self-messages.
  int a = 5, b = 0;
  MPI_Request two[2];
  MPI_Irecv(&b, 1, MPI_INT, g_rank, 11, MPI_COMM_WORLD, &two[0]);
  MPI_Isend(&a, 1, MPI_INT, g_rank, 11, MPI_COMM_WORLD, &two[1]);
  CHECK_EQ(g_root->operations.live_count, live_before + 2);
  for (int done = 0; done < 2; ++done) {
    int index = -1;
    MPI_Waitany(2, two, &index, MPI_STATUS_IGNORE);
  }
  CHECK_EQ(g_root->operations.live_count, live_before);
  MPI_Request one;
  MPI_Isend(&a, 1, MPI_INT, g_rank, 12, MPI_COMM_WORLD, &one);
  MPI_Recv(&b, 1, MPI_INT, g_rank, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int flag = 0; !flag;) MPI_Test(&one, &flag, MPI_STATUS_IGNORE);
  CHECK_EQ(g_root->operations.live_count, live_before);
}

// One pair of persistent requests made, started three times and freed. The second
// pass makes them with the same arguments but other buffers: its records are copies of
// the first pass's (the thread's request memo), and must say the same but for those.
void CheckPersistentPass(int pass) {
  const int peer = 1 - g_rank;
  const uint32_t live_before = g_root->operations.live_count;
  double buffers[2][2][4] = {{{1, 2, 3, 4}, {0}}, {{5, 6, 7, 8}, {0}}};
  double* sb = buffers[pass][0];
  double* rb = buffers[pass][1];
  MPI_Request pr[2];
  MPI_Recv_init(rb, 4, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &pr[0]);
  MPI_Send_init(sb, 4, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &pr[1]);
  const mpidbg_operation_record* recv = FindOp(U64(pr[0]));
  const mpidbg_operation_record* send = FindOp(U64(pr[1]));
  CHECK(recv != nullptr && send != nullptr);
  if (recv == nullptr || send == nullptr) return;
  const uint32_t both = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  CHECK_EQ(recv->hdr.flags & both, both);
  CHECK_EQ(send->hdr.flags & both, both);
  CHECK_EQ(recv->call, MPIDBG_CALL_MPI_Recv_init);
  CHECK_EQ(send->call, MPIDBG_CALL_MPI_Send_init);
  CHECK_EQ(recv->direction, MPIDBG_OPERATION_RECV);
  CHECK_EQ(send->direction, MPIDBG_OPERATION_SEND);
  CHECK_EQ(recv->request, U64(pr[0]));
  CHECK_EQ(send->request, U64(pr[1]));
  CHECK_EQ(recv->buffer, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(rb)));
  CHECK_EQ(send->buffer, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(sb)));
  CHECK(recv->post_serial != send->post_serial);
  CHECK_EQ(recv->peer, peer);
  CHECK_EQ(send->tag, 21);
  CHECK_EQ(send->bytes, 32);
  CHECK(strcmp(send->datatype_name, "MPI_DOUBLE") == 0);
  // Started, a request is what a reader makes of its record and the start (below
  // MPI_THREAD_MULTIPLE an entry of the thread's flight ring, records.h
  // MPIDBG_FLIGHT_START): active, pending, a new post serial, the init's envelope.
  uint64_t serial = send->post_serial;
  for (int round = 0; round < 3; ++round) {
    MPI_Startall(2, pr);
    const mpidbg_operation_record rs = Seen(pr[0]), ss = Seen(pr[1]);
    CHECK_EQ(rs.request, U64(pr[0]));
    CHECK_EQ(ss.request, U64(pr[1]));
    CHECK_EQ(rs.hdr.flags & both, MPIDBG_OPERATION_PERSISTENT);
    CHECK_EQ(ss.hdr.flags & both, MPIDBG_OPERATION_PERSISTENT);
    CHECK_EQ(ss.status, MPIDBG_OPERATION_PENDING);
    CHECK(ss.post_serial > serial && rs.post_serial > serial && rs.post_serial != ss.post_serial);
    serial = ss.post_serial > rs.post_serial ? ss.post_serial : rs.post_serial;
    CHECK_EQ(ss.call, MPIDBG_CALL_MPI_Send_init);
    CHECK_EQ(rs.call, MPIDBG_CALL_MPI_Recv_init);
    CHECK_EQ(ss.bytes, 32);
    CHECK_EQ(ss.tag, 21);
    CHECK_EQ(rs.peer, peer);
    CHECK_EQ(ss.buffer, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(sb)));
    CHECK(strcmp(ss.datatype_name, "MPI_DOUBLE") == 0);
    MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
    CHECK_EQ(Seen(pr[0]).hdr.flags & both, both);
    CHECK_EQ(Seen(pr[1]).hdr.flags & both, both);
    CHECK_EQ(recv->hdr.flags & both, both);
    CHECK_EQ(send->hdr.flags & both, both);
  }
  MPI_Start(&pr[0]);
  CHECK_EQ(Seen(pr[0]).hdr.flags & both, MPIDBG_OPERATION_PERSISTENT);
  CHECK_EQ(Seen(pr[1]).hdr.flags & both, both);
  MPI_Start(&pr[1]);
  MPI_Wait(&pr[0], MPI_STATUS_IGNORE);
  MPI_Wait(&pr[1], MPI_STATUS_IGNORE);
  CHECK_EQ(Seen(pr[0]).hdr.flags & both, both);
  const uint64_t handles[2] = {U64(pr[0]), U64(pr[1])};
  MPI_Request_free(&pr[0]);
  MPI_Request_free(&pr[1]);
  CHECK(FindOp(handles[0]) == nullptr && FindOp(handles[1]) == nullptr);
  CHECK_EQ(g_root->operations.live_count, live_before);
  if (pass == 1) CHECK_EQ(rb[0], 5.0);
}

void CheckPersistent() {
  CheckPersistentPass(0);
  CheckPersistentPass(1);
}

void CheckNonblockingCollectives() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  const mpidbg_operation_record* o = FindOp(U64(req));
  CHECK(o != nullptr);
  if (o != nullptr) {
    CHECK_EQ(o->direction, MPIDBG_OPERATION_COLLECTIVE);
    CHECK_EQ(o->call, MPIDBG_CALL_MPI_Ibarrier);
    CHECK_EQ(o->peer, -1);
    CHECK_EQ(o->comm_job_id, JobIdOf(MPI_COMM_WORLD));
  }
  const uint64_t h = U64(req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(FindOp(h) == nullptr);

  int data[3] = {1, 2, 3};
  MPI_Ibcast(data, 3, MPI_INT, 1, MPI_COMM_WORLD, &req);
  o = FindOp(U64(req));
  CHECK(o != nullptr && o->call == MPIDBG_CALL_MPI_Ibcast && o->peer == 1 && o->peer_world == 1 &&
        o->bytes == 12 && strcmp(o->datatype_name, "MPI_INT") == 0);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

// --- thread records ---

struct Blocker {
  int which;  // 0: MPI_Recv, 1: MPI_Sendrecv, 2: MPI_Bcast on `comm`
  int peer;
  MPI_Comm comm;
  volatile uint64_t tid;
};

void* BlockerMain(void* p) {
  auto* b = static_cast<Blocker*>(p);
  b->tid = Tid();
  int in = 0, out = 1, buf[2] = {0, 0};
  if (b->which == 0) {
    MPI_Recv(&in, 1, MPI_INT, b->peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (b->which == 1) {
    MPI_Sendrecv(&out, 1, MPI_INT, b->peer, 97, &in, 1, MPI_INT, b->peer, 98, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  } else {
    MPI_Bcast(buf, 2, MPI_INT, 1, b->comm);
  }
  return nullptr;
}

// Waits until the thread `tid` is blocked in `call`.
const mpidbg_thread_record* WaitBlocked(const volatile uint64_t* tid, int call) {
  for (int i = 0; i < 20000; ++i) {
    if (*tid != 0) {
      const mpidbg_thread_record* t = FindThread(*tid);
      if (t != nullptr && t->state == MPIDBG_THREAD_BLOCKED && t->call == call) return t;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, nullptr);
  }
  fprintf(stderr, "[rank %d] thread never blocked in call %d\n", g_rank, call);
  ++g_failures;
  return nullptr;
}

// Both main threads have looked at their blocked thread; only now may either release
// the other's (a message from the peer would otherwise unblock ours before we look).
void BothLooked(int peer) {
  int x = 0, y = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, peer, 60, &y, 1, MPI_INT, peer, 60, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

void CheckBlockedThreads(MPI_Comm dup) {
  const int peer = 1 - g_rank;
  const uint32_t threads_before = g_root->threads.live_count;
  const uint32_t ops_before = g_root->operations.live_count;

  // A thread blocked in MPI_Recv.
  Blocker b{0, peer, MPI_COMM_WORLD, 0};
  pthread_t th;
  pthread_create(&th, nullptr, BlockerMain, &b);
  const mpidbg_thread_record* t = WaitBlocked(&b.tid, MPIDBG_CALL_MPI_Recv);
  if (t != nullptr) {
    CHECK_EQ(t->comm_handle, U64(MPI_COMM_WORLD));
    CHECK_EQ(t->comm_job_id, JobIdOf(MPI_COMM_WORLD));
    CHECK(t->entry_time_ns > 0);
    CHECK_EQ(t->requests, 0);
    const auto* op = At<mpidbg_operation_record>(t->op);
    CHECK(op != nullptr);
    if (op != nullptr) {
      CHECK_EQ(op->hdr.kind, MPIDBG_KIND_OPERATION);
      CHECK(op->hdr.flags & MPIDBG_OPERATION_BLOCKING);
      CHECK_EQ(op->request, 0);
      CHECK_EQ(op->direction, MPIDBG_OPERATION_RECV);
      CHECK_EQ(op->call, MPIDBG_CALL_MPI_Recv);
      CHECK_EQ(op->peer, peer);
      CHECK_EQ(op->peer_world, peer);
      CHECK_EQ(op->tag, 99);
      CHECK_EQ(op->bytes, 4);
      CHECK_EQ(op->tid, b.tid);
      CHECK(strcmp(op->datatype_name, "MPI_INT") == 0);
    }
    const mpidbg_thread_record* me = FindThread(Tid());
    CHECK(me != nullptr && me->state == MPIDBG_THREAD_NOT_IN_MPI);
  }
  BothLooked(peer);
  int v = 1;
  MPI_Send(&v, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
  pthread_join(th, nullptr);
  CHECK(FindThread(b.tid) == nullptr);
  CHECK_EQ(g_root->threads.live_count, threads_before);
  CHECK_EQ(g_root->operations.live_count, ops_before);

  // A thread blocked in MPI_Sendrecv: the record names the receive half.
  Blocker s{1, peer, MPI_COMM_WORLD, 0};
  pthread_create(&th, nullptr, BlockerMain, &s);
  t = WaitBlocked(&s.tid, MPIDBG_CALL_MPI_Sendrecv);
  if (t != nullptr) {
    const auto* op = At<mpidbg_operation_record>(t->op);
    CHECK(op != nullptr && op->direction == MPIDBG_OPERATION_RECV && op->tag == 98);
    bool send_half = false;
    for (const auto* o : Records<mpidbg_operation_record>(g_root->operations)) {
      if (o->tid == s.tid && o->direction == MPIDBG_OPERATION_SEND && o->tag == 97 &&
          (o->hdr.flags & MPIDBG_OPERATION_BLOCKING))
        send_half = true;
    }
    CHECK(send_half);
  }
  BothLooked(peer);
  MPI_Send(&v, 1, MPI_INT, peer, 98, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, peer, 97, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  pthread_join(th, nullptr);
  CHECK_EQ(g_root->operations.live_count, ops_before);

  // A collective: rank 0's thread waits in MPI_Bcast (root 1) until rank 1 joins.
  int buf[2] = {7, 8};
  if (g_rank == 0) {
    Blocker c{2, peer, dup, 0};
    pthread_create(&th, nullptr, BlockerMain, &c);
    t = WaitBlocked(&c.tid, MPIDBG_CALL_MPI_Bcast);
    if (t != nullptr) {
      CHECK_EQ(t->root, 1);
      CHECK_EQ(t->count, 2);
      CHECK_EQ(t->comm_job_id, JobIdOf(dup));
      CHECK(strcmp(t->datatype_name, "MPI_INT") == 0);
      CHECK_EQ(t->op, 0);
    }
    MPI_Send(&v, 1, MPI_INT, 1, 50, MPI_COMM_WORLD);
    pthread_join(th, nullptr);
  } else {
    MPI_Recv(&v, 1, MPI_INT, 0, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(buf, 2, MPI_INT, 1, dup);
  }
}

// Many threads posting and completing requests at once: every record comes back.
void* ChurnMain(void* p) {
  const int tag = 200 + static_cast<int>(reinterpret_cast<intptr_t>(p));
  for (int i = 0; i < 300; ++i) {
    int out = i, in = -1;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, g_rank, tag, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, g_rank, tag, MPI_COMM_WORLD, &r[1]);
    if (i % 2 == 0) {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      int outcount = 0, indices[2];
      for (int done = 0; done < 2; done += outcount == MPI_UNDEFINED ? 0 : outcount) {
        MPI_Testsome(2, r, &outcount, indices, MPI_STATUSES_IGNORE);
      }
    }
    if (in != i) {
      fprintf(stderr, "[rank %d] churn: wrong payload\n", g_rank);
      ++g_failures;
    }
  }
  return nullptr;
}

void CheckConcurrentChurn() {
  const uint32_t ops_before = g_root->operations.live_count;
  const uint32_t threads_before = g_root->threads.live_count;
  pthread_t th[4];
  for (intptr_t t = 0; t < 4; ++t) pthread_create(&th[t], nullptr, ChurnMain, reinterpret_cast<void*>(t));
  for (pthread_t& t : th) pthread_join(t, nullptr);
  CHECK_EQ(g_root->operations.live_count, ops_before);
  CHECK_EQ(g_root->threads.live_count, threads_before);
  CHECK_EQ(Records<mpidbg_operation_record>(g_root->operations).size(), ops_before);
}

// Threads of this process named `name` (/proc/self/task/*/comm).
int ThreadsNamed(const char* name) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int n = 0;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    char path[300], comm[32] = {0};
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE* f = fopen(path, "r");
    if (f == nullptr) continue;
    if (fgets(comm, sizeof comm, f) != nullptr) comm[strcspn(comm, "\n")] = '\0';
    fclose(f);
    if (strcmp(comm, name) == 0) ++n;
  }
  closedir(dir);
  return n;
}

int64_t CoarseNowNs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The tick keeper (doc/hot_path.md, "Time"): one thread from MPI_Init to MPI_Finalize,
// none with MPIDBG_CLOCK_TICK_MS=0; either way a call's entry time is the coarse clock's
// within a few ticks.
void CheckTickKeeper() {
  const char* setting = getenv("MPIDBG_CLOCK_TICK_MS");
  const bool off = setting != nullptr && strcmp(setting, "0") == 0;
  CHECK_EQ(ThreadsNamed("mpidbg-clock"), off ? 0 : 1);
  const int64_t before = CoarseNowNs();
  int x = g_rank, y = -1;
  MPI_Sendrecv(&x, 1, MPI_INT, 1 - g_rank, 61, &y, 1, MPI_INT, 1 - g_rank, 61,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ(y, 1 - g_rank);
  const mpidbg_thread_record* me = FindThread(Tid());
  CHECK(me != nullptr);
  if (me == nullptr) return;
  // The record keeps the last call's entry time after it returns.
  CHECK(me->entry_time_ns <= CoarseNowNs());
  CHECK(me->entry_time_ns >= before - 100000000);  // 100 ms: many ticks
}

void CheckOwnThreadAfterCalls() {
  const mpidbg_thread_record* me = FindThread(Tid());
  CHECK(me != nullptr);
  if (me == nullptr) return;
  CHECK_EQ(me->state, MPIDBG_THREAD_NOT_IN_MPI);
  CHECK_EQ(me->call, MPIDBG_CALL_NONE);
  CHECK_EQ(me->op, 0);
  CHECK_EQ(me->requests, 0);
  CHECK_EQ(me->root, -1);
  CHECK(me->calls > 10);
  CHECK_EQ(me->hdr.seq & 1u, 0);
}

}  // namespace

int main(int argc, char** argv) {
  const int expected_flavour = argc > 1 && strcmp(argv[1], "openmpi") == 0 ? MPIDBG_FLAVOUR_OPENMPI
                               : argc > 1 && strcmp(argv[1], "mpich") == 0 ? MPIDBG_FLAVOUR_MPICH
                                                                           : -1;
  g_root = static_cast<const mpidbg_root*>(dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL));
  if (g_root == nullptr) {
    fprintf(stderr, "runtime_mpi_check: symbol %s not found (runtime not loaded)\n",
            MPIDBG_ROOT_SYMBOL);
    return 2;
  }
  // Valid before MPI_Init.
  CHECK(g_root->magic == MPIDBG_ROOT_MAGIC);
  CHECK_EQ(g_root->process_state, MPIDBG_PROCESS_BEFORE_INIT);
  CHECK_EQ(g_root->world_rank, -1);

  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (g_rank == 0) fprintf(stderr, "runtime_mpi_check needs exactly 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  const uint64_t generation = g_root->generation;

  CheckRoot(expected_flavour, size, provided);
  CheckPredefined();
  MPI_Comm dup;
  CheckDerivedComms(&dup);
  CheckNonblocking();
  CheckPersistent();
  CheckNonblockingCollectives();
  if (provided == MPI_THREAD_MULTIPLE) {
    CheckBlockedThreads(dup);
    CheckConcurrentChurn();
  } else if (g_rank == 0) {
    fprintf(stderr, "note: MPI_THREAD_MULTIPLE not provided; thread checks skipped\n");
  }
  CheckOwnThreadAfterCalls();
  CheckTickKeeper();
  CHECK(g_root->generation > generation);
  MPI_Comm_free(&dup);

  MPI_Finalize();
  // The keeper is joined in MPI_Finalize. pthread_join returns once the kernel has
  // cleared the thread's tid, which it does before the task leaves /proc/self/task, so
  // the entry may linger for a moment after the join: it must be gone within a second.
  for (int i = 0; i < 100 && ThreadsNamed("mpidbg-clock") != 0; ++i) usleep(10000);
  CHECK_EQ(ThreadsNamed("mpidbg-clock"), 0);
  CHECK_EQ(g_root->process_state, MPIDBG_PROCESS_FINALIZED);
  g_failures += rtcheck::g_failures;  // the shared table walk's own checks
  printf("[rank %d] runtime_mpi_check: %s (%d failed checks)\n", g_rank,
         g_failures == 0 ? "PASS" : "FAIL", g_failures);
  return g_failures == 0 ? 0 : 1;
}
