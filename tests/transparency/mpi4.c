/*
 * mpi4.c — the MPI-4 calls beyond sessions.c and large_count.c: every persistent
 * collective (neighbourhood ones on a ring), partitioned send and receive with each
 * way of readying partitions, MPI_Comm_idup_with_info, MPI_Intercomm_create_from_groups,
 * MPI_Info_create_env, the session errhandler and info calls. Open MPI 4.1 (MPI 3.1)
 * has none of them and prints one line. Run with 2 ranks.
 */
#include "tp.h"

#if MPI_VERSION >= 4
enum { MAXP = 16 };

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

/* Starts, completes and frees a persistent request twice, printing `buf` each time. */
static void run_twice(const char* what, MPI_Request* req, const int* buf, int n) {
  for (int round = 0; round < 2; ++round) {
    MPI_Start(req);
    MPI_Wait(req, MPI_STATUS_IGNORE);
    tp_out("%s round %d: %s", what, round, tp_ints(buf, n));
  }
  MPI_Request_free(req);
}

static void persistent_collectives(void) {
  int p = tp_size, r = tp_rank;
  int s[2 * MAXP], out[2 * MAXP], counts[MAXP], displs[MAXP], wdispls[MAXP];
  MPI_Aint adispls[MAXP];
  MPI_Datatype types[MAXP];
  for (int i = 0; i < p; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
    wdispls[i] = (int)(2 * i * sizeof(int));
    adispls[i] = (MPI_Aint)(2 * i * sizeof(int));
    types[i] = MPI_INT;
  }
  MPI_Request q;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Comm w = MPI_COMM_WORLD;

  MPI_Barrier_init(w, info, &q);
  run_twice("barrier_init", &q, NULL, 0);
  fill(out, 2, r == 1 ? 40 : -1);
  MPI_Bcast_init(out, 2, MPI_INT, 1, w, info, &q);
  run_twice("bcast_init", &q, out, 2);
  fill(s, 2, 10 * r);
  fill(out, 2, -1);
  MPI_Reduce_init(s, out, 2, MPI_INT, MPI_SUM, 0, w, info, &q);
  run_twice("reduce_init", &q, out, r == 0 ? 2 : 0);
  MPI_Allreduce_init(s, out, 2, MPI_INT, MPI_MAX, w, info, &q);
  run_twice("allreduce_init", &q, out, 2);
  MPI_Gather_init(s, 2, MPI_INT, out, 2, MPI_INT, 1, w, info, &q);
  run_twice("gather_init", &q, out, r == 1 ? 2 * p : 0);
  MPI_Gatherv_init(s, 2, MPI_INT, out, counts, displs, MPI_INT, 0, w, info, &q);
  run_twice("gatherv_init", &q, out, r == 0 ? 2 * p : 0);
  fill(s, 2 * p, 100);
  MPI_Scatter_init(s, 2, MPI_INT, out, 2, MPI_INT, 0, w, info, &q);
  run_twice("scatter_init", &q, out, 2);
  MPI_Scatterv_init(s, counts, displs, MPI_INT, out, 2, MPI_INT, 1, w, info, &q);
  run_twice("scatterv_init", &q, out, 2);
  fill(s, 2, 7 * r);
  MPI_Allgather_init(s, 2, MPI_INT, out, 2, MPI_INT, w, info, &q);
  run_twice("allgather_init", &q, out, 2 * p);
  MPI_Allgatherv_init(s, 2, MPI_INT, out, counts, displs, MPI_INT, w, info, &q);
  run_twice("allgatherv_init", &q, out, 2 * p);
  fill(s, 2 * p, 1000 * (r + 1));
  MPI_Alltoall_init(s, 2, MPI_INT, out, 2, MPI_INT, w, info, &q);
  run_twice("alltoall_init", &q, out, 2 * p);
  MPI_Alltoallv_init(s, counts, displs, MPI_INT, out, counts, displs, MPI_INT, w, info, &q);
  run_twice("alltoallv_init", &q, out, 2 * p);
  MPI_Alltoallw_init(s, counts, wdispls, types, out, counts, wdispls, types, w, info, &q);
  run_twice("alltoallw_init", &q, out, 2 * p);
  int rs[MAXP];
  for (int i = 0; i < p; ++i) rs[i] = 2;
  MPI_Reduce_scatter_init(s, out, rs, MPI_INT, MPI_SUM, w, info, &q);
  run_twice("reduce_scatter_init", &q, out, 2);
  MPI_Reduce_scatter_block_init(s, out, 2, MPI_INT, MPI_SUM, w, info, &q);
  run_twice("reduce_scatter_block_init", &q, out, 2);
  fill(s, 2, r + 1);
  MPI_Scan_init(s, out, 2, MPI_INT, MPI_SUM, w, info, &q);
  run_twice("scan_init", &q, out, 2);
  MPI_Exscan_init(s, out, 2, MPI_INT, MPI_SUM, w, info, &q);
  run_twice("exscan_init", &q, out, r > 0 ? 2 : 0);

  /* Neighbourhood: a periodic ring, two neighbours (the same rank twice on 2 ranks). */
  int dims[1] = {p}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(w, 1, dims, periods, 0, &ring);
  fill(s, 4, 20 * r);
  MPI_Neighbor_allgather_init(s, 2, MPI_INT, out, 2, MPI_INT, ring, info, &q);
  run_twice("neighbor_allgather_init", &q, out, 4);
  MPI_Neighbor_allgatherv_init(s, 2, MPI_INT, out, counts, displs, MPI_INT, ring, info, &q);
  run_twice("neighbor_allgatherv_init", &q, out, 4);
  MPI_Neighbor_alltoall_init(s, 2, MPI_INT, out, 2, MPI_INT, ring, info, &q);
  run_twice("neighbor_alltoall_init", &q, out, 4);
  MPI_Neighbor_alltoallv_init(s, counts, displs, MPI_INT, out, counts, displs, MPI_INT, ring, info,
                              &q);
  run_twice("neighbor_alltoallv_init", &q, out, 4);
  MPI_Neighbor_alltoallw_init(s, counts, adispls, types, out, counts, adispls, types, ring, info,
                              &q);
  run_twice("neighbor_alltoallw_init", &q, out, 4);
  MPI_Comm_free(&ring);
}

