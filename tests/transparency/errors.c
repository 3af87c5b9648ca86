/*
 * errors.c — error paths. With MPI_ERRORS_RETURN on every object, each call below gets
 * a bad argument that MPI detects locally (the same on every rank, so collectives fail
 * everywhere alike) and the program prints the error class it returned. The runtime
 * sits in front of MPI with its own hooks: it must neither trip over a bad argument
 * (null arrays, negative counts, null handles) nor change the class MPI returns.
 *
 * A few calls whose bad arguments one MPI does not detect, or detects by aborting, are
 * left out with a note. Run with 2 ranks.
 */
#include <unistd.h>

#include "tp.h"

static int trace = 0; /* TP_TRACE=1: name each call on stderr before making it */

#define E(what, call)                                           \
  do {                                                          \
    if (trace) fprintf(stderr, "[%d] %s\n", tp_rank, what);      \
    int rc_ = (call);                                           \
    tp_out("%-44s %s", what, tp_err(rc_));                      \
  } while (0)

static int noop_query(void* extra, MPI_Status* st) {
  (void)extra;
  MPI_Status_set_elements(st, MPI_INT, 0);
  return MPI_SUCCESS;
}
static int noop_free(void* extra) {
  (void)extra;
  return MPI_SUCCESS;
}
static int noop_cancel(void* extra, int complete) {
  (void)extra, (void)complete;
  return MPI_SUCCESS;
}

