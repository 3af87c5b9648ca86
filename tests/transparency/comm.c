/*
 * comm.c — communicators of every kind: dup, dup_with_info, idup, split, split_type,
 * create, create_group, intercommunicators and their merge, cartesian, graph and
 * distributed-graph topologies and cart_sub; names, attributes with copy and delete
 * callbacks, errhandlers, info, disconnect. Each new communicator is described by
 * queries and used in a reduction. Run with 4 ranks (a 2x2 grid).
 */
#include "tp.h"

/* What a communicator looks like from this rank, plus a sum over it to prove membership. */
static void describe(const char* what, MPI_Comm c) {
  if (c == MPI_COMM_NULL) {
    tp_out("%s: MPI_COMM_NULL", what);
    return;
  }
  int inter = 0, rank = -1, size = -1, sum = -1, topo = -1, cmp = -1;
  MPI_Comm_test_inter(c, &inter);
  MPI_Comm_rank(c, &rank);
  MPI_Comm_size(c, &size);
  MPI_Topo_test(c, &topo);
  MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp);
  const char* topo_name = topo == MPI_CART ? "cart" : topo == MPI_GRAPH ? "graph"
                          : topo == MPI_DIST_GRAPH ? "dist_graph" : "none";
  const char* cmp_name = cmp == MPI_IDENT ? "ident" : cmp == MPI_CONGRUENT ? "congruent"
                         : cmp == MPI_SIMILAR ? "similar" : "unequal";
  int world = tp_rank;
  if (inter) {
    int remote = -1;
    MPI_Comm_remote_size(c, &remote);
    MPI_Allreduce(&world, &sum, 1, MPI_INT, MPI_SUM, c);
    tp_out("%s: inter rank %d size %d remote %d, sum of remote world ranks %d, vs world %s",
           what, rank, size, remote, sum, cmp_name);
  } else {
    MPI_Allreduce(&world, &sum, 1, MPI_INT, MPI_SUM, c);
    tp_out("%s: rank %d size %d topo %s, sum of world ranks %d, vs world %s", what, rank, size,
           topo_name, sum, cmp_name);
  }
}

static int copy_calls = 0, delete_calls = 0;

static int copy_attr(MPI_Comm c, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)c, (void)keyval, (void)extra;
  ++copy_calls;
  *(void**)out = (void*)((intptr_t)in + 1000);
  *flag = 1;
  return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm c, int keyval, void* value, void* extra) {
  (void)c, (void)keyval, (void)extra;
  ++delete_calls;
  tp_out("  delete callback: value %ld", (long)(intptr_t)value);
  return MPI_SUCCESS;
}

