// rma_check — window records and RMA synchronisation state, checked from inside the
// process (2 ranks; the runtime linked or LD_PRELOADed).
//
//  - windows of all four flavours: communicator, base, size, disp_unit, flavour, name,
//    errhandler, info, Fortran index; fence counts and epochs; attached regions; freed
//    windows as orphans;
//  - passive target: per-target lock states and the access epoch through lock/unlock
//    and lock_all/unlock_all;
//  - PSCW on a communicator whose ranks differ from MPI_COMM_WORLD's: start/post groups
//    as communicator ranks, epochs mid-epoch, MPI_Win_wait shown BLOCKED while it waits,
//    MPI_Win_test ending the exposure epoch;
//  - MPI_Rput/MPI_Rget requests with their envelope, gone after MPI_Wait; rma_count.
// Usage: rma_check <mpich|openmpi>. Exit status 0 = all passed.
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "rt_check.h"

using namespace rtcheck;

namespace {

using WinRec = mpidbg_window_record;

const WinRec* Win(MPI_Win w) { return FindObject<WinRec>(Root()->windows, U64(w)); }

// Fields every freshly created window shows.
void CheckNewWindow(MPI_Win win, MPI_Comm comm, int32_t creator, int32_t flavor,
                    const void* base, int64_t size, int32_t disp_unit) {
  const WinRec* r = Win(win);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  int comm_size = 0;
  MPI_Comm_size(comm, &comm_size);
  RT_CHECK_EQ(r->obj.hdr.kind, MPIDBG_KIND_WINDOW);
  RT_CHECK_EQ(r->obj.creator, creator);
  RT_CHECK_EQ(r->flavor, flavor);
  RT_CHECK_EQ(r->comm_handle, U64(comm));
  RT_CHECK(r->comm_job_id != 0);
  RT_CHECK_EQ(r->comm_job_id, CommJobId(U64(comm)));
  RT_CHECK_EQ(r->base, Addr(base));
  RT_CHECK_EQ(r->size, size);
  RT_CHECK_EQ(r->disp_unit, disp_unit);
  RT_CHECK_EQ(r->comm_size, comm_size);
  RT_CHECK_EQ(r->obj.fortran_index, MPI_Win_c2f(win));
  RT_CHECK_EQ(r->fence_count, 0);
  RT_CHECK_EQ(r->rma_count, 0);
  RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_NONE);
  RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_NONE);
  RT_CHECK(Int32s(r->target_locks) == std::vector<int32_t>(comm_size, MPIDBG_LOCK_NONE));
  RT_CHECK_EQ(r->access_group.count, 0);
  RT_CHECK_EQ(r->exposure_group.count, 0);
  RT_CHECK_EQ(r->attached.count, 0);
  MPI_Errhandler eh;
  MPI_Win_get_errhandler(win, &eh);
  RT_CHECK_EQ(r->errhandler, U64(eh));
  MPI_Errhandler_free(&eh);
  char name[MPI_MAX_OBJECT_NAME] = {};
  int len = 0;
  MPI_Win_get_name(win, name, &len);
  RT_CHECK_STREQ(r->obj.name, name);
}

// fence, put to the next rank, fence(NOSUCCEED): counts, epochs, the data.
void FenceRound(MPI_Win win, int* local, int rank, int size) {
  const WinRec* r = Win(win);
  if (r == nullptr) return;
  MPI_Win_fence(0, win);
  RT_CHECK_EQ(r->fence_count, 1);
  RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_FENCE);
  RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_FENCE);
  int value = 100 + rank;
  MPI_Put(&value, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, win);
  RT_CHECK_EQ(r->rma_count, 1);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  RT_CHECK_EQ(r->fence_count, 2);
  RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_NONE);
  RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_NONE);
  if (local != nullptr) RT_CHECK_EQ(local[1], 100 + (rank + size - 1) % size);
}

void FreeAndCheckOrphan(MPI_Win* win) {
  const uint64_t handle = U64(*win);
  const WinRec* live = Win(*win);
  MPI_Win_free(win);
  RT_CHECK(FindObject<WinRec>(Root()->windows, handle) == nullptr);
  const WinRec* r = FindObject<WinRec>(Root()->windows, handle, /*live_only=*/false);
  RT_CHECK(r != nullptr && r == live);
  if (r != nullptr)
    RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
}