static void p2p(void) {
  int v[4] = {1, 2, 3, 4}, flag = 0;
  int bad = tp_size + 2;
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Status st;
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Datatype uncommitted;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  tp_out("-- point to point");
  E("Send count -1", MPI_Send(v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD));
  E("Send dest out of range", MPI_Send(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD));
  E("Send tag -5", MPI_Send(v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD));
  E("Send MPI_DATATYPE_NULL", MPI_Send(v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD));
  E("Send uncommitted type", MPI_Send(v, 1, uncommitted, 0, 0, MPI_COMM_WORLD));
  E("Send MPI_COMM_NULL", MPI_Send(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
  E("Ssend dest out of range", MPI_Ssend(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD));
  E("Bsend dest out of range", MPI_Bsend(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD));
  E("Rsend tag -5", MPI_Rsend(v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD));
  E("Isend dest out of range", MPI_Isend(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD, &rq));
  E("Issend count -1", MPI_Issend(v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq));
  E("Ibsend MPI_COMM_NULL", MPI_Ibsend(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &rq));
  E("Irsend MPI_DATATYPE_NULL", MPI_Irsend(v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &rq));
  E("Recv source out of range", MPI_Recv(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD, &st));
  E("Recv tag -5", MPI_Recv(v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &st));
  E("Irecv MPI_COMM_NULL", MPI_Irecv(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &rq));
  E("Sendrecv dest out of range",
    MPI_Sendrecv(v, 1, MPI_INT, bad, 0, v + 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st));
  E("Sendrecv_replace source out of range",
    MPI_Sendrecv_replace(v, 1, MPI_INT, 0, 0, bad, 0, MPI_COMM_WORLD, &st));
  E("Probe source out of range", MPI_Probe(bad, 0, MPI_COMM_WORLD, &st));
  E("Iprobe tag -5", MPI_Iprobe(0, -5, MPI_COMM_WORLD, &flag, &st));
  E("Mprobe tag -5", MPI_Mprobe(0, -5, MPI_COMM_WORLD, &msg, &st));
  E("Improbe source out of range", MPI_Improbe(bad, 0, MPI_COMM_WORLD, &flag, &msg, &st));
  /* Mrecv/Imrecv with bad arguments: Open MPI 4.1 aborts instead of returning. */
  E("Send_init dest out of range", MPI_Send_init(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD, &rq));
  E("Ssend_init count -1", MPI_Ssend_init(v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq));
  E("Bsend_init tag -5", MPI_Bsend_init(v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &rq));
  E("Rsend_init MPI_COMM_NULL", MPI_Rsend_init(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &rq));
  E("Recv_init source out of range", MPI_Recv_init(v, 1, MPI_INT, bad, 0, MPI_COMM_WORLD, &rq));
  rq = MPI_REQUEST_NULL;
  E("Start MPI_REQUEST_NULL", MPI_Start(&rq));
  MPI_Request two[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  E("Startall of null requests", MPI_Startall(2, two));
  E("Startall count -1", MPI_Startall(-1, two));
  E("Request_free MPI_REQUEST_NULL", MPI_Request_free(&rq));
  E("Cancel MPI_REQUEST_NULL", MPI_Cancel(&rq));
#if MPI_VERSION >= 4
  E("Isendrecv dest out of range",
    MPI_Isendrecv(v, 1, MPI_INT, bad, 0, v + 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq));
  E("Isendrecv_replace count -1",
    MPI_Isendrecv_replace(v, -1, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD, &rq));
#endif
  MPI_Type_free(&uncommitted);

  /* A truncated message: alone, and inside Waitall (MPI_ERR_IN_STATUS). */
  if (tp_rank == 0) {
    MPI_Send(v, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
    MPI_Send(v, 4, MPI_INT, 1, 8, MPI_COMM_WORLD);
    MPI_Send(v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
  } else if (tp_rank == 1) {
    int small[2] = {0, 0};
    E("Recv truncated (4 ints into 2)", MPI_Recv(small, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &st));
    tp_out("  received prefix %s", tp_ints(small, 2));
  }
  /* Both remaining messages are at rank 1 before it posts their receives: otherwise
   * Open MPI's Waitall may report the second as MPI_ERR_PENDING or as MPI_SUCCESS
   * depending on timing alone. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (tp_rank == 1) {
    int small[2] = {0, 0};
    MPI_Request rs[2];
    MPI_Status sts[2];
    int one = -1;
    MPI_Irecv(small, 2, MPI_INT, 0, 8, MPI_COMM_WORLD, &rs[0]);
    MPI_Irecv(&one, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &rs[1]);
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = -12345;
    E("Waitall with a truncated receive", MPI_Waitall(2, rs, sts));
    tp_out("  statuses: %s, %s; value %d", tp_err(sts[0].MPI_ERROR),
           sts[1].MPI_ERROR == -12345 ? "untouched" : tp_err(sts[1].MPI_ERROR), one);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void completion(void) {
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Status st;
  int flag = 0, index = 0, out = 0, idx[2];
  tp_out("-- completion");
  E("Waitall count -1", MPI_Waitall(-1, &rq, MPI_STATUSES_IGNORE));
  E("Waitall null request array", MPI_Waitall(2, NULL, MPI_STATUSES_IGNORE));
  E("Waitany count -1", MPI_Waitany(-1, &rq, &index, &st));
  E("Waitany null request array", MPI_Waitany(2, NULL, &index, &st));
  E("Waitsome count -1", MPI_Waitsome(-1, &rq, &out, idx, MPI_STATUSES_IGNORE));
  E("Waitsome null request array", MPI_Waitsome(2, NULL, &out, idx, MPI_STATUSES_IGNORE));
  E("Testall count -1", MPI_Testall(-1, &rq, &flag, MPI_STATUSES_IGNORE));
  E("Testall null request array", MPI_Testall(2, NULL, &flag, MPI_STATUSES_IGNORE));
  E("Testany count -1", MPI_Testany(-1, &rq, &index, &flag, &st));
  E("Testsome count -1", MPI_Testsome(-1, &rq, &out, idx, MPI_STATUSES_IGNORE));
  E("Testsome null request array", MPI_Testsome(2, NULL, &out, idx, MPI_STATUSES_IGNORE));
  E("Test null flag", MPI_Test(&rq, NULL, &st));
  E("Wait null request pointer", MPI_Wait(NULL, &st));
}

static void collectives(void) {
  int v[8] = {0}, w[8] = {0}, counts[2] = {1, 1}, displs[2] = {0, 1};
  int bad = tp_size + 1;
  MPI_Request rq;
  tp_out("-- collectives");
  E("Barrier MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL));
  E("Bcast root out of range", MPI_Bcast(v, 1, MPI_INT, bad, MPI_COMM_WORLD));
  E("Bcast count -1", MPI_Bcast(v, -1, MPI_INT, 0, MPI_COMM_WORLD));
  E("Reduce MPI_OP_NULL", MPI_Reduce(v, w, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD));
  E("Allreduce MPI_DATATYPE_NULL", MPI_Allreduce(v, w, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
  E("Gather root out of range", MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, bad, MPI_COMM_WORLD));
  E("Gatherv root out of range",
    MPI_Gatherv(v, 1, MPI_INT, w, counts, displs, MPI_INT, bad, MPI_COMM_WORLD));
  E("Scatter root out of range", MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, bad, MPI_COMM_WORLD));
  E("Scatterv root out of range",
    MPI_Scatterv(v, counts, displs, MPI_INT, w, 1, MPI_INT, bad, MPI_COMM_WORLD));
  E("Allgather count -1", MPI_Allgather(v, -1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD));
  E("Allgatherv MPI_DATATYPE_NULL",
    MPI_Allgatherv(v, 1, MPI_INT, w, counts, displs, MPI_DATATYPE_NULL, MPI_COMM_WORLD));
  E("Alltoall count -1", MPI_Alltoall(v, -1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD));
  E("Alltoallv MPI_COMM_NULL",
    MPI_Alltoallv(v, counts, displs, MPI_INT, w, counts, displs, MPI_INT, MPI_COMM_NULL));
  E("Reduce_scatter MPI_OP_NULL", MPI_Reduce_scatter(v, w, counts, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  E("Reduce_scatter_block MPI_OP_NULL",
    MPI_Reduce_scatter_block(v, w, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  E("Scan MPI_OP_NULL", MPI_Scan(v, w, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  E("Exscan MPI_DATATYPE_NULL", MPI_Exscan(v, w, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
  E("Ibarrier MPI_COMM_NULL", MPI_Ibarrier(MPI_COMM_NULL, &rq));
  E("Ibcast root out of range", MPI_Ibcast(v, 1, MPI_INT, bad, MPI_COMM_WORLD, &rq));
  E("Ireduce MPI_OP_NULL", MPI_Ireduce(v, w, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD, &rq));
  E("Iallreduce count -1", MPI_Iallreduce(v, w, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
  E("Igather root out of range", MPI_Igather(v, 1, MPI_INT, w, 1, MPI_INT, bad, MPI_COMM_WORLD, &rq));
  E("Iscatter root out of range", MPI_Iscatter(v, 1, MPI_INT, w, 1, MPI_INT, bad, MPI_COMM_WORLD, &rq));
  E("Iallgather count -1", MPI_Iallgather(v, -1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD, &rq));
  E("Ialltoall MPI_DATATYPE_NULL",
    MPI_Ialltoall(v, 1, MPI_DATATYPE_NULL, w, 1, MPI_INT, MPI_COMM_WORLD, &rq));
}

static void communicators(void) {
  MPI_Comm c = MPI_COMM_NULL, world = MPI_COMM_WORLD, null = MPI_COMM_NULL;
  MPI_Request rq;
  int dims[2] = {tp_size, 2}, periods[2] = {0, 0}, keep[2] = {1, 0};
  int index[2] = {1, 2}, edges[2] = {1, 0}, one = 1, zero = 0;
  tp_out("-- communicators");
  E("Comm_dup MPI_COMM_NULL", MPI_Comm_dup(MPI_COMM_NULL, &c));
  E("Comm_dup_with_info MPI_COMM_NULL", MPI_Comm_dup_with_info(MPI_COMM_NULL, MPI_INFO_NULL, &c));
  E("Comm_idup MPI_COMM_NULL", MPI_Comm_idup(MPI_COMM_NULL, &c, &rq));
  E("Comm_split MPI_COMM_NULL", MPI_Comm_split(MPI_COMM_NULL, 0, 0, &c));
  E("Comm_split_type MPI_COMM_NULL",
    MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
  E("Comm_create MPI_GROUP_NULL", MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c));
  E("Comm_create_group MPI_GROUP_NULL", MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c));
  E("Comm_free MPI_COMM_NULL", MPI_Comm_free(&null));
  E("Comm_free MPI_COMM_WORLD", MPI_Comm_free(&world));
  tp_out("  world handle kept: %d", world == MPI_COMM_WORLD);
  E("Comm_set_name MPI_COMM_NULL", MPI_Comm_set_name(MPI_COMM_NULL, "x"));
  E("Intercomm_create MPI_COMM_NULL local",
    MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 0, &c));
  /* Intercomm_merge of an intracommunicator: MPICH 4.0 asserts instead of returning. */
  E("Cart_create ndims -1", MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &c));
  E("Cart_create bigger than the group", MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
  E("Cart_sub of a non-cartesian comm", MPI_Cart_sub(MPI_COMM_WORLD, keep, &c));
  E("Graph_create nnodes -1", MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c));
  E("Dist_graph_create n -1",
    MPI_Dist_graph_create(MPI_COMM_WORLD, -1, &zero, &one, &zero, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c));
  E("Dist_graph_create_adjacent indegree -1",
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &zero, MPI_UNWEIGHTED, 0, &zero,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c));
  E("Comm_set_attr MPI_KEYVAL_INVALID", MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &one));
  E("Comm_set_attr on MPI_COMM_NULL", MPI_Comm_set_attr(MPI_COMM_NULL, MPI_TAG_UB, &one));
  E("Comm_delete_attr MPI_KEYVAL_INVALID", MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID));
  E("Comm_set_errhandler MPI_ERRHANDLER_NULL", MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL));
  E("Comm_set_info MPI_COMM_NULL", MPI_Comm_set_info(MPI_COMM_NULL, MPI_INFO_NULL));
  E("Comm_disconnect MPI_COMM_NULL", MPI_Comm_disconnect(&null));
  /* The world still works after all that. */
  int sum = 0, mine = 1;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  tp_out("  world allreduce after the errors: %d", sum);
}

