/*
 * large_count.c — every MPI-4 large-count (_c) call the runtime wraps: point-to-point in
 * every mode, blocking, nonblocking, persistent and matched; every collective, blocking,
 * nonblocking and persistent, neighbourhood ones on a ring; datatype constructors and
 * contents; one-sided communication on windows made by the _c constructors; file I/O;
 * user ops with the large-count function type; the buffered-send buffer. Counts are
 * small: what is compared is that each call does with the runtime what it does without.
 * Open MPI 4.1 (MPI 3.1) has none of them and prints one line. Run with 2 ranks.
 */
#include <unistd.h>

#include "tp.h"

#if MPI_VERSION >= 4
enum { P = 2, K = 2 };

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

static void p2p(void) {
  int r = tp_rank, peer = 1 - r;
  int out[K], in[K];
  MPI_Status st;
  fill(out, K, 10 * r);

  /* Blocking, every mode: rank 0 sends first, rank 1 receives first. */
  int bsize = 4 * (MPI_BSEND_OVERHEAD + (int)sizeof out);
  char* bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach_c(bbuf, bsize);
  for (int mode = 0; mode < 4; ++mode) {
    fill(in, K, -1);
    if (r == 0) {
      if (mode == 0) MPI_Send_c(out, K, MPI_INT, peer, mode, MPI_COMM_WORLD);
      if (mode == 1) MPI_Ssend_c(out, K, MPI_INT, peer, mode, MPI_COMM_WORLD);
      if (mode == 2) MPI_Bsend_c(out, K, MPI_INT, peer, mode, MPI_COMM_WORLD);
      if (mode == 3) {
        MPI_Recv_c(in, 0, MPI_INT, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* ready */
        MPI_Rsend_c(out, K, MPI_INT, peer, mode, MPI_COMM_WORLD);
      }
    } else {
      MPI_Request rq;
      MPI_Irecv_c(in, K, MPI_INT, peer, mode, MPI_COMM_WORLD, &rq);
      if (mode == 3) MPI_Send_c(NULL, 0, MPI_INT, peer, 99, MPI_COMM_WORLD);
      MPI_Wait(&rq, &st);
      tp_out("mode %d recv: %s %s", mode, tp_ints(in, K), tp_status(&st, MPI_INT));
    }
  }
  void* detached;
  MPI_Count dsize = 0;
  MPI_Buffer_detach_c(&detached, &dsize);
  tp_out("buffer_detach_c: size matches %d", dsize == bsize);
  free(bbuf);

  /* Nonblocking, every mode, and a blocking receive of each. */
  MPI_Request rq[4];
  if (r == 0) {
    MPI_Isend_c(out, K, MPI_INT, peer, 20, MPI_COMM_WORLD, &rq[0]);
    MPI_Issend_c(out, K, MPI_INT, peer, 21, MPI_COMM_WORLD, &rq[1]);
    char* b2 = malloc((size_t)bsize);
    MPI_Buffer_attach(b2, bsize);
    MPI_Ibsend_c(out, K, MPI_INT, peer, 22, MPI_COMM_WORLD, &rq[2]);
    MPI_Recv_c(in, 0, MPI_INT, peer, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irsend_c(out, K, MPI_INT, peer, 23, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    int dsz;
    MPI_Buffer_detach(&detached, &dsz);
    free(b2);
  } else {
    MPI_Request ready;
    MPI_Irecv_c(in, K, MPI_INT, peer, 23, MPI_COMM_WORLD, &ready);
    MPI_Send_c(NULL, 0, MPI_INT, peer, 98, MPI_COMM_WORLD);
    for (int tag = 20; tag < 23; ++tag) {
      fill(in, K, -1);
      MPI_Recv_c(in, K, MPI_INT, peer, tag, MPI_COMM_WORLD, &st);
      tp_out("isend tag %d: %s", tag, tp_ints(in, K));
    }
    MPI_Wait(&ready, &st);
    tp_out("irsend: %s", tp_ints(in, K));
  }

  /* Persistent, every mode. */
  MPI_Request pq[5];
  if (r == 0) {
    char* b3 = malloc((size_t)bsize);
    MPI_Buffer_attach(b3, bsize);
    MPI_Send_init_c(out, K, MPI_INT, peer, 30, MPI_COMM_WORLD, &pq[0]);
    MPI_Ssend_init_c(out, K, MPI_INT, peer, 31, MPI_COMM_WORLD, &pq[1]);
    MPI_Bsend_init_c(out, K, MPI_INT, peer, 32, MPI_COMM_WORLD, &pq[2]);
    MPI_Rsend_init_c(out, K, MPI_INT, peer, 33, MPI_COMM_WORLD, &pq[3]);
    MPI_Recv_c(in, 0, MPI_INT, peer, 97, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Startall(4, pq);
    MPI_Waitall(4, pq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 4; ++i) MPI_Request_free(&pq[i]);
    int dsz;
    MPI_Buffer_detach(&detached, &dsz);
    free(b3);
  } else {
    int all[4 * K];
    fill(all, 4 * K, -1);
    for (int i = 0; i < 4; ++i)
      MPI_Recv_init_c(all + K * i, K, MPI_INT, peer, 30 + i, MPI_COMM_WORLD, &pq[i]);
    MPI_Startall(4, pq);
    MPI_Send_c(NULL, 0, MPI_INT, peer, 97, MPI_COMM_WORLD);
    MPI_Waitall(4, pq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 4; ++i) MPI_Request_free(&pq[i]);
    tp_out("persistent: %s", tp_ints(all, 4 * K));
  }

  /* Sendrecv and the nonblocking sendrecv, plain and replace. */
  fill(in, K, -1);
  MPI_Sendrecv_c(out, K, MPI_INT, peer, 40, in, K, MPI_INT, peer, 40, MPI_COMM_WORLD, &st);
  tp_out("sendrecv_c: %s", tp_ints(in, K));
  fill(in, K, 100 * r);
  MPI_Sendrecv_replace_c(in, K, MPI_INT, peer, 41, peer, 41, MPI_COMM_WORLD, &st);
  tp_out("sendrecv_replace_c: %s", tp_ints(in, K));
  MPI_Request sq;
  fill(in, K, -1);
  MPI_Isendrecv_c(out, K, MPI_INT, peer, 42, in, K, MPI_INT, peer, 42, MPI_COMM_WORLD, &sq);
  MPI_Wait(&sq, &st);
  tp_out("isendrecv_c: %s", tp_ints(in, K));
  fill(in, K, 200 * r);
  MPI_Isendrecv_replace_c(in, K, MPI_INT, peer, 43, peer, 43, MPI_COMM_WORLD, &sq);
  MPI_Wait(&sq, &st);
  tp_out("isendrecv_replace_c: %s", tp_ints(in, K));

  /* Matched receives. */
  MPI_Send_c(out, K, MPI_INT, peer, 50, MPI_COMM_WORLD);
  MPI_Send_c(out, K, MPI_INT, peer, 51, MPI_COMM_WORLD);
  MPI_Message msg;
  fill(in, K, -1);
  MPI_Mprobe(peer, 50, MPI_COMM_WORLD, &msg, &st);
  MPI_Mrecv_c(in, K, MPI_INT, &msg, &st);
  tp_out("mrecv_c: %s", tp_ints(in, K));
  fill(in, K, -1);
  MPI_Mprobe(peer, 51, MPI_COMM_WORLD, &msg, &st);
  MPI_Imrecv_c(in, K, MPI_INT, &msg, &sq);
  MPI_Wait(&sq, &st);
  tp_out("imrecv_c: %s", tp_ints(in, K));
}

static void collectives(void) {
  int r = tp_rank;
  MPI_Comm w = MPI_COMM_WORLD;
  int s[P * K], o[P * K];
  MPI_Count counts[P] = {K, K};
  MPI_Aint displs[P] = {0, K};
  MPI_Aint wdispls[P] = {0, K * (MPI_Aint)sizeof(int)};
  MPI_Datatype types[P] = {MPI_INT, MPI_INT};
  MPI_Request q;

  fill(o, K, r == 0 ? 7 : -1);
  MPI_Bcast_c(o, K, MPI_INT, 0, w);
  tp_out("bcast_c: %s", tp_ints(o, K));
  fill(s, P * K, 10 * (r + 1));
  MPI_Reduce_c(s, o, K, MPI_INT, MPI_SUM, 1, w);
  if (r == 1) tp_out("reduce_c: %s", tp_ints(o, K));
  MPI_Allreduce_c(s, o, K, MPI_INT, MPI_SUM, w);
  tp_out("allreduce_c: %s", tp_ints(o, K));
  MPI_Gather_c(s, K, MPI_INT, o, K, MPI_INT, 0, w);
  if (r == 0) tp_out("gather_c: %s", tp_ints(o, P * K));
  MPI_Gatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, 1, w);
  if (r == 1) tp_out("gatherv_c: %s", tp_ints(o, P * K));
  MPI_Scatter_c(s, K, MPI_INT, o, K, MPI_INT, 1, w);
  tp_out("scatter_c: %s", tp_ints(o, K));
  MPI_Scatterv_c(s, counts, displs, MPI_INT, o, K, MPI_INT, 0, w);
  tp_out("scatterv_c: %s", tp_ints(o, K));
  MPI_Allgather_c(s, K, MPI_INT, o, K, MPI_INT, w);
  tp_out("allgather_c: %s", tp_ints(o, P * K));
  MPI_Allgatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, w);
  tp_out("allgatherv_c: %s", tp_ints(o, P * K));
  MPI_Alltoall_c(s, K, MPI_INT, o, K, MPI_INT, w);
  tp_out("alltoall_c: %s", tp_ints(o, P * K));
  MPI_Alltoallv_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT, w);
  tp_out("alltoallv_c: %s", tp_ints(o, P * K));
  MPI_Alltoallw_c(s, counts, wdispls, types, o, counts, wdispls, types, w);
  tp_out("alltoallw_c: %s", tp_ints(o, P * K));
  MPI_Reduce_scatter_c(s, o, counts, MPI_INT, MPI_SUM, w);
  tp_out("reduce_scatter_c: %s", tp_ints(o, K));
  MPI_Reduce_scatter_block_c(s, o, K, MPI_INT, MPI_SUM, w);
  tp_out("reduce_scatter_block_c: %s", tp_ints(o, K));
  MPI_Scan_c(s, o, K, MPI_INT, MPI_SUM, w);
  tp_out("scan_c: %s", tp_ints(o, K));
  MPI_Exscan_c(s, o, K, MPI_INT, MPI_SUM, w);
  if (r == 1) tp_out("exscan_c: %s", tp_ints(o, K));

#define TP_NB(call, n)             \
  do {                             \
    call;                          \
    MPI_Wait(&q, MPI_STATUS_IGNORE); \
    tp_out(#call ": %s", tp_ints(o, n)); \
  } while (0)
  fill(o, K, r == 0 ? 9 : -1);
  TP_NB(MPI_Ibcast_c(o, K, MPI_INT, 0, w, &q), K);
  TP_NB(MPI_Ireduce_c(s, o, K, MPI_INT, MPI_MAX, 0, w, &q), r == 0 ? K : 0);
  TP_NB(MPI_Iallreduce_c(s, o, K, MPI_INT, MPI_MAX, w, &q), K);
  TP_NB(MPI_Igather_c(s, K, MPI_INT, o, K, MPI_INT, 1, w, &q), r == 1 ? P * K : 0);
  TP_NB(MPI_Igatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, 0, w, &q), r == 0 ? P * K : 0);
  TP_NB(MPI_Iscatter_c(s, K, MPI_INT, o, K, MPI_INT, 0, w, &q), K);
  TP_NB(MPI_Iscatterv_c(s, counts, displs, MPI_INT, o, K, MPI_INT, 1, w, &q), K);
  TP_NB(MPI_Iallgather_c(s, K, MPI_INT, o, K, MPI_INT, w, &q), P * K);
  TP_NB(MPI_Iallgatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, w, &q), P * K);
  TP_NB(MPI_Ialltoall_c(s, K, MPI_INT, o, K, MPI_INT, w, &q), P * K);
  TP_NB(MPI_Ialltoallv_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT, w, &q), P * K);
  TP_NB(MPI_Ialltoallw_c(s, counts, wdispls, types, o, counts, wdispls, types, w, &q), P * K);
  TP_NB(MPI_Ireduce_scatter_c(s, o, counts, MPI_INT, MPI_SUM, w, &q), K);
  TP_NB(MPI_Ireduce_scatter_block_c(s, o, K, MPI_INT, MPI_SUM, w, &q), K);
  TP_NB(MPI_Iscan_c(s, o, K, MPI_INT, MPI_SUM, w, &q), K);
  TP_NB(MPI_Iexscan_c(s, o, K, MPI_INT, MPI_SUM, w, &q), r == 1 ? K : 0);