static void duplicates(void) {
  MPI_Comm d, di, dd;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  describe("dup", d);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &di);
  describe("dup_with_info", di);
  MPI_Info_free(&info);
  MPI_Request rq;
  MPI_Comm_idup(d, &dd, &rq);
  MPI_Status st;
  MPI_Wait(&rq, &st);
  describe("idup", dd);
  MPI_Info hint, got;
  MPI_Info_create(&hint);
  MPI_Info_set(hint, "mpi_assert_no_any_source", "true");
  MPI_Comm_set_info(dd, hint);
  MPI_Info_free(&hint);
  MPI_Comm_get_info(dd, &got);
  int nkeys = -1;
  MPI_Info_get_nkeys(got, &nkeys);
  tp_out("comm_set_info: get_info has %d keys", nkeys);
  MPI_Info_free(&got);
  MPI_Comm_free(&dd);
  tp_out("idup freed: null=%d", dd == MPI_COMM_NULL);

  /* Names. */
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  tp_out("world name: %s (%d)", name, len);
  MPI_Comm_set_name(d, "transparency-dup");
  MPI_Comm_get_name(d, name, &len);
  tp_out("dup name: %s (%d)", name, len);
  MPI_Comm_set_name(d, "");
  MPI_Comm_get_name(d, name, &len);
  tp_out("dup name cleared: '%s' (%d)", name, len);

  /* Attributes with callbacks: set, copied by dup, deleted by delete_attr and free. */
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(copy_attr, delete_attr, &key, NULL);
  MPI_Comm_set_attr(d, key, (void*)(intptr_t)(tp_rank + 1));
  void* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(d, key, &value, &flag);
  tp_out("attr: flag=%d value=%ld", flag, (long)(intptr_t)value);
  MPI_Comm_set_attr(d, key, (void*)(intptr_t)(tp_rank + 2)); /* replaces: deletes the old */
  MPI_Comm copy;
  MPI_Comm_dup(d, &copy);
  MPI_Comm_get_attr(copy, key, &value, &flag);
  tp_out("attr copied: flag=%d value=%ld copies=%d", flag, (long)(intptr_t)value, copy_calls);
  MPI_Comm_delete_attr(d, key);
  MPI_Comm_get_attr(d, key, &value, &flag);
  tp_out("attr deleted: flag=%d deletes=%d", flag, delete_calls);
  MPI_Comm_free(&copy); /* deletes the copied attribute */
  tp_out("after free of copy: deletes=%d", delete_calls);
  MPI_Comm_free_keyval(&key);
  int tag_ub_flag = 0;
  int* tag_ub = NULL;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &tag_ub_flag);
  tp_out("tag_ub present=%d at-least-32767=%d", tag_ub_flag, tag_ub_flag && *tag_ub >= 32767);

  /* Errhandlers: predefined and user-defined. */
  MPI_Errhandler eh;
  MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(d, &eh);
  tp_out("errhandler is errors_return=%d", eh == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&di);
  MPI_Comm_disconnect(&d);
  tp_out("disconnected: null=%d", d == MPI_COMM_NULL);
}

static void splits(void) {
  MPI_Comm s, t, c, cg, none;
  MPI_Comm_split(MPI_COMM_WORLD, tp_rank % 2, -tp_rank, &s);
  describe("split parity, reversed keys", s);
  MPI_Comm_split(MPI_COMM_WORLD, tp_rank == 0 ? MPI_UNDEFINED : 1, 0, &none);
  describe("split undefined on 0", none);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, tp_rank, MPI_INFO_NULL, &t);
  describe("split_type shared", t);
  MPI_Group world, evens;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranks[8], n = 0;
  for (int r = 0; r < tp_size; r += 2) ranks[n++] = r;
  MPI_Group_incl(world, n, ranks, &evens);
  MPI_Comm_create(MPI_COMM_WORLD, evens, &c);
  describe("create evens", c);
  if (tp_rank % 2 == 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &cg);
    describe("create_group evens", cg);
    MPI_Comm_free(&cg);
  }
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  if (none != MPI_COMM_NULL) MPI_Comm_free(&none);
  MPI_Comm_free(&t);

  /* Intercommunicator between the two parity halves, then merged. */
  MPI_Comm ic, merged;
  /* Keys are reversed: each half's local leader is its highest world rank. */
  int other = 1 - tp_rank % 2;
  int remote_leader = (tp_size - 1) % 2 == other ? tp_size - 1 : tp_size - 2;
  MPI_Intercomm_create(s, 0, MPI_COMM_WORLD, remote_leader, 9, &ic);
  describe("intercomm", ic);
  MPI_Intercomm_merge(ic, tp_rank % 2, &merged);
  describe("merged (odd high)", merged);
  MPI_Comm dup_ic;
  MPI_Comm_dup(ic, &dup_ic);
  describe("dup of intercomm", dup_ic);
  MPI_Comm_free(&dup_ic);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&s);
}