static void groups(void) {
  MPI_Group world, g = MPI_GROUP_NULL, null = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int bad[1] = {tp_size + 3}, dup[2] = {0, 0};
  int range[1][3] = {{0, tp_size + 3, 1}}, zero_stride[1][3] = {{0, 0, 0}};
  tp_out("-- groups");
  E("Comm_group MPI_COMM_NULL", MPI_Comm_group(MPI_COMM_NULL, &g));
  E("Comm_remote_group of an intracommunicator", MPI_Comm_remote_group(MPI_COMM_WORLD, &g));
  E("Group_incl rank out of range", MPI_Group_incl(world, 1, bad, &g));
  E("Group_incl duplicate rank", MPI_Group_incl(world, 2, dup, &g));
  E("Group_excl rank out of range", MPI_Group_excl(world, 1, bad, &g));
  E("Group_range_incl range out of range", MPI_Group_range_incl(world, 1, range, &g));
  E("Group_range_excl stride 0", MPI_Group_range_excl(world, 1, zero_stride, &g));
  E("Group_union MPI_GROUP_NULL", MPI_Group_union(world, MPI_GROUP_NULL, &g));
  E("Group_intersection MPI_GROUP_NULL", MPI_Group_intersection(MPI_GROUP_NULL, world, &g));
  E("Group_difference MPI_GROUP_NULL", MPI_Group_difference(world, MPI_GROUP_NULL, &g));
  E("Group_free MPI_GROUP_NULL", MPI_Group_free(&null));
  E("Win_get_group MPI_WIN_NULL", MPI_Win_get_group(MPI_WIN_NULL, &g));
  E("File_get_group MPI_FILE_NULL", MPI_File_get_group(MPI_FILE_NULL, &g));
  MPI_Group_free(&world);
}

