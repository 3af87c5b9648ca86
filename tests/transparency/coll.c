/*
 * coll.c — every blocking collective (with MPI_IN_PLACE wherever the standard allows
 * it) and the nonblocking ones, on MPI_COMM_WORLD and on an intercommunicator. Integer
 * data only, so results do not depend on the order of a reduction. Any rank count; 3
 * exercises a non-power-of-two.
 */
#include "tp.h"

enum { MAXP = 16, K = 3 };

static int* vec(int n, int base) {
  int* v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; ++i) v[i] = base + i;
  return v;
}

static void rooted(int root) {
  int p = tp_size, r = tp_rank;
  MPI_Barrier(MPI_COMM_WORLD);
  tp_out("root %d", root);

  int* b = vec(K, r == root ? 500 : -1);
  MPI_Bcast(b, K, MPI_INT, root, MPI_COMM_WORLD);
  tp_out("  bcast: %s", tp_ints(b, K));

  int* s = vec(K, 10 * r);
  int* out = vec(K, -1);
  MPI_Reduce(s, out, K, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  if (r == root) tp_out("  reduce sum: %s", tp_ints(out, K));
  int* inplace = vec(K, 10 * r);
  MPI_Reduce(r == root ? MPI_IN_PLACE : inplace, r == root ? inplace : NULL, K, MPI_INT, MPI_MAX,
             root, MPI_COMM_WORLD);
  if (r == root) tp_out("  reduce in_place max: %s", tp_ints(inplace, K));

  int* all = vec(K * p, -1);
  MPI_Gather(s, K, MPI_INT, all, K, MPI_INT, root, MPI_COMM_WORLD);
  if (r == root) tp_out("  gather: %s", tp_ints(all, K * p));
  for (int i = 0; i < K * p; ++i) all[i] = (i / K == r) ? 7 * r + i : -1;
  MPI_Gather(r == root ? MPI_IN_PLACE : all + K * r, K, MPI_INT, all, K, MPI_INT, root,
             MPI_COMM_WORLD);
  if (r == root) tp_out("  gather in_place: %s", tp_ints(all, K * p));

  int counts[MAXP], displs[MAXP], total = 0;
  for (int i = 0; i < p; ++i) {
    counts[i] = i + 1;
    displs[i] = total + i; /* a gap of one element before each block */
    total += i + 1;
  }
  int span = displs[p - 1] + counts[p - 1];
  int* v = vec(span, -1);
  int* mine = vec(r + 1, 100 * r);
  MPI_Gatherv(mine, r + 1, MPI_INT, v, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
  if (r == root) tp_out("  gatherv: %s", tp_ints(v, span));
  for (int i = 0; i < span; ++i) v[i] = -2;
  for (int i = 0; i < r + 1; ++i) v[displs[r] + i] = 100 * r + i;
  MPI_Gatherv(r == root ? MPI_IN_PLACE : mine, r + 1, MPI_INT, v, counts, displs, MPI_INT, root,
              MPI_COMM_WORLD);
  if (r == root) tp_out("  gatherv in_place: %s", tp_ints(v, span));

  int* src = vec(K * p, 1000 + 10 * root);
  int* piece = vec(K, -1);
  MPI_Scatter(src, K, MPI_INT, piece, K, MPI_INT, root, MPI_COMM_WORLD);
  tp_out("  scatter: %s", tp_ints(piece, K));
  MPI_Scatter(src, K, MPI_INT, r == root ? MPI_IN_PLACE : piece, K, MPI_INT, root, MPI_COMM_WORLD);
  tp_out("  scatter in_place: %s (root keeps %s)", r == root ? "-" : tp_ints(piece, K),
         r == root ? "its buffer" : "-");
  int* sv = vec(span, 2000);
  int* got = vec(r + 1, -1);
  MPI_Scatterv(sv, counts, displs, MPI_INT, got, r + 1, MPI_INT, root, MPI_COMM_WORLD);
  tp_out("  scatterv: %s", tp_ints(got, r + 1));
  MPI_Scatterv(sv, counts, displs, MPI_INT, r == root ? MPI_IN_PLACE : got, r + 1, MPI_INT, root,
               MPI_COMM_WORLD);
  tp_out("  scatterv in_place: %s", r == root ? "-" : tp_ints(got, r + 1));
  free(b), free(s), free(out), free(inplace), free(all), free(v), free(mine), free(src);
  free(piece), free(sv), free(got);
}

static void unrooted(void) {
  int p = tp_size, r = tp_rank;
  int* s = vec(K, 10 * r + 1);
  int* out = vec(K, -1);
  MPI_Allreduce(s, out, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("allreduce sum: %s", tp_ints(out, K));
  int* ip = vec(K, 10 * r + 1);
  MPI_Allreduce(MPI_IN_PLACE, ip, K, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  tp_out("allreduce in_place prod: %s", tp_ints(ip, K));
  struct {
    int value, index;
  } mine = {(r * 7) % p, r}, best = {-1, -1};
  MPI_Allreduce(&mine, &best, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  tp_out("allreduce maxloc: %d at %d", best.value, best.index);

  int* all = vec(K * p, -1);
  MPI_Allgather(s, K, MPI_INT, all, K, MPI_INT, MPI_COMM_WORLD);
  tp_out("allgather: %s", tp_ints(all, K * p));
  for (int i = 0; i < K * p; ++i) all[i] = (i / K == r) ? 3 * r + i : -1;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, K, MPI_INT, MPI_COMM_WORLD);
  tp_out("allgather in_place: %s", tp_ints(all, K * p));

  int counts[MAXP], displs[MAXP], total = 0;
  for (int i = 0; i < p; ++i) {
    counts[i] = p - i;
    displs[i] = total;
    total += p - i;
  }
  int* v = vec(total, -1);
  int* part = vec(p - r, 50 * r);
  MPI_Allgatherv(part, p - r, MPI_INT, v, counts, displs, MPI_INT, MPI_COMM_WORLD);
  tp_out("allgatherv: %s", tp_ints(v, total));
  for (int i = 0; i < total; ++i) v[i] = -3;
  for (int i = 0; i < p - r; ++i) v[displs[r] + i] = 60 * r + i;
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, counts, displs, MPI_INT, MPI_COMM_WORLD);
  tp_out("allgatherv in_place: %s", tp_ints(v, total));

  int* a2a = vec(K * p, 100 * r);
  int* a2r = vec(K * p, -1);
  MPI_Alltoall(a2a, K, MPI_INT, a2r, K, MPI_INT, MPI_COMM_WORLD);
  tp_out("alltoall: %s", tp_ints(a2r, K * p));
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, K, MPI_INT, MPI_COMM_WORLD);
  tp_out("alltoall in_place: %s", tp_ints(a2a, K * p));

  /* Rank r sends j+1 elements to rank j and receives r+1 from each. */
  int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP], st = 0, rt = 0;
  for (int j = 0; j < p; ++j) {
    sc[j] = j + 1;
    sd[j] = st;
    st += j + 1;
    rc[j] = r + 1;
    rd[j] = rt;
    rt += r + 1;
  }
  int* vs = vec(st, 1000 * r);
  int* vr = vec(rt, -1);
  MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, MPI_COMM_WORLD);
  tp_out("alltoallv: %s", tp_ints(vr, rt));
  /* In place needs the same counts both ways: K to everyone. */
  int ic[MAXP], id[MAXP];
  for (int j = 0; j < p; ++j) {
    ic[j] = K;
    id[j] = K * j;
  }
  int* vi = vec(K * p, 10000 * r);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, vi, ic, id, MPI_INT, MPI_COMM_WORLD);
  tp_out("alltoallv in_place: %s", tp_ints(vi, K * p));

  int* rs = vec(total, r + 1);
  int* rsr = vec(p - r, -1);
  MPI_Reduce_scatter(rs, rsr, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("reduce_scatter: %s", tp_ints(rsr, p - r));
  int* rsi = vec(total, 2 * r);
  MPI_Reduce_scatter(MPI_IN_PLACE, rsi, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("reduce_scatter in_place: %s", tp_ints(rsi, p - r));
  int* rb = vec(K * p, r);
  int* rbr = vec(K, -1);
  MPI_Reduce_scatter_block(rb, rbr, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("reduce_scatter_block: %s", tp_ints(rbr, K));
  MPI_Reduce_scatter_block(MPI_IN_PLACE, rb, K, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  tp_out("reduce_scatter_block in_place: %s", tp_ints(rb, K));

  int* sn = vec(K, r + 1);
  int* snr = vec(K, -1);
  MPI_Scan(sn, snr, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("scan: %s", tp_ints(snr, K));
  MPI_Scan(MPI_IN_PLACE, sn, K, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  tp_out("scan in_place: %s", tp_ints(sn, K));
  int* ex = vec(K, r + 1);
  int* exr = vec(K, -7);
  MPI_Exscan(ex, exr, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("exscan: %s", r == 0 ? "(undefined on rank 0)" : tp_ints(exr, K));
  MPI_Exscan(MPI_IN_PLACE, ex, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("exscan in_place: %s", r == 0 ? "(undefined on rank 0)" : tp_ints(ex, K));
  free(s), free(out), free(ip), free(all), free(v), free(part), free(a2a), free(a2r);
  free(vs), free(vr), free(vi), free(rs), free(rsr), free(rsi), free(rb), free(rbr);
  free(sn), free(snr), free(ex), free(exr);
}

static void nonblocking(void) {
  int p = tp_size, r = tp_rank;
  MPI_Request rq[12];
  MPI_Status sts[12];
  int n = 0;
  int* b = vec(K, r == 1 % p ? 900 : -1);
  int* s = vec(K, r + 1);
  int* red = vec(K, -1);
  int* all = vec(K, r * 2);
  int* g = vec(K * p, -1);
  int* sc = vec(K * p, 300);
  int* scr = vec(K, -1);
  int* ag = vec(K * p, -1);
  int* a2a = vec(K * p, 10 * r);
  int* a2r = vec(K * p, -1);
  int* ipa = vec(K, r + 5);
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[n++]);
  MPI_Ibcast(b, K, MPI_INT, 1 % p, MPI_COMM_WORLD, &rq[n++]);
  MPI_Ireduce(s, red, K, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq[n++]);
  MPI_Iallreduce(MPI_IN_PLACE, all, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[n++]);
  MPI_Igather(s, K, MPI_INT, g, K, MPI_INT, p - 1, MPI_COMM_WORLD, &rq[n++]);
  MPI_Iscatter(sc, K, MPI_INT, scr, K, MPI_INT, 0, MPI_COMM_WORLD, &rq[n++]);
  MPI_Iallgather(s, K, MPI_INT, ag, K, MPI_INT, MPI_COMM_WORLD, &rq[n++]);
  MPI_Ialltoall(a2a, K, MPI_INT, a2r, K, MPI_INT, MPI_COMM_WORLD, &rq[n++]);
  int* ipr = vec(K, -1);
  MPI_Iallreduce(ipa, ipr, K, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq[n++]);
  MPI_Waitall(n, rq, sts);
  int nulls = 0;
  for (int i = 0; i < n; ++i) nulls += rq[i] == MPI_REQUEST_NULL;
  tp_out("nonblocking: %d requests, nulled %d", n, nulls);
  tp_out("  ibcast: %s", tp_ints(b, K));
  if (r == 0) tp_out("  ireduce: %s", tp_ints(red, K));
  tp_out("  iallreduce in_place: %s", tp_ints(all, K));
  if (r == p - 1) tp_out("  igather: %s", tp_ints(g, K * p));
  tp_out("  iscatter: %s", tp_ints(scr, K));
  tp_out("  iallgather: %s", tp_ints(ag, K * p));
  tp_out("  ialltoall: %s", tp_ints(a2r, K * p));
  tp_out("  iallreduce min: %s", tp_ints(ipr, K));
  /* Completion by Test of a nonblocking collective. */
  int x = r + 1, y = 0, flag = 0;
  MPI_Request one;
  MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &one);
  while (!flag) MPI_Test(&one, &flag, MPI_STATUS_IGNORE);
  tp_out("  iallreduce by test: %d null=%d", y, one == MPI_REQUEST_NULL);
  free(b), free(s), free(red), free(all), free(g), free(sc), free(scr), free(ag), free(a2a);
  free(a2r), free(ipa), free(ipr);
}

/* Collectives on an intercommunicator: MPI_ROOT / MPI_PROC_NULL roots. */
static void inter(void) {
  if (tp_size < 2) return;
  int r = tp_rank;
  int half = r % 2;
  MPI_Comm local, ic;
  MPI_Comm_split(MPI_COMM_WORLD, half, r, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, half ? 0 : 1, 77, &ic);
  int lrank;
  MPI_Comm_rank(local, &lrank);
  int v[2] = {-1, -1};
  int root;
  if (half == 0) {
    root = lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    v[0] = 42, v[1] = 43;
  } else {
    root = 0;
  }
  MPI_Bcast(v, 2, MPI_INT, root, ic);
  tp_out("intercomm bcast: %s", half == 1 ? tp_ints(v, 2) : "(sending side)");
  int x = 10 + r, sum = -1;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, ic);
  tp_out("intercomm allreduce (sum of the other side): %d", sum);
  MPI_Barrier(ic);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&local);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  if (tp_size > MAXP) return 1;
  for (int root = 0; root < tp_size; ++root) rooted(root);
  unrooted();
  nonblocking();
  inter();
  return tp_finish();
}