#undef TP_NB

  /* Persistent: started once each. */
  MPI_Info ni = MPI_INFO_NULL;
#define TP_PERSISTENT(call, n)       \
  do {                               \
    call;                            \
    MPI_Start(&q);                   \
    MPI_Wait(&q, MPI_STATUS_IGNORE); \
    MPI_Request_free(&q);            \
    tp_out(#call ": %s", tp_ints(o, n)); \
  } while (0)
  fill(o, K, r == 1 ? 5 : -1);
  TP_PERSISTENT(MPI_Bcast_init_c(o, K, MPI_INT, 1, w, ni, &q), K);
  TP_PERSISTENT(MPI_Reduce_init_c(s, o, K, MPI_INT, MPI_SUM, 1, w, ni, &q), r == 1 ? K : 0);
  TP_PERSISTENT(MPI_Allreduce_init_c(s, o, K, MPI_INT, MPI_MIN, w, ni, &q), K);
  TP_PERSISTENT(MPI_Gather_init_c(s, K, MPI_INT, o, K, MPI_INT, 0, w, ni, &q), r == 0 ? P * K : 0);
  TP_PERSISTENT(MPI_Gatherv_init_c(s, K, MPI_INT, o, counts, displs, MPI_INT, 1, w, ni, &q),
                r == 1 ? P * K : 0);
  TP_PERSISTENT(MPI_Scatter_init_c(s, K, MPI_INT, o, K, MPI_INT, 1, w, ni, &q), K);
  TP_PERSISTENT(MPI_Scatterv_init_c(s, counts, displs, MPI_INT, o, K, MPI_INT, 0, w, ni, &q), K);
  TP_PERSISTENT(MPI_Allgather_init_c(s, K, MPI_INT, o, K, MPI_INT, w, ni, &q), P * K);
  TP_PERSISTENT(MPI_Allgatherv_init_c(s, K, MPI_INT, o, counts, displs, MPI_INT, w, ni, &q), P * K);
  TP_PERSISTENT(MPI_Alltoall_init_c(s, K, MPI_INT, o, K, MPI_INT, w, ni, &q), P * K);
  TP_PERSISTENT(MPI_Alltoallv_init_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT, w, ni, &q),
                P * K);
  TP_PERSISTENT(MPI_Alltoallw_init_c(s, counts, wdispls, types, o, counts, wdispls, types, w, ni, &q),
                P * K);
  TP_PERSISTENT(MPI_Reduce_scatter_init_c(s, o, counts, MPI_INT, MPI_SUM, w, ni, &q), K);
  TP_PERSISTENT(MPI_Reduce_scatter_block_init_c(s, o, K, MPI_INT, MPI_SUM, w, ni, &q), K);
  TP_PERSISTENT(MPI_Scan_init_c(s, o, K, MPI_INT, MPI_SUM, w, ni, &q), K);
  TP_PERSISTENT(MPI_Exscan_init_c(s, o, K, MPI_INT, MPI_SUM, w, ni, &q), r == 1 ? K : 0);

  /* Neighbourhood on a periodic ring of 2 (the other rank is both neighbours). */
  int dims[1] = {P}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(w, 1, dims, periods, 0, &ring);
  fill(s, P * K, 30 * (r + 1));
  MPI_Neighbor_allgather_c(s, K, MPI_INT, o, K, MPI_INT, ring);
  tp_out("neighbor_allgather_c: %s", tp_ints(o, P * K));
  MPI_Neighbor_allgatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, ring);
  tp_out("neighbor_allgatherv_c: %s", tp_ints(o, P * K));
  MPI_Neighbor_alltoall_c(s, K, MPI_INT, o, K, MPI_INT, ring);
  tp_out("neighbor_alltoall_c: %s", tp_ints(o, P * K));
  MPI_Neighbor_alltoallv_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT, ring);
  tp_out("neighbor_alltoallv_c: %s", tp_ints(o, P * K));
  MPI_Neighbor_alltoallw_c(s, counts, wdispls, types, o, counts, wdispls, types, ring);
  tp_out("neighbor_alltoallw_c: %s", tp_ints(o, P * K));