static void datatypes(void) {
  MPI_Datatype t = MPI_DATATYPE_NULL, null = MPI_DATATYPE_NULL, predefined = MPI_INT;
  int blens[2] = {1, -1}, displs[2] = {0, 1}, sizes[1] = {4}, subs[1] = {2}, starts[1] = {3};
  MPI_Aint adispls[2] = {0, 4};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  int gsizes[1] = {4}, distrib[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG},
      psizes[1] = {2};
  tp_out("-- datatypes");
  E("Type_contiguous count -1", MPI_Type_contiguous(-1, MPI_INT, &t));
  E("Type_vector count -1", MPI_Type_vector(-1, 1, 1, MPI_INT, &t));
  E("Type_create_hvector MPI_DATATYPE_NULL", MPI_Type_create_hvector(1, 1, 4, MPI_DATATYPE_NULL, &t));
  E("Type_indexed negative blocklength", MPI_Type_indexed(2, blens, displs, MPI_INT, &t));
  E("Type_create_hindexed count -1", MPI_Type_create_hindexed(-1, blens, adispls, MPI_INT, &t));
  E("Type_create_indexed_block count -1", MPI_Type_create_indexed_block(-1, 1, displs, MPI_INT, &t));
  E("Type_create_hindexed_block MPI_DATATYPE_NULL",
    MPI_Type_create_hindexed_block(2, 1, adispls, MPI_DATATYPE_NULL, &t));
  E("Type_create_struct count -1", MPI_Type_create_struct(-1, blens, adispls, types, &t));
  E("Type_create_subarray start past the end",
    MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t));
  E("Type_create_darray rank out of range",
    MPI_Type_create_darray(2, 5, 1, gsizes, distrib, darg, psizes, MPI_ORDER_C, MPI_INT, &t));
  E("Type_create_resized MPI_DATATYPE_NULL", MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t));
  E("Type_dup MPI_DATATYPE_NULL", MPI_Type_dup(MPI_DATATYPE_NULL, &t));
  E("Type_commit MPI_DATATYPE_NULL", MPI_Type_commit(&null));
  E("Type_free MPI_DATATYPE_NULL", MPI_Type_free(&null));
  E("Type_free predefined MPI_INT", MPI_Type_free(&predefined));
  tp_out("  predefined handle kept: %d", predefined == MPI_INT);
  E("Type_set_name MPI_DATATYPE_NULL", MPI_Type_set_name(MPI_DATATYPE_NULL, "x"));
  E("Type_create_f90_real precision 1000", MPI_Type_create_f90_real(1000, MPI_UNDEFINED, &t));
  E("Type_create_f90_complex precision 1000", MPI_Type_create_f90_complex(1000, MPI_UNDEFINED, &t));
  E("Type_create_f90_integer range 1000", MPI_Type_create_f90_integer(1000, &t));
}

