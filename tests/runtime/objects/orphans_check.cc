// orphans_check — 2 ranks, run with MPIDBG_ORPHAN_BUDGET=4. Records of freed handles of
// every kind share one budget: past it the oldest are evicted (and counted), a debugger
// may keep them all (root.orphan_keep_all) or drop them (mpidbg_release_orphans()); a
// release the clock thread carries out leaves freed requests to the next MPI call.
// Usage: rt_orphans_<f> <mpich|openmpi>.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "rt_check.h"

using namespace rtcheck;

namespace {

mpidbg_root* R = nullptr;

// free_serial of every orphan (freed record) in the tables of this area.
std::vector<uint64_t> OrphanSerials() {
  std::vector<uint64_t> out;
  for (const auto* c : Records<mpidbg_comm_record>(R->comms))
    if (c->hdr.flags & MPIDBG_REC_FREED) out.push_back(c->free_serial);
  auto objects = [&](const mpidbg_table& t) {
    for (const auto* r : Records<mpidbg_object_head>(t))
      if (r->hdr.flags & MPIDBG_REC_FREED) out.push_back(r->free_serial);
  };
  objects(R->groups);
  objects(R->infos);
  objects(R->errhandlers);
  objects(R->reduce_ops);
  objects(R->sessions);
  objects(R->datatypes);
  objects(R->windows);
  objects(R->files);
  objects(R->messages);
  std::sort(out.begin(), out.end());
  return out;
}

// The last n free serials handed out: what a budget of n keeps.
std::vector<uint64_t> Newest(uint64_t n) {
  std::vector<uint64_t> v;
  for (uint64_t s = R->free_counter - n + 1; s <= R->free_counter; ++s) v.push_back(s);
  return v;
}

void FreeInfos(int n) {
  for (int i = 0; i < n; ++i) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_free(&info);
  }
}