#define TP_NBR(call)                 \
  do {                               \
    call;                            \
    MPI_Wait(&q, MPI_STATUS_IGNORE); \
    tp_out(#call ": %s", tp_ints(o, P * K)); \
  } while (0)
  TP_NBR(MPI_Ineighbor_allgather_c(s, K, MPI_INT, o, K, MPI_INT, ring, &q));
  TP_NBR(MPI_Ineighbor_allgatherv_c(s, K, MPI_INT, o, counts, displs, MPI_INT, ring, &q));
  TP_NBR(MPI_Ineighbor_alltoall_c(s, K, MPI_INT, o, K, MPI_INT, ring, &q));
  TP_NBR(MPI_Ineighbor_alltoallv_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT, ring, &q));
  TP_NBR(MPI_Ineighbor_alltoallw_c(s, counts, wdispls, types, o, counts, wdispls, types, ring, &q));
#undef TP_NBR
  TP_PERSISTENT(MPI_Neighbor_allgather_init_c(s, K, MPI_INT, o, K, MPI_INT, ring, ni, &q), P * K);
  TP_PERSISTENT(MPI_Neighbor_allgatherv_init_c(s, K, MPI_INT, o, counts, displs, MPI_INT, ring, ni, &q),
                P * K);
  TP_PERSISTENT(MPI_Neighbor_alltoall_init_c(s, K, MPI_INT, o, K, MPI_INT, ring, ni, &q), P * K);
  TP_PERSISTENT(MPI_Neighbor_alltoallv_init_c(s, counts, displs, MPI_INT, o, counts, displs, MPI_INT,
                                              ring, ni, &q),
                P * K);
  TP_PERSISTENT(MPI_Neighbor_alltoallw_init_c(s, counts, wdispls, types, o, counts, wdispls, types,
                                              ring, ni, &q),
                P * K);