static void ops_errhandlers_info(void) {
  MPI_Op sum = MPI_SUM, null_op = MPI_OP_NULL;
  MPI_Errhandler null_eh = MPI_ERRHANDLER_NULL, eh = MPI_ERRHANDLER_NULL;
  MPI_Info info, null_info = MPI_INFO_NULL, copy;
  tp_out("-- ops, errhandlers, info");
  E("Op_free predefined MPI_SUM", MPI_Op_free(&sum));
  tp_out("  predefined handle kept: %d", sum == MPI_SUM);
  E("Op_free MPI_OP_NULL", MPI_Op_free(&null_op));
  E("Errhandler_free MPI_ERRHANDLER_NULL", MPI_Errhandler_free(&null_eh));
  E("Win_set_errhandler MPI_WIN_NULL", MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN));
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  MPI_Errhandler_free(&eh);
  MPI_Info_create(&info);
  char longkey[MPI_MAX_INFO_KEY + 10];
  memset(longkey, 'k', sizeof longkey - 1);
  longkey[sizeof longkey - 1] = '\0';
  E("Info_set key too long", MPI_Info_set(info, longkey, "v"));
  E("Info_set empty key", MPI_Info_set(info, "", "v"));
  E("Info_delete missing key", MPI_Info_delete(info, "missing"));
  E("Info_dup MPI_INFO_NULL", MPI_Info_dup(MPI_INFO_NULL, &copy));
  E("Info_free MPI_INFO_NULL", MPI_Info_free(&null_info));
  MPI_Info_set(info, "k", "a longer value");
  char small[4];
  int flag = -1;
  E("Info_get valuelen shorter than the value", MPI_Info_get(info, "k", 3, small, &flag));
  MPI_Info_free(&info);
}