void UserOp(void*, void*, int*, MPI_Datatype*) {}
void UserEh(MPI_Comm*, int*, ...) {}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  R = const_cast<mpidbg_root*>(Root());
  if (R == nullptr) {
    MPI_Finalize();
    return Finish("orphans_check");
  }
  RT_CHECK_EQ(R->orphan_budget, 4u);  // MPIDBG_ORPHAN_BUDGET
  RT_CHECK_EQ(R->orphan_keep_all, 0u);
  using Release = int (*)(void);
  auto release = reinterpret_cast<Release>(dlsym(RTLD_DEFAULT, "mpidbg_release_orphans"));
  RT_CHECK(release != nullptr);

  // 1. Past the budget the oldest orphans go first, and are counted.
  const uint64_t count0 = R->orphan_count, evictions0 = R->orphan_evictions;
  FreeInfos(10);
  RT_CHECK_EQ(R->orphan_count, 4u);
  RT_CHECK_EQ(R->orphan_evictions, evictions0 + count0 + 10 - 4);
  RT_CHECK(OrphanSerials() == Newest(4));

  // 2. All kinds share the budget: four orphans of other kinds push out every info.
  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Op op;
  MPI_Op_create(&UserOp, 1, &op);
  MPI_Errhandler eh;
  MPI_Comm_create_errhandler(&UserEh, &eh);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const uint64_t evictions1 = R->orphan_evictions;
  MPI_Group_free(&g);
  MPI_Op_free(&op);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&dup);
  RT_CHECK_EQ(R->orphan_count, 4u);
  RT_CHECK_EQ(R->orphan_evictions, evictions1 + 4);
  RT_CHECK(OrphanSerials() == Newest(4));
  int infos_left = 0;
  for (const auto* r : Records<mpidbg_info_record>(R->infos))
    if (r->obj.hdr.flags & MPIDBG_REC_FREED) ++infos_left;
  RT_CHECK_EQ(infos_left, 0);

  // 3. A freed communicator still waited on is evicted like any orphan; the slot it
  // leaves may be reused at once and must not inherit its state.
  MPI_Comm pend;
  MPI_Comm_dup(MPI_COMM_WORLD, &pend);
  int in = -1, out = 5;
  MPI_Request req = MPI_REQUEST_NULL;
  if (g_rank == 0) MPI_Irecv(&in, 1, MPI_INT, 1, 1, pend, &req);
  if (g_rank == 1) MPI_Send(&out, 1, MPI_INT, 0, 1, pend);
  const mpidbg_comm_record* pend_rec = nullptr;
  for (const auto* c : Records<mpidbg_comm_record>(R->comms)) {
    if (c->handle == U64(pend) && (c->hdr.flags & MPIDBG_REC_FREED) == 0) pend_rec = c;
  }
  RT_CHECK(pend_rec != nullptr);
  MPI_Comm_free(&pend);
  // MPI keeps a freed communicator while an operation on it is pending: rank 0's receive
  // keeps its record unreleased; rank 1 has nothing pending on it.
  if (pend_rec != nullptr) {
    RT_CHECK((pend_rec->hdr.flags & MPIDBG_REC_FREED) != 0);
    RT_CHECK_EQ((pend_rec->hdr.flags & MPIDBG_REC_RELEASED) != 0, g_rank != 0);
  }
  FreeInfos(4);  // evicts the communicator
  MPI_Comm fresh;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  for (const auto* c : Records<mpidbg_comm_record>(R->comms)) {
    if (c->handle == U64(fresh) && (c->hdr.flags & MPIDBG_REC_FREED) == 0)
      RT_CHECK_EQ(c->hdr.flags & MPIDBG_REC_RELEASED, 0);
  }
  if (g_rank == 0) MPI_Wait(&req, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(in, g_rank == 0 ? 5 : -1);
  MPI_Comm_free(&fresh);

  // 4. keep_all: a debugger's wish to keep every orphan beats the budget.
  R->orphan_keep_all = 1;
  const uint64_t evictions2 = R->orphan_evictions;
  const uint64_t count2 = R->orphan_count;
  FreeInfos(6);
  RT_CHECK_EQ(R->orphan_count, count2 + 6);
  RT_CHECK_EQ(R->orphan_evictions, evictions2);
  RT_CHECK_EQ(OrphanSerials().size(), count2 + 6);

  // 5. mpidbg_release_orphans() drops them all.
  const uint64_t releases0 = R->orphan_releases;
  const uint64_t kept = R->orphan_count;
  if (release != nullptr) RT_CHECK_EQ(release(), static_cast<int>(kept));
  RT_CHECK_EQ(R->orphan_count, 0u);
  RT_CHECK_EQ(R->orphan_releases, releases0 + kept);
  RT_CHECK(OrphanSerials().empty());
  if (release != nullptr) RT_CHECK_EQ(release(), 0);

  // 6. With keep_all cleared the budget applies again at the next free.
  FreeInfos(2);
  RT_CHECK_EQ(R->orphan_count, 2u);
  R->orphan_keep_all = 0;
  FreeInfos(5);
  RT_CHECK_EQ(R->orphan_count, 4u);
  RT_CHECK(OrphanSerials() == Newest(4));

  // 7. A release asked for by writing the root (as a debugger that cannot call into
  // the process does) is carried out by the clock thread while this thread sits in a
  // blocking call, then acknowledged.
  const uint64_t releases1 = R->orphan_releases;
  const uint64_t kept1 = R->orphan_count;
  RT_CHECK(kept1 > 0);
  const uint64_t asked = R->orphan_release_done + 1;
  __atomic_store_n(&R->orphan_release_asked, asked, __ATOMIC_RELEASE);
  uint64_t done = 0;
  for (int i = 0; i < 100 && done != asked; ++i) {
    usleep(20000);  // outside MPI: no free, no call of ours runs it
    done = __atomic_load_n(&R->orphan_release_done, __ATOMIC_ACQUIRE);
  }
  if (getenv("MPIDBG_CLOCK_TICK_MS") != nullptr && strcmp(getenv("MPIDBG_CLOCK_TICK_MS"), "0") == 0) {
    // No clock thread: the next free carries it out.
    RT_CHECK(done != asked);
    FreeInfos(1);
    done = __atomic_load_n(&R->orphan_release_done, __ATOMIC_ACQUIRE);
    RT_CHECK_EQ(done, asked);
    RT_CHECK_EQ(R->orphan_count, 1u);  // the info freed just now
    RT_CHECK_EQ(R->orphan_releases, releases1 + kept1);
  } else {
    RT_CHECK_EQ(done, asked);
    RT_CHECK_EQ(R->orphan_count, 0u);
    RT_CHECK_EQ(R->orphan_releases, releases1 + kept1);
  }
  // Asked once, carried out once: the next free keeps its orphan.
  const uint64_t count3 = R->orphan_count;
  FreeInfos(1);
  RT_CHECK_EQ(R->orphan_count, count3 + 1);

  // 8. A freed request still pending is an orphan whose release only an MPI call may
  // carry out (the request index takes no lock below MPI_THREAD_MULTIPLE): a release the
  // clock thread carries out leaves it, and the request stays outstanding until the
  // next free finishes it.
  static int pending_in = -1;
  MPI_Request freed = MPI_REQUEST_NULL;
  MPI_Irecv(&pending_in, 1, MPI_INT, 1 - g_rank, 9, MPI_COMM_WORLD, &freed);
  MPI_Request_free(&freed);
  auto request_orphans = [] {
    int n = 0;
    for (const auto* o : Records<mpidbg_operation_record>(R->operations))
      if ((o->hdr.flags & MPIDBG_REC_FREED) != 0 && o->tag == 9) ++n;
    return n;
  };
  RT_CHECK_EQ(request_orphans(), 1);
  const uint64_t kept4 = R->orphan_count;  // the info from just before, and the request
  RT_CHECK(kept4 >= 2);
  const uint64_t releases4 = R->orphan_releases;
  const uint64_t asked2 = R->orphan_release_done + 1;
  __atomic_store_n(&R->orphan_release_asked, asked2, __ATOMIC_RELEASE);
  const bool no_clock = getenv("MPIDBG_CLOCK_TICK_MS") != nullptr &&
                        strcmp(getenv("MPIDBG_CLOCK_TICK_MS"), "0") == 0;
  if (!no_clock) {
    for (int i = 0; i < 100 && R->orphan_count != 1; ++i) usleep(20000);  // outside MPI
    RT_CHECK_EQ(R->orphan_count, 1u);  // the request's
    RT_CHECK_EQ(R->orphan_releases, releases4 + kept4 - 1);
    RT_CHECK_EQ(request_orphans(), 1);
    RT_CHECK(__atomic_load_n(&R->orphan_release_done, __ATOMIC_ACQUIRE) != asked2);
  }
  FreeInfos(1);  // inside MPI: the outstanding release is finished first
  RT_CHECK_EQ(__atomic_load_n(&R->orphan_release_done, __ATOMIC_ACQUIRE), asked2);
  RT_CHECK_EQ(request_orphans(), 0);
  RT_CHECK_EQ(R->orphan_count, 1u);  // the info freed just now
  RT_CHECK_EQ(R->orphan_releases, releases4 + kept4);
  const int out9 = 9;
  MPI_Send(&out9, 1, MPI_INT, 1 - g_rank, 9, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Finalize();
  return Finish("orphans_check");
}