#undef TP_PERSISTENT
  MPI_Comm_free(&ring);
}

static void type_report(const char* what, MPI_Datatype t) {
  MPI_Count size = -1, lb = -1, extent = -1;
  MPI_Type_commit(&t);
  MPI_Type_size_c(t, &size);
  MPI_Type_get_extent_c(t, &lb, &extent);
  MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
  int combiner = -1;
  MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner);
  int ints[16];
  MPI_Aint addrs[16];
  MPI_Count large[16];
  MPI_Datatype dts[16];
  MPI_Type_get_contents_c(t, ni, na, nc, nd, ints, addrs, large, dts);
  for (MPI_Count i = 0; i < nd; ++i) {
    int c = 0, a = 0, d = 0, comb = 0;
    MPI_Type_get_envelope(dts[i], &c, &a, &d, &comb);
    if (comb != MPI_COMBINER_NAMED) MPI_Type_free(&dts[i]);
  }
  tp_out("%s: size %lld lb %lld extent %lld combiner %d large-count ints %lld", what,
         (long long)size, (long long)lb, (long long)extent, combiner, (long long)nc);
  MPI_Type_free(&t);
}

static void datatypes(void) {
  MPI_Datatype t;
  MPI_Count bl[2] = {1, 2}, dis[2] = {0, 3}, bdis[2] = {0, 12};
  MPI_Type_contiguous_c(3, MPI_INT, &t);
  type_report("contiguous_c", t);
  MPI_Type_vector_c(2, 1, 3, MPI_INT, &t);
  type_report("vector_c", t);
  MPI_Type_create_hvector_c(2, 1, 12, MPI_INT, &t);
  type_report("create_hvector_c", t);
  MPI_Type_indexed_c(2, bl, dis, MPI_INT, &t);
  type_report("indexed_c", t);
  MPI_Type_create_hindexed_c(2, bl, bdis, MPI_INT, &t);
  type_report("create_hindexed_c", t);
  MPI_Type_create_indexed_block_c(2, 2, dis, MPI_INT, &t);
  type_report("create_indexed_block_c", t);
  MPI_Type_create_hindexed_block_c(2, 2, bdis, MPI_INT, &t);
  type_report("create_hindexed_block_c", t);
  MPI_Datatype sts[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Count sdis[2] = {0, 8};
  MPI_Type_create_struct_c(2, bl, sdis, sts, &t);
  type_report("create_struct_c", t);
  MPI_Count sizes[2] = {4, 4}, subs[2] = {2, 2}, starts[2] = {1, 1};
  MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t);
  type_report("create_subarray_c", t);
  MPI_Count gsizes[1] = {8};
  int distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG}, psizes[1] = {P};
  MPI_Type_create_darray_c(P, tp_rank, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &t);
  type_report("create_darray_c", t);
  MPI_Type_create_resized_c(MPI_INT, 0, 16, &t);
  type_report("create_resized_c", t);
}