static void partitioned(void) {
  enum { PARTS = 4, PER = 2 };
  int r = tp_rank, buf[PARTS * PER];
  MPI_Request q;
  if (r == 0) {
    fill(buf, PARTS * PER, 60);
    MPI_Psend_init(buf, PARTS, PER, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    for (int round = 0; round < 3; ++round) {
      MPI_Start(&q);
      if (round == 0) {
        for (int i = 0; i < PARTS; ++i) MPI_Pready(i, q);
      } else if (round == 1) {
        MPI_Pready_range(0, PARTS - 1, q);
      } else {
        int list[PARTS] = {3, 1, 0, 2};
        MPI_Pready_list(PARTS, list, q);
      }
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
  } else if (r == 1) {
    MPI_Precv_init(buf, PARTS, PER, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    for (int round = 0; round < 3; ++round) {
      fill(buf, PARTS * PER, -1);
      MPI_Start(&q);
      int arrived = 0;
      while (!arrived) MPI_Parrived(q, PARTS - 1, &arrived);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      tp_out("precv round %d: %s", round, tp_ints(buf, PARTS * PER));
    }
  }
  if (r <= 1) MPI_Request_free(&q);
}

static void objects(void) {
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "mpi_assert_no_any_tag", "false");
  MPI_Comm dup;
  MPI_Request q;
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, hints, &dup, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  int size = -1, cmp = -1;
  MPI_Comm_size(dup, &size);
  MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
  tp_out("idup_with_info: size %d congruent %d", size, cmp == MPI_CONGRUENT);
  MPI_Comm_free(&dup);
  MPI_Info_free(&hints);

  /* Two single-rank groups joined into an intercommunicator. */
  MPI_Group world, mine, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int me = tp_rank, peer = 1 - tp_rank;
  if (tp_rank <= 1) {
    MPI_Group_incl(world, 1, &me, &mine);
    MPI_Group_incl(world, 1, &peer, &other);
    MPI_Comm inter;
    int rc = MPI_Intercomm_create_from_groups(mine, 0, other, 0, "mpidbg-tp", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &inter);
    int rsize = -1, isinter = 0;
    if (rc == MPI_SUCCESS) {
      MPI_Comm_remote_size(inter, &rsize);
      MPI_Comm_test_inter(inter, &isinter);
      MPI_Comm_free(&inter);
    }
    tp_out("intercomm_create_from_groups: %s inter %d remote size %d", tp_err(rc), isinter, rsize);
    MPI_Group_free(&mine);
    MPI_Group_free(&other);
  }
  MPI_Group_free(&world);

  MPI_Info env;
  int rc = MPI_Info_create_env(0, NULL, &env);
  tp_out("info_create_env: %s", tp_err(rc));
  if (rc == MPI_SUCCESS) MPI_Info_free(&env);
}

static int session_errors = 0;
static void on_session_error(MPI_Session* s, int* code, ...) {
  (void)s, (void)code;
  ++session_errors;
}

static void session_objects(void) {
  MPI_Session s;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
  MPI_Errhandler eh, got;
  MPI_Session_create_errhandler(on_session_error, &eh);
  tp_out("session set_errhandler: %s", tp_err(MPI_Session_set_errhandler(s, eh)));
  MPI_Session_get_errhandler(s, &got);
  tp_out("session get_errhandler same: %d", got == eh);
  MPI_Errhandler_free(&got);
  MPI_Info used;
  int rc = MPI_Session_get_info(s, &used);
  tp_out("session get_info: %s", tp_err(rc));
  if (rc == MPI_SUCCESS) MPI_Info_free(&used);
  rc = MPI_Session_get_pset_info(s, "mpi://WORLD", &used);
  tp_out("session get_pset_info: %s", tp_err(rc));
  if (rc == MPI_SUCCESS) {
    char value[64] = "";
    int flag = 0;
    MPI_Info_get(used, "mpi_size", sizeof value - 1, value, &flag);
    tp_out("  mpi_size %s (%d)", flag ? value : "-", flag);
    MPI_Info_free(&used);
  }
  MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);
  MPI_Session_finalize(&s);
}
#endif

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
#if MPI_VERSION >= 4
  persistent_collectives();
  partitioned();
  objects();
  session_objects();
#else
  tp_out("mpi4: not in MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
#endif
  return tp_finish();
}
