/*
 * ops.c — user-defined reduction operations (commutative and not, on a predefined and
 * on a derived datatype) in every reduction: Reduce, Allreduce, Scan, Exscan,
 * Reduce_scatter, Reduce_scatter_block, Ireduce, Iallreduce, Reduce_local; Op_free.
 * A non-commutative op shows that MPI's rank order is kept. Any rank count (3 used).
 */
#include "tp.h"

static int user_calls = 0;

/* Sum; counts its invocations (how often is MPI's business, but it must be the same
 * with or without the runtime). */
static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  ++user_calls;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

/* Not commutative: "append the digits of in before inout" in base 10, on a two-int
 * (value, digits) pair, so the result spells the ranks in order. */
static void concat(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  int* a = (int*)in;
  int* b = (int*)inout;
  for (int i = 0; i < *len; ++i) {
    int scale = 1;
    for (int d = 0; d < b[2 * i + 1]; ++d) scale *= 10;
    b[2 * i] = a[2 * i] * scale + b[2 * i];
    b[2 * i + 1] += a[2 * i + 1];
  }
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  int p = tp_size, r = tp_rank;
  MPI_Op sum, cat;
  MPI_Op_create(user_sum, 1, &sum);
  MPI_Op_create(concat, 0, &cat);
  int commute = -1;
  MPI_Op_commutative(sum, &commute);
  tp_out("user sum commutative=%d", commute);
  MPI_Op_commutative(cat, &commute);
  tp_out("concat commutative=%d", commute);
  MPI_Op_commutative(MPI_SUM, &commute);
  tp_out("MPI_SUM commutative=%d", commute);

  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  int digit[2] = {r + 1, 1}, out[2] = {-1, -1};

  int v[4] = {r, 10 * r, 100 * r, 1}, res[4] = {-1, -1, -1, -1};
  MPI_Reduce(v, res, 4, MPI_INT, sum, 0, MPI_COMM_WORLD);
  if (r == 0) tp_out("reduce user sum: %s", tp_ints(res, 4));
  MPI_Reduce(digit, out, 1, pair, cat, p - 1, MPI_COMM_WORLD);
  if (r == p - 1) tp_out("reduce concat (rank order): %d (%d digits)", out[0], out[1]);
  MPI_Allreduce(v, res, 4, MPI_INT, sum, MPI_COMM_WORLD);
  tp_out("allreduce user sum: %s", tp_ints(res, 4));
  MPI_Allreduce(digit, out, 1, pair, cat, MPI_COMM_WORLD);
  tp_out("allreduce concat: %d", out[0]);
  int ip[2] = {r + 1, 1};
  MPI_Allreduce(MPI_IN_PLACE, ip, 1, pair, cat, MPI_COMM_WORLD);
  tp_out("allreduce concat in_place: %d", ip[0]);
  MPI_Scan(digit, out, 1, pair, cat, MPI_COMM_WORLD);
  tp_out("scan concat: %d", out[0]);
  out[0] = -1;
  MPI_Exscan(digit, out, 1, pair, cat, MPI_COMM_WORLD);
  tp_out("exscan concat: %d", r == 0 ? -1 : out[0]);

  int* block = malloc(sizeof(int) * 2 * (size_t)p);
  int* counts = malloc(sizeof(int) * (size_t)p);
  for (int i = 0; i < p; ++i) block[2 * i] = r + 1, block[2 * i + 1] = 1, counts[i] = 1;
  MPI_Reduce_scatter_block(block, out, 1, pair, cat, MPI_COMM_WORLD);
  tp_out("reduce_scatter_block concat: %d", out[0]);
  for (int i = 0; i < p; ++i) block[2 * i] = r + 1, block[2 * i + 1] = 1;
  MPI_Reduce_scatter(block, out, counts, pair, cat, MPI_COMM_WORLD);
  tp_out("reduce_scatter concat: %d", out[0]);

  MPI_Request rq[2];
  int nb[4] = {-1, -1, -1, -1}, nb2[2] = {-1, -1};
  MPI_Ireduce(v, nb, 4, MPI_INT, sum, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Iallreduce(digit, nb2, 1, pair, cat, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  if (r == 0) tp_out("ireduce user sum: %s", tp_ints(nb, 4));
  tp_out("iallreduce concat: %d", nb2[0]);

  int local_in[2] = {7, 1}, local_io[2] = {3, 1};
  MPI_Reduce_local(local_in, local_io, 1, pair, cat);
  tp_out("reduce_local concat 7 before 3: %d", local_io[0]);

  int calls_seen = user_calls > 0;
  tp_out("user function was called: %d", calls_seen);

  MPI_Op_free(&sum);
  MPI_Op_free(&cat);
  tp_out("ops freed: null=%d", sum == MPI_OP_NULL && cat == MPI_OP_NULL);
  /* An op freed while a nonblocking reduction using it is pending. */
  MPI_Op late;
  MPI_Op_create(user_sum, 1, &late);
  int x = r + 1, y = -1;
  MPI_Request lr;
  MPI_Iallreduce(&x, &y, 1, MPI_INT, late, MPI_COMM_WORLD, &lr);
  MPI_Op_free(&late);
  MPI_Wait(&lr, MPI_STATUS_IGNORE);
  tp_out("iallreduce with op freed while pending: %d", y);
  MPI_Type_free(&pair);
  free(block);
  free(counts);
  return tp_finish();
}