static void sum_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  (void)type;
  for (MPI_Count i = 0; i < *len; ++i) ((int*)inout)[i] += 2 * ((int*)in)[i];
}

static void ops(void) {
  MPI_Op op;
  MPI_Op_create_c(sum_c, 0, &op);
  int s[K], o[K];
  fill(s, K, tp_rank + 1);
  MPI_Allreduce(s, o, K, MPI_INT, op, MPI_COMM_WORLD);
  tp_out("op_create_c allreduce: %s", tp_ints(o, K));
  MPI_Op_free(&op);
}

static void rma(void) {
  int r = tp_rank, peer = 1 - r;
  int base[8];
  fill(base, 8, 100 * r);
  MPI_Win win;
  MPI_Win_create_c(base, sizeof base, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int v[K], res[K], cmp[K];
  fill(v, K, 10 * (r + 1));
  MPI_Win_fence(0, win);
  MPI_Put_c(v, K, MPI_INT, peer, 0, K, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get_c(res, K, MPI_INT, peer, 0, K, MPI_INT, win);
  MPI_Win_fence(0, win);
  tp_out("put_c/get_c: %s", tp_ints(res, K));
  MPI_Accumulate_c(v, K, MPI_INT, peer, 2, K, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Get_accumulate_c(v, K, MPI_INT, res, K, MPI_INT, peer, 2, K, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  tp_out("get_accumulate_c: %s", tp_ints(res, K));
  MPI_Request q[4];
  MPI_Win_lock_all(0, win);
  MPI_Rput_c(v, K, MPI_INT, peer, 4, K, MPI_INT, win, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Raccumulate_c(v, K, MPI_INT, peer, 4, K, MPI_INT, MPI_SUM, win, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Rget_accumulate_c(v, K, MPI_INT, cmp, K, MPI_INT, peer, 6, K, MPI_INT, MPI_SUM, win, &q[2]);
  MPI_Wait(&q[2], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  MPI_Rget_c(res, K, MPI_INT, peer, 4, K, MPI_INT, win, &q[3]);
  MPI_Wait(&q[3], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  tp_out("rput/raccumulate/rget_c: %s, rget_accumulate_c old %s", tp_ints(res, K),
         tp_ints(cmp, K));
  MPI_Win_free(&win);

  int* mem = NULL;
  MPI_Win_allocate_c(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  tp_out("win_allocate_c: %s", mem != NULL ? "memory" : "none");
  MPI_Win_free(&win);
  MPI_Win_allocate_shared_c(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &mem, &win);
  tp_out("win_allocate_shared_c: %s", mem != NULL ? "memory" : "none");
  MPI_Win_free(&win);
}

static int extent_fn(MPI_Datatype type, MPI_Count* extent, void* state) {
  (void)state;
  MPI_Count lb;
  return MPI_Type_get_extent_c(type, &lb, extent);
}

static void files(void) {
  int r = tp_rank;
  char path[256];
  if (r == 0) snprintf(path, sizeof path, "/tmp/mpidbg-tp-large-%ld.dat", (long)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  int out[K], in[K];
  MPI_Status st;
  MPI_Request q;
  const MPI_Offset blk = K * sizeof(int);
#define AT(i) ((MPI_Offset)((i) * P + r) * blk)
  fill(out, K, 10 * (r + 1));
  MPI_File_write_at_c(fh, AT(0), out, K, MPI_INT, &st);
  MPI_File_write_at_all_c(fh, AT(1), out, K, MPI_INT, &st);
  MPI_File_iwrite_at_c(fh, AT(2), out, K, MPI_INT, &q);
  MPI_Wait(&q, &st);
  MPI_File_iwrite_at_all_c(fh, AT(3), out, K, MPI_INT, &q);
  MPI_Wait(&q, &st);
  MPI_File_write_at_all_begin_c(fh, AT(4), out, K, MPI_INT);
  MPI_File_write_at_all_end(fh, out, &st);
  MPI_File_seek(fh, AT(5), MPI_SEEK_SET);
  MPI_File_write_c(fh, out, K, MPI_INT, &st);
  MPI_File_seek(fh, AT(6), MPI_SEEK_SET);
  MPI_File_write_all_c(fh, out, K, MPI_INT, &st);
  MPI_File_seek(fh, AT(7), MPI_SEEK_SET);
  MPI_File_iwrite_c(fh, out, K, MPI_INT, &q);
  MPI_Wait(&q, &st);
  MPI_File_seek(fh, AT(8), MPI_SEEK_SET);
  MPI_File_iwrite_all_c(fh, out, K, MPI_INT, &q);
  MPI_Wait(&q, &st);
  MPI_File_seek(fh, AT(9), MPI_SEEK_SET);
  MPI_File_write_all_begin_c(fh, out, K, MPI_INT);
  MPI_File_write_all_end(fh, out, &st);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  int sum = 0;
#define TP_READ(call)                         \
  do {                                        \
    fill(in, K, -1);                          \
    call;                                     \
    for (int i_ = 0; i_ < K; ++i_) sum += in[i_]; \
  } while (0)
  TP_READ(MPI_File_read_at_c(fh, AT(0), in, K, MPI_INT, &st));
  TP_READ(MPI_File_read_at_all_c(fh, AT(1), in, K, MPI_INT, &st));
  TP_READ((MPI_File_iread_at_c(fh, AT(2), in, K, MPI_INT, &q), MPI_Wait(&q, &st)));
  TP_READ((MPI_File_iread_at_all_c(fh, AT(3), in, K, MPI_INT, &q), MPI_Wait(&q, &st)));
  TP_READ((MPI_File_read_at_all_begin_c(fh, AT(4), in, K, MPI_INT),
           MPI_File_read_at_all_end(fh, in, &st)));
  MPI_File_seek(fh, AT(5), MPI_SEEK_SET);
  TP_READ(MPI_File_read_c(fh, in, K, MPI_INT, &st));
  MPI_File_seek(fh, AT(6), MPI_SEEK_SET);
  TP_READ(MPI_File_read_all_c(fh, in, K, MPI_INT, &st));
  MPI_File_seek(fh, AT(7), MPI_SEEK_SET);
  TP_READ((MPI_File_iread_c(fh, in, K, MPI_INT, &q), MPI_Wait(&q, &st)));
  MPI_File_seek(fh, AT(8), MPI_SEEK_SET);
  TP_READ((MPI_File_iread_all_c(fh, in, K, MPI_INT, &q), MPI_Wait(&q, &st)));
  MPI_File_seek(fh, AT(9), MPI_SEEK_SET);
  TP_READ((MPI_File_read_all_begin_c(fh, in, K, MPI_INT), MPI_File_read_all_end(fh, in, &st)));
  tp_out("file _c reads: sum %d", sum);

  /* Shared and ordered access after the ten blocks of both ranks. */
  MPI_File_seek_shared(fh, 10 * P * blk, MPI_SEEK_SET);
  MPI_File_write_ordered_c(fh, out, K, MPI_INT, &st);
  MPI_File_write_ordered_begin_c(fh, out, K, MPI_INT);
  MPI_File_write_ordered_end(fh, out, &st);
  for (int turn = 0; turn < P; ++turn) {
    if (turn == r) {
      MPI_File_write_shared_c(fh, out, K, MPI_INT, &st);
      MPI_File_iwrite_shared_c(fh, out, K, MPI_INT, &q);
      MPI_Wait(&q, &st);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_seek_shared(fh, 10 * P * blk, MPI_SEEK_SET);
  sum = 0;
  TP_READ(MPI_File_read_ordered_c(fh, in, K, MPI_INT, &st));
  TP_READ((MPI_File_read_ordered_begin_c(fh, in, K, MPI_INT),
           MPI_File_read_ordered_end(fh, in, &st)));
  for (int turn = 0; turn < P; ++turn) {
    if (turn == r) {
      TP_READ(MPI_File_read_shared_c(fh, in, K, MPI_INT, &st));
      TP_READ((MPI_File_iread_shared_c(fh, in, K, MPI_INT, &q), MPI_Wait(&q, &st)));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  tp_out("file _c shared/ordered reads: sum %d", sum);
#undef TP_READ
#undef AT
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) MPI_File_delete(path, MPI_INFO_NULL);

  int rc = MPI_Register_datarep_c("mpidbg_tp_rep_c", MPI_CONVERSION_FN_NULL_C,
                                  MPI_CONVERSION_FN_NULL_C, extent_fn, NULL);
  tp_out("register_datarep_c: %s", tp_err(rc));
}
#endif

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
#if MPI_VERSION >= 4
  if (tp_size != P) MPI_Abort(MPI_COMM_WORLD, 2);
  p2p();
  collectives();
  datatypes();
  ops();
  rma();
  files();
#else
  tp_out("large_count: not in MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
#endif
  return tp_finish();
}