static void topologies(void) {
  int dims[2] = {0, 0};
  MPI_Dims_create(tp_size, 2, dims);
  int periods[2] = {1, 0};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  describe("cart", cart);
  int coords[2], rdims[2], rper[2], ndims = 0;
  MPI_Cartdim_get(cart, &ndims);
  MPI_Cart_get(cart, 2, rdims, rper, coords);
  int src, dst, src1, dst1;
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  MPI_Cart_shift(cart, 1, 1, &src1, &dst1);
  int back = -1;
  MPI_Cart_rank(cart, coords, &back);
  tp_out("cart: ndims %d dims %dx%d periods %d,%d coords %d,%d shift0 %d->%d shift1 "
         "null-src=%d null-dst=%d rank %d",
         ndims, rdims[0], rdims[1], rper[0], rper[1], coords[0], coords[1], src, dst,
         src1 == MPI_PROC_NULL, dst1 == MPI_PROC_NULL, back);
  int keep[2] = {0, 1};
  MPI_Comm row;
  MPI_Cart_sub(cart, keep, &row);
  describe("cart_sub rows", row);
  MPI_Comm_free(&row);
  MPI_Comm_free(&cart);

  /* A ring as a graph. */
  int index[16], edges[32], n = tp_size;
  for (int i = 0; i < n; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + n - 1) % n;
    edges[2 * i + 1] = (i + 1) % n;
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph);
  describe("graph ring", graph);
  int nn = 0, nb[4];
  MPI_Graph_neighbors_count(graph, tp_rank, &nn);
  MPI_Graph_neighbors(graph, tp_rank, 4, nb);
  tp_out("graph neighbours: %d: %s", nn, tp_ints(nb, nn));
  MPI_Comm_free(&graph);

  /* Distributed graphs: each rank names the edge to its right neighbour. Made from a
   * fresh duplicate of the world: Open MPI 4.1's MPI_Dist_graph_create uses fixed tags
   * that the nonblocking-collective tags of a much-used parent eventually reach, and
   * then hangs (open-mpi/ompi issue 13918). */
  MPI_Comm base, dg, dga;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  int source = tp_rank, degree = 1, dest = (tp_rank + 1) % n, weight = tp_rank + 1;
  MPI_Dist_graph_create(base, 1, &source, &degree, &dest, &weight, MPI_INFO_NULL, 0, &dg);
  describe("dist_graph", dg);
  int indeg = -1, outdeg = -1, weighted = -1;
  MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
  int srcs[4], sw[4], dsts[4], dw[4];
  MPI_Dist_graph_neighbors(dg, 4, srcs, sw, 4, dsts, dw);
  tp_out("dist_graph: in %d out %d weighted %d sources %d (w %d) dests %d (w %d)", indeg, outdeg,
         weighted, srcs[0], sw[0], dsts[0], dw[0]);
  MPI_Comm_free(&dg);
  int left = (tp_rank + n - 1) % n, right = (tp_rank + 1) % n;
  MPI_Dist_graph_create_adjacent(base, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dga);
  describe("dist_graph_adjacent", dga);
  MPI_Dist_graph_neighbors_count(dga, &indeg, &outdeg, &weighted);
  MPI_Dist_graph_neighbors(dga, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED);
  tp_out("dist_graph_adjacent: in %d out %d weighted %d source %d dest %d", indeg, outdeg,
         weighted, srcs[0], dsts[0]);
  /* A neighbourhood collective over it. */
  int mine = 100 + tp_rank, from_left = -1;
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, &from_left, 1, MPI_INT, dga);
  tp_out("neighbor_allgather: %d", from_left);
  MPI_Comm_free(&dga);
  MPI_Comm_free(&base);
}

/* Communicators on MPI_COMM_SELF and a free of a communicator with pending traffic. */
static void self_and_pending(void) {
  MPI_Comm self;
  MPI_Comm_dup(MPI_COMM_SELF, &self);
  describe("dup of self", self);
  int v = 5, w = 0;
  MPI_Request rq;
  MPI_Irecv(&w, 1, MPI_INT, 0, 0, self, &rq);
  MPI_Send(&v, 1, MPI_INT, 0, 0, self);
  MPI_Comm_free(&self); /* legal: the pending receive completes on its own */
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  tp_out("receive on freed self dup: %d", w);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  describe("world", MPI_COMM_WORLD);
  describe("self", MPI_COMM_SELF);
  duplicates();
  splits();
  topologies();
  self_and_pending();
  return tp_finish();
}