static void windows(void) {
  int buf[4] = {0, 0, 0, 0}, v = 1, r = -1;
  int bad = tp_size + 2;
  MPI_Win w = MPI_WIN_NULL, null = MPI_WIN_NULL;
  void* base = NULL;
  MPI_Request rq;
  tp_out("-- windows");
  E("Win_create size -1", MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  E("Win_allocate size -1", MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
  E("Win_allocate_shared size -1",
    MPI_Win_allocate_shared(-1, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &w));
  E("Win_create_dynamic MPI_COMM_NULL", MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_NULL, &w));
  E("Win_free MPI_WIN_NULL", MPI_Win_free(&null));
  E("Win_set_name MPI_WIN_NULL", MPI_Win_set_name(MPI_WIN_NULL, "x"));
  E("Win_fence MPI_WIN_NULL", MPI_Win_fence(0, MPI_WIN_NULL));

  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  E("Win_lock bad lock type", MPI_Win_lock(12345, 0, 0, w));
  E("Win_lock rank out of range", MPI_Win_lock(MPI_LOCK_SHARED, bad, 0, w));
  E("Win_unlock rank out of range", MPI_Win_unlock(bad, w));
  /* Win_flush/Win_flush_local of a rank out of range outside an epoch: Open MPI 4.1
   * does not check the rank and reads past its peer table (the outcome depends on the
   * heap layout), so those calls are made on MPI_WIN_NULL instead. */
  E("Win_flush MPI_WIN_NULL", MPI_Win_flush(0, MPI_WIN_NULL));
  E("Win_flush_local MPI_WIN_NULL", MPI_Win_flush_local(0, MPI_WIN_NULL));
  E("Win_post MPI_GROUP_NULL", MPI_Win_post(MPI_GROUP_NULL, 0, w));
  E("Win_start MPI_GROUP_NULL", MPI_Win_start(MPI_GROUP_NULL, 0, w));
  E("Win_lock_all MPI_WIN_NULL", MPI_Win_lock_all(0, MPI_WIN_NULL));
  E("Win_unlock_all MPI_WIN_NULL", MPI_Win_unlock_all(MPI_WIN_NULL));
  E("Win_flush_all MPI_WIN_NULL", MPI_Win_flush_all(MPI_WIN_NULL));
  E("Win_flush_local_all MPI_WIN_NULL", MPI_Win_flush_local_all(MPI_WIN_NULL));
  E("Win_sync MPI_WIN_NULL", MPI_Win_sync(MPI_WIN_NULL));
  E("Win_complete MPI_WIN_NULL", MPI_Win_complete(MPI_WIN_NULL));
  E("Win_wait MPI_WIN_NULL", MPI_Win_wait(MPI_WIN_NULL));
  int flag = 0;
  E("Win_test MPI_WIN_NULL", MPI_Win_test(MPI_WIN_NULL, &flag));
  E("Win_attach MPI_WIN_NULL", MPI_Win_attach(MPI_WIN_NULL, buf, sizeof buf));
  E("Win_detach MPI_WIN_NULL", MPI_Win_detach(MPI_WIN_NULL, buf));
  MPI_Win_fence(0, w);
  E("Put rank out of range", MPI_Put(&v, 1, MPI_INT, bad, 0, 1, MPI_INT, w));
  E("Get count -1", MPI_Get(&v, -1, MPI_INT, 0, 0, 1, MPI_INT, w));
  E("Accumulate MPI_OP_NULL", MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, w));
  E("Get_accumulate rank out of range",
    MPI_Get_accumulate(&v, 1, MPI_INT, &r, 1, MPI_INT, bad, 0, 1, MPI_INT, MPI_SUM, w));
  E("Fetch_and_op rank out of range", MPI_Fetch_and_op(&v, &r, MPI_INT, bad, 0, MPI_SUM, w));
  E("Compare_and_swap MPI_DATATYPE_NULL",
    MPI_Compare_and_swap(&v, &v, &r, MPI_DATATYPE_NULL, 0, 0, w));
  MPI_Win_fence(0, w);
  MPI_Win_lock_all(0, w);
  E("Rput rank out of range", MPI_Rput(&v, 1, MPI_INT, bad, 0, 1, MPI_INT, w, &rq));
  E("Rget count -1", MPI_Rget(&v, -1, MPI_INT, 0, 0, 1, MPI_INT, w, &rq));
  E("Raccumulate MPI_OP_NULL", MPI_Raccumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, w, &rq));
  E("Rget_accumulate rank out of range",
    MPI_Rget_accumulate(&v, 1, MPI_INT, &r, 1, MPI_INT, bad, 0, 1, MPI_INT, MPI_SUM, w, &rq));
  MPI_Win_unlock_all(w);
  MPI_Win_free(&w);
}