void CheckFlavours(int rank, int size) {
  std::vector<int> buf(8, 0);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "false");
  MPI_Win win;
  MPI_Win_create(buf.data(), 8 * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &win);
  CheckNewWindow(win, MPI_COMM_WORLD, MPIDBG_CALL_MPI_Win_create, MPIDBG_WIN_CREATE, buf.data(),
                 8 * sizeof(int), sizeof(int));
  if (const WinRec* r = Win(win)) RT_CHECK_EQ(r->info, U64(info));
  MPI_Win_set_name(win, "created window");
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  if (const WinRec* r = Win(win)) {
    RT_CHECK_STREQ(r->obj.name, "created window");
    RT_CHECK_EQ(r->errhandler, U64(MPI_ERRORS_RETURN));
  }
  FenceRound(win, buf.data(), rank, size);
  FreeAndCheckOrphan(&win);
  MPI_Info_free(&info);

  int* mem = nullptr;
  MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  CheckNewWindow(win, MPI_COMM_WORLD, MPIDBG_CALL_MPI_Win_allocate, MPIDBG_WIN_ALLOCATE, mem,
                 16 * sizeof(int), sizeof(int));
  if (const WinRec* r = Win(win)) RT_CHECK_EQ(r->info, 0);
  FenceRound(win, mem, rank, size);
  FreeAndCheckOrphan(&win);

  MPI_Win_allocate_shared(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                          &win);
  CheckNewWindow(win, MPI_COMM_WORLD, MPIDBG_CALL_MPI_Win_allocate_shared, MPIDBG_WIN_SHARED, mem,
                 4 * sizeof(double), sizeof(double));
  FreeAndCheckOrphan(&win);

  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  CheckNewWindow(win, MPI_COMM_WORLD, MPIDBG_CALL_MPI_Win_create_dynamic, MPIDBG_WIN_DYNAMIC,
                 nullptr, 0, 1);
  static long region_a[4], region_b[2];
  MPI_Win_attach(win, region_a, sizeof region_a);
  MPI_Win_attach(win, region_b, sizeof region_b);
  if (const WinRec* r = Win(win)) {
    RT_CHECK_EQ(r->attached.count, 4);
    const int64_t* a = ArrayAt<int64_t>(r->attached);
    if (r->attached.count == 4) {
      RT_CHECK_EQ(a[0], Addr(region_a));
      RT_CHECK_EQ(a[1], sizeof region_a);
      RT_CHECK_EQ(a[2], Addr(region_b));
      RT_CHECK_EQ(a[3], sizeof region_b);
    }
  }
  MPI_Win_detach(win, region_a);
  if (const WinRec* r = Win(win)) {
    RT_CHECK_EQ(r->attached.count, 2);
    if (r->attached.count == 2) RT_CHECK_EQ(ArrayAt<int64_t>(r->attached)[0], Addr(region_b));
  }
  MPI_Win_detach(win, region_b);
  if (const WinRec* r = Win(win)) RT_CHECK_EQ(r->attached.count, 0);
  FreeAndCheckOrphan(&win);
}

void CheckLocks(int rank, int size) {
  int* mem = nullptr;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  const WinRec* r = Win(win);
  if (r == nullptr) {
    RT_CHECK(r != nullptr);
    return;
  }
  const int other = (rank + 1) % size;
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, other, 0, win);
    std::vector<int32_t> want(size, MPIDBG_LOCK_NONE);
    want[other] = MPIDBG_LOCK_EXCLUSIVE;
    RT_CHECK(Int32s(r->target_locks) == want);
    RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_LOCK);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    want[rank] = MPIDBG_LOCK_SHARED;
    RT_CHECK(Int32s(r->target_locks) == want);
    int one = 1, old = -1;
    MPI_Fetch_and_op(&one, &old, MPI_INT, other, 0, MPI_SUM, win);
    MPI_Accumulate(&one, 1, MPI_INT, other, 1, 1, MPI_INT, MPI_SUM, win);
    RT_CHECK_EQ(r->rma_count, 2);
    MPI_Win_unlock(other, win);
    want[other] = MPIDBG_LOCK_NONE;
    RT_CHECK(Int32s(r->target_locks) == want);
    RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_LOCK);  // still holding its own
    MPI_Win_unlock(rank, win);
    RT_CHECK(Int32s(r->target_locks) == std::vector<int32_t>(size, MPIDBG_LOCK_NONE));
    RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_NONE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  RT_CHECK(Int32s(r->target_locks) == std::vector<int32_t>(size, MPIDBG_LOCK_SHARED));
  RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_LOCK_ALL);

  // Request-based RMA: a operation record each, gone once MPI_Wait collects it.
  const uint64_t before = r->rma_count;
  int src[3] = {5, 6, 7}, dst[3] = {0, 0, 0};
  MPI_Request put, get;
  MPI_Rput(src, 3, MPI_INT, other, 1, 3, MPI_INT, win, &put);
  const uint64_t put_handle = U64(put);
  const mpidbg_operation_record* op = RequestOp(put_handle);
  RT_CHECK(op != nullptr);
  if (op != nullptr) {
    RT_CHECK_EQ(op->call, MPIDBG_CALL_MPI_Rput);
    RT_CHECK_EQ(op->direction, MPIDBG_OPERATION_RMA);
    RT_CHECK_EQ(op->object, U64(win));
    RT_CHECK_EQ(op->peer, other);
    RT_CHECK_EQ(op->peer_world, other);
    RT_CHECK_EQ(op->target_disp, 1);
    RT_CHECK_EQ(op->bytes, 3 * sizeof(int));
    RT_CHECK_EQ(op->count, 3);
    RT_CHECK_EQ(op->buffer, Addr(src));
    RT_CHECK_EQ(op->datatype, U64(MPI_INT));
    RT_CHECK_EQ(op->comm_handle, U64(MPI_COMM_WORLD));
    RT_CHECK_EQ(op->comm_job_id, CommJobId(U64(MPI_COMM_WORLD)));
  }
  MPI_Wait(&put, MPI_STATUS_IGNORE);
  RT_CHECK(RequestOp(put_handle) == nullptr);
  MPI_Win_flush(other, win);
  MPI_Rget(dst, 2, MPI_INT, other, 0, 2, MPI_INT, win, &get);
  const uint64_t get_handle = U64(get);
  op = RequestOp(get_handle);
  RT_CHECK(op != nullptr);
  if (op != nullptr) {
    RT_CHECK_EQ(op->call, MPIDBG_CALL_MPI_Rget);
    RT_CHECK_EQ(op->direction, MPIDBG_OPERATION_RMA);
    RT_CHECK_EQ(op->target_disp, 0);
    RT_CHECK_EQ(op->bytes, 2 * sizeof(int));
  }
  MPI_Wait(&get, MPI_STATUS_IGNORE);
  RT_CHECK(RequestOp(get_handle) == nullptr);
  RT_CHECK_EQ(r->rma_count, before + 2);
  MPI_Win_unlock_all(win);
  RT_CHECK(Int32s(r->target_locks) == std::vector<int32_t>(size, MPIDBG_LOCK_NONE));
  RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_NONE);
  MPI_Win_free(&win);
}

