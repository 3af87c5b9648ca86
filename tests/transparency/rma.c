/*
 * rma.c — one-sided communication in every synchronisation mode: fence, post/start/
 * complete/wait (and Win_test), lock/unlock (exclusive and shared, flush, flush_local),
 * lock_all/unlock_all (flush_all, flush_local_all, Win_sync), with every RMA call
 * (Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap and the
 * request-based Rput, Rget, Raccumulate, Rget_accumulate) on windows of every flavour
 * (create, allocate, allocate_shared, create_dynamic with attach/detach). Window
 * contents are printed after each epoch. Run with 2 ranks.
 */
#include "tp.h"

enum { W = 8 };

static int win_errors = 0;
static int win_error_class = -1;

static void on_win_error(MPI_Win* win, int* code, ...) {
  (void)win;
  ++win_errors;
  MPI_Error_class(*code, &win_error_class);
}

static void show(const char* what, const int* buf) { tp_out("%s: %s", what, tp_ints(buf, W)); }

static void fence_epochs(void) {
  int* buf = malloc(sizeof(int) * W);
  for (int i = 0; i < W; ++i) buf[i] = 100 * tp_rank + i;
  MPI_Win win;
  MPI_Win_create(buf, sizeof(int) * W, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Win_set_name(win, "transparency-fence");
  MPI_Win_get_name(win, name, &len);
  tp_out("window name: %s (%d)", name, len);
  MPI_Group g;
  MPI_Win_get_group(win, &g);
  int gsize = -1;
  MPI_Group_size(g, &gsize);
  MPI_Group_free(&g);
  tp_out("window group size: %d", gsize);

  int peer = (tp_rank + 1) % tp_size;
  int put[2] = {1000 + tp_rank, 2000 + tp_rank}, got[2] = {-1, -1}, acc = 7;
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  MPI_Put(put, 2, MPI_INT, peer, 0, 2, MPI_INT, win);
  MPI_Get(got, 2, MPI_INT, peer, 4, 2, MPI_INT, win);
  MPI_Accumulate(&acc, 1, MPI_INT, peer, 6, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  show("after fence epoch", buf);
  tp_out("  got %s", tp_ints(got, 2));
  /* A strided put through a derived type in a second fence epoch. */
  MPI_Datatype every_other;
  MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int two[2] = {-5, -6};
  MPI_Put(two, 2, MPI_INT, peer, 1, 1, every_other, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Type_free(&every_other);
  show("after strided put", buf);

  /* Errhandler on the window: a lock of an impossible rank reports MPI_ERR_RANK. */
  MPI_Errhandler eh;
  MPI_Win_create_errhandler(on_win_error, &eh);
  MPI_Win_set_errhandler(win, eh);
  int rc = MPI_Win_lock(MPI_LOCK_SHARED, tp_size + 5, 0, win);
  tp_out("win_lock bad rank: %s, handler calls %d class %s", tp_err(rc), win_errors,
         tp_err(win_error_class));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);
  MPI_Win_free(&win);
  tp_out("window freed: null=%d", win == MPI_WIN_NULL);
  free(buf);
}

static void pscw(void) {
  int* buf = malloc(sizeof(int) * W);
  for (int i = 0; i < W; ++i) buf[i] = -i;
  MPI_Win win;
  MPI_Win_create(buf, sizeof(int) * W, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int peer = tp_rank < 2 ? 1 - tp_rank : 0; /* ranks past 1 take no part */
  MPI_Group_incl(world, 1, &peer, &other);
  for (int round = 0; round < 2 && tp_rank < 2; ++round) {
    if (tp_rank == 1) { /* target */
      MPI_Win_post(other, 0, win);
      if (round == 0) {
        MPI_Win_wait(win);
      } else {
        int flag = 0;
        while (!flag) MPI_Win_test(win, &flag);
      }
      show(round ? "pscw target after win_test" : "pscw target after win_wait", buf);
    } else { /* origin */
      MPI_Win_start(other, 0, win);
      int v[3] = {10 + round, 20 + round, 30 + round};
      MPI_Put(v, 3, MPI_INT, 1, 2 * round, 3, MPI_INT, win);
      int one = 1;
      MPI_Accumulate(&one, 1, MPI_INT, 1, 7, 1, MPI_INT, MPI_SUM, win);
      MPI_Win_complete(win);
      tp_out("pscw origin round %d complete", round);
    }
  }
  MPI_Group_free(&other);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(buf);
}

static void passive(void) {
  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int) * W, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < W; ++i) base[i] = 50 * tp_rank + i;
  MPI_Barrier(MPI_COMM_WORLD);
  if (tp_rank == 0) {
    int v = 900, old[2] = {-1, -1}, res = -1, cmp = 56, swap = 555, fetched = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_flush(1, win);
    int add[2] = {5, 5};
    MPI_Get_accumulate(add, 2, MPI_INT, old, 2, MPI_INT, 1, 1, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_flush_local(1, win);
    MPI_Win_unlock(1, win);
    tp_out("get_accumulate old values: %s", tp_ints(old, 2));
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    int inc = 3;
    MPI_Fetch_and_op(&inc, &fetched, MPI_INT, 1, 3, MPI_SUM, win);
    MPI_Compare_and_swap(&swap, &cmp, &res, MPI_INT, 1, 1, win);
    MPI_Win_unlock(1, win);
    tp_out("fetch_and_op fetched %d, compare_and_swap result %d", fetched, res);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, tp_rank, 0, win);
  show("allocate window after lock epochs", base);
  MPI_Win_unlock(tp_rank, win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* lock_all with request-based operations. */
  MPI_Win_lock_all(0, win);
  int peer = (tp_rank + 1) % tp_size;
  int rv[2] = {7000 + tp_rank, 7100 + tp_rank}, rg[2] = {-1, -1}, ra = 2, rga[1] = {-1}, one = 1;
  MPI_Request rq[4];
  MPI_Rput(rv, 2, MPI_INT, peer, 4, 2, MPI_INT, win, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Rget(rg, 2, MPI_INT, peer, 4, 2, MPI_INT, win, &rq[1]);
  MPI_Raccumulate(&ra, 1, MPI_INT, peer, 6, 1, MPI_INT, MPI_SUM, win, &rq[2]);
  MPI_Waitall(2, rq + 1, MPI_STATUSES_IGNORE);
  MPI_Win_flush_local_all(win);
  MPI_Rget_accumulate(&one, 1, MPI_INT, rga, 1, MPI_INT, peer, 7, 1, MPI_INT, MPI_SUM, win, &rq[3]);
  int flag = 0;
  while (!flag) MPI_Test(&rq[3], &flag, MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Win_sync(win);
  MPI_Win_unlock_all(win);
  tp_out("rget %s, rget_accumulate old %d", tp_ints(rg, 2), rga[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, tp_rank, 0, win);
  show("allocate window after lock_all epoch", base);
  MPI_Win_unlock(tp_rank, win);
  MPI_Win_free(&win);
}

static void shared(void) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, tp_rank, MPI_INFO_NULL, &node);
  int nrank = -1, nsize = -1;
  MPI_Comm_rank(node, &nrank);
  MPI_Comm_size(node, &nsize);
  int* mine = NULL;
  MPI_Win win;
  MPI_Win_allocate_shared(sizeof(int) * 2, sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  MPI_Win_lock_all(0, win);
  mine[0] = 10 * nrank + 1;
  mine[1] = 10 * nrank + 2;
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  int total = 0;
  for (int r = 0; r < nsize; ++r) {
    MPI_Aint size = -1;
    int unit = -1;
    int* theirs = NULL;
    MPI_Win_shared_query(win, r, &size, &unit, &theirs);
    total += theirs[0] + theirs[1];
    if (r == (nrank + 1) % nsize) tp_out("shared: neighbour segment %ld bytes unit %d values %d %d",
                                         (long)size, unit, theirs[0], theirs[1]);
  }
  MPI_Win_unlock_all(win);
  tp_out("shared: sum over node %d", total);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
}

static void dynamic(void) {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int* region = malloc(sizeof(int) * 4);
  for (int i = 0; i < 4; ++i) region[i] = -10 * (tp_rank + 1) - i;
  MPI_Win_attach(win, region, sizeof(int) * 4);
  MPI_Aint mine, theirs;
  MPI_Get_address(region, &mine);
  int peer = (tp_rank + 1) % tp_size, from = (tp_rank + tp_size - 1) % tp_size;
  MPI_Sendrecv(&mine, 1, MPI_AINT, from, 0, &theirs, 1, MPI_AINT, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win);
  int v[2] = {4000 + tp_rank, 4001 + tp_rank}, got = -1;
  MPI_Put(v, 2, MPI_INT, peer, MPI_Aint_add(theirs, sizeof(int)), 2, MPI_INT, win);
  MPI_Win_flush(peer, win);
  MPI_Get(&got, 1, MPI_INT, peer, theirs, 1, MPI_INT, win);
  MPI_Win_unlock(peer, win);
  MPI_Barrier(MPI_COMM_WORLD);
  tp_out("dynamic: region %s, got from peer %d", tp_ints(region, 4), got);
  MPI_Win_detach(win, region);
  MPI_Win_free(&win);
  free(region);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  fence_epochs();
  if (tp_size >= 2) pscw();
  passive();
  shared();
  dynamic();
  return tp_finish();
}