static void files(void) {
  MPI_File f = MPI_FILE_NULL, null = MPI_FILE_NULL;
  int v[2] = {0, 0};
  MPI_Status st;
  MPI_Request rq;
  char path[256];
  if (tp_rank == 0) snprintf(path, sizeof path, "/tmp/mpidbg-tp-errors-%ld.dat", (long)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  tp_out("-- files");
  E("File_open missing file", MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f));
  E("File_open RDONLY|WRONLY",
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &f));
  E("File_delete missing file", MPI_File_delete(path, MPI_INFO_NULL));
  E("File_close MPI_FILE_NULL", MPI_File_close(&null));
  E("File_set_view MPI_FILE_NULL", MPI_File_set_view(MPI_FILE_NULL, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  E("File_set_info MPI_FILE_NULL", MPI_File_set_info(MPI_FILE_NULL, MPI_INFO_NULL));
  E("File_sync MPI_FILE_NULL", MPI_File_sync(MPI_FILE_NULL));
  E("File_set_errhandler MPI_FILE_NULL, null handler", MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRHANDLER_NULL));
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &f);
  E("File_read of a write-only file", MPI_File_read(f, v, 2, MPI_INT, &st));
  E("File_read_at offset -1", MPI_File_read_at(f, -1, v, 2, MPI_INT, &st));
  E("File_write count -1", MPI_File_write(f, v, -1, MPI_INT, &st));
  E("File_write_at MPI_DATATYPE_NULL", MPI_File_write_at(f, 0, v, 1, MPI_DATATYPE_NULL, &st));
  E("File_read_all of a write-only file", MPI_File_read_all(f, v, 1, MPI_INT, &st));
  E("File_write_all count -1", MPI_File_write_all(f, v, -1, MPI_INT, &st));
  E("File_read_at_all of a write-only file", MPI_File_read_at_all(f, 0, v, 1, MPI_INT, &st));
  E("File_write_at_all offset -1", MPI_File_write_at_all(f, -1, v, 1, MPI_INT, &st));
  E("File_iread of a write-only file", MPI_File_iread(f, v, 1, MPI_INT, &rq));
  E("File_iwrite count -1", MPI_File_iwrite(f, v, -1, MPI_INT, &rq));
  E("File_iread_at of a write-only file", MPI_File_iread_at(f, 0, v, 1, MPI_INT, &rq));
  E("File_iwrite_at offset -1", MPI_File_iwrite_at(f, -1, v, 1, MPI_INT, &rq));
  E("File_set_view bad datarep", MPI_File_set_view(f, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL));
  MPI_File_close(&f);
}

static void others(void) {
  tp_out("-- generalized requests, sessions");
  E("Grequest_complete MPI_REQUEST_NULL", MPI_Grequest_complete(MPI_REQUEST_NULL));
  MPI_Request g;
  E("Grequest_start (valid, for contrast)", MPI_Grequest_start(noop_query, noop_free, noop_cancel, NULL, &g));
  MPI_Grequest_complete(g);
  MPI_Wait(&g, MPI_STATUS_IGNORE);
#if MPI_VERSION >= 4
  MPI_Session null = MPI_SESSION_NULL;
  MPI_Group grp = MPI_GROUP_NULL;
  MPI_Comm c;
  E("Session_finalize MPI_SESSION_NULL", MPI_Session_finalize(&null));
  E("Group_from_session_pset MPI_SESSION_NULL",
    MPI_Group_from_session_pset(MPI_SESSION_NULL, "mpi://WORLD", &grp));
  E("Comm_create_from_group MPI_GROUP_NULL",
    MPI_Comm_create_from_group(MPI_GROUP_NULL, "tp", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
#endif
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  trace = getenv("TP_TRACE") != NULL;
  /* Errors on no object (or on a null one) go to the world's or self's handler. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  p2p();
  completion();
  collectives();
  communicators();
  groups();
  datatypes();
  ops_errhandlers_info();
  windows();
  files();
  others();
  return tp_finish();
}
