/*
 * neighbor.c — the neighbourhood collectives, blocking and nonblocking, on a periodic
 * ring (cartesian) and a distributed graph; MPI_Alltoallw; the nonblocking vector, w,
 * scan and reduce-scatter collectives. Integer data only. 3 ranks.
 */
#include "tp.h"

enum { MAXP = 16 };

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

/* Every neighbourhood collective on `comm`, whose ranks have `deg` in and out
 * neighbours each. */
static void neighbourhood(MPI_Comm comm, const char* what, int deg) {
  int r = tp_rank;
  int send[2 * MAXP], recv[2 * MAXP], counts[MAXP], displs[MAXP];
  MPI_Aint adispls[MAXP];
  MPI_Datatype types[MAXP];
  for (int i = 0; i < deg; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
    adispls[i] = (MPI_Aint)(2 * i * sizeof(int));
    types[i] = MPI_INT;
  }
  MPI_Request req;

  fill(send, 2, 10 * r);
  fill(recv, 2 * deg, -1);
  MPI_Neighbor_allgather(send, 2, MPI_INT, recv, 2, MPI_INT, comm);
  tp_out("%s neighbor_allgather: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Neighbor_allgatherv(send, 2, MPI_INT, recv, counts, displs, MPI_INT, comm);
  tp_out("%s neighbor_allgatherv: %s", what, tp_ints(recv, 2 * deg));
  fill(send, 2 * deg, 100 * r);
  fill(recv, 2 * deg, -1);
  MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, comm);
  tp_out("%s neighbor_alltoall: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Neighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, comm);
  tp_out("%s neighbor_alltoallv: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Neighbor_alltoallw(send, counts, adispls, types, recv, counts, adispls, types, comm);
  tp_out("%s neighbor_alltoallw: %s", what, tp_ints(recv, 2 * deg));

  fill(send, 2, 20 * r);
  fill(recv, 2 * deg, -1);
  MPI_Ineighbor_allgather(send, 2, MPI_INT, recv, 2, MPI_INT, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("%s ineighbor_allgather: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Ineighbor_allgatherv(send, 2, MPI_INT, recv, counts, displs, MPI_INT, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("%s ineighbor_allgatherv: %s", what, tp_ints(recv, 2 * deg));
  fill(send, 2 * deg, 200 * r);
  fill(recv, 2 * deg, -1);
  MPI_Ineighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("%s ineighbor_alltoall: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Ineighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("%s ineighbor_alltoallv: %s", what, tp_ints(recv, 2 * deg));
  fill(recv, 2 * deg, -1);
  MPI_Ineighbor_alltoallw(send, counts, adispls, types, recv, counts, adispls, types, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("%s ineighbor_alltoallw: %s", what, tp_ints(recv, 2 * deg));
}

/* The nonblocking vector, w and scan collectives and MPI_Alltoallw on MPI_COMM_WORLD. */
static void vector_collectives(void) {
  int p = tp_size, r = tp_rank;
  int counts[MAXP] = {0}, displs[MAXP] = {0}, wdispls[MAXP] = {0}, total = 0;
  MPI_Datatype types[MAXP];
  for (int i = 0; i < p; ++i) {
    counts[i] = i + 1;
    displs[i] = total;
    wdispls[i] = (int)(total * sizeof(int));
    types[i] = MPI_INT;
    total += i + 1;
  }
  int mine[MAXP] = {0}, all[MAXP * MAXP] = {0}, out[MAXP * MAXP] = {0};
  MPI_Request req;

  fill(mine, r + 1, 100 * r);
  fill(all, total, -1);
  MPI_Igatherv(mine, r + 1, MPI_INT, all, counts, displs, MPI_INT, 1, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (r == 1) tp_out("igatherv: %s", tp_ints(all, total));
  fill(all, total, 300);
  fill(mine, r + 1, -1);
  MPI_Iscatterv(all, counts, displs, MPI_INT, mine, r + 1, MPI_INT, 2, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("iscatterv: %s", tp_ints(mine, r + 1));
  fill(mine, r + 1, 50 * r);
  fill(all, total, -1);
  MPI_Iallgatherv(mine, r + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("iallgatherv: %s", tp_ints(all, total));

  /* Alltoallv/w: rank r sends i+1 elements to rank i (the same counts everywhere would
   * not be a vector test): its send counts are counts[], its receive counts r+1 each. */
  int rcounts[MAXP], rdispls[MAXP], rwdispls[MAXP];
  for (int i = 0; i < p; ++i) {
    rcounts[i] = r + 1;
    rdispls[i] = i * (r + 1);
    rwdispls[i] = (int)(rdispls[i] * sizeof(int));
  }
  fill(all, total, 1000 * (r + 1));
  fill(out, p * (r + 1), -1);
  MPI_Ialltoallv(all, counts, displs, MPI_INT, out, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("ialltoallv: %s", tp_ints(out, p * (r + 1)));
  fill(out, p * (r + 1), -1);
  MPI_Alltoallw(all, counts, wdispls, types, out, rcounts, rwdispls, types, MPI_COMM_WORLD);
  tp_out("alltoallw: %s", tp_ints(out, p * (r + 1)));
  fill(out, p * (r + 1), -1);
  MPI_Ialltoallw(all, counts, wdispls, types, out, rcounts, rwdispls, types, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("ialltoallw: %s", tp_ints(out, p * (r + 1)));

  fill(all, total, 10 * r);
  fill(out, r + 1, -1);
  MPI_Ireduce_scatter(all, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("ireduce_scatter: %s", tp_ints(out, r + 1));
  fill(all, 2 * p, r);
  fill(out, 2, -1);
  MPI_Ireduce_scatter_block(all, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("ireduce_scatter_block: %s", tp_ints(out, 2));
  fill(mine, 3, r + 1);
  fill(out, 3, -1);
  MPI_Iscan(mine, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  tp_out("iscan: %s", tp_ints(out, 3));
  fill(out, 3, -1);
  MPI_Iexscan(mine, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (r > 0) tp_out("iexscan: %s", tp_ints(out, 3)); /* undefined on rank 0 */
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  int p = tp_size, r = tp_rank;
  if (p > MAXP) MPI_Abort(MPI_COMM_WORLD, 2);

  int dims[1] = {p}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  neighbourhood(ring, "ring", 2);
  MPI_Comm_free(&ring);

  /* A directed cycle: each rank receives from r-1 and sends to r+1 (a fresh duplicate:
   * see README, Open MPI's MPI_Dist_graph_create). */
  MPI_Comm base, graph;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  int src[1] = {(r + p - 1) % p}, dst[1] = {(r + 1) % p};
  MPI_Dist_graph_create_adjacent(base, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  neighbourhood(graph, "graph", 1);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&base);

  vector_collectives();
  return tp_finish();
}