// PSCW on a communicator that reverses MPI_COMM_WORLD's ranks: groups are recorded as
// ranks of the window's communicator, not of the group passed in.
void CheckPscw(int rank) {
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev);
  int rev_rank = -1;
  MPI_Comm_rank(rev, &rev_rank);
  RT_CHECK_EQ(rev_rank, 1 - rank);
  int* mem = nullptr;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, rev, &mem, &win);
  mem[0] = 0;
  const WinRec* r = Win(win);
  if (r == nullptr) {
    RT_CHECK(r != nullptr);
    return;
  }
  MPI_Group world_group, peer_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  const int peer_world = 1 - rank;
  MPI_Group_incl(world_group, 1, &peer_world, &peer_group);
  const int32_t peer_rev = 1 - peer_world;  // the peer's rank in `rev`

  for (int round = 0; round < 2; ++round) {
    if (rank == 0) {  // origin
      usleep(300 * 1000);  // the target waits meanwhile
      MPI_Win_start(peer_group, 0, win);
      RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_START);
      RT_CHECK(Int32s(r->access_group) == std::vector<int32_t>({peer_rev}));
      int value = 40 + round;
      MPI_Put(&value, 1, MPI_INT, peer_rev, 0, 1, MPI_INT, win);
      MPI_Win_complete(win);
      RT_CHECK_EQ(r->access_epoch, MPIDBG_EPOCH_NONE);
      RT_CHECK_EQ(r->access_group.count, 0);
    } else {  // target
      MPI_Win_post(peer_group, 0, win);
      RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_POST);
      RT_CHECK(Int32s(r->exposure_group) == std::vector<int32_t>({peer_rev}));
      if (round == 0) {
        std::atomic<bool> seen{false};
        std::thread watcher([&] { seen = SeenBlocked(MPIDBG_CALL_MPI_Win_wait, U64(rev), 5.0); });
        MPI_Win_wait(win);
        watcher.join();
        RT_CHECK(seen.load());
      } else {
        int flag = 0;
        while (!flag) {
          MPI_Win_test(win, &flag);
          if (!flag) RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_POST);
        }
      }
      RT_CHECK_EQ(r->exposure_epoch, MPIDBG_EPOCH_NONE);
      RT_CHECK_EQ(r->exposure_group.count, 0);
      RT_CHECK_EQ(mem[0], 40 + round);
    }
  }
  MPI_Group_free(&peer_group);
  MPI_Group_free(&world_group);
  MPI_Win_free(&win);
  MPI_Comm_free(&rev);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    fprintf(stderr, "rma_check needs 2 ranks: FAIL\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (Root() != nullptr) {
    CheckFlavours(g_rank, size);
    CheckLocks(g_rank, size);
    CheckPscw(g_rank);
  }
  int rc = Finish(argc > 1 ? argv[1] : "rma_check");
  MPI_Finalize();
  return rc;
}
