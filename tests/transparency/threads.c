/*
 * threads.c — MPI_THREAD_MULTIPLE: several threads per rank, each on a communicator of
 * its own, run point-to-point, nonblocking, collective and object-creating calls at
 * the same time. Each thread records its results; they are printed after the join, in
 * thread order, so the output does not depend on scheduling. Any rank count (2 used).
 */
#include <pthread.h>

#include "tp.h"

enum { THREADS = 4, ROUNDS = 20 };

struct work {
  int id;
  MPI_Comm comm;
  long ring_sum, nb_sum, reduce_sum, type_bytes, dup_sizes;
  int errors;
};

static void* run(void* arg) {
  struct work* w = arg;
  int rank, size;
  MPI_Comm_rank(w->comm, &rank);
  MPI_Comm_size(w->comm, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 0; round < ROUNDS; ++round) {
    int out = 1000 * w->id + 10 * rank + round, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, right, round, &in, 1, MPI_INT, left, round, w->comm,
                 MPI_STATUS_IGNORE);
    w->ring_sum += in;

    int a[3] = {out, out + 1, out + 2}, b[3] = {0, 0, 0};
    MPI_Request rq[2];
    MPI_Irecv(b, 3, MPI_INT, left, 100 + round, w->comm, &rq[0]);
    MPI_Isend(a, 3, MPI_INT, right, 100 + round, w->comm, &rq[1]);
    if (round % 2) {
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else {
      int flag = 0;
      while (!flag) MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
    }
    w->nb_sum += b[0] + b[1] + b[2];

    int x = round + w->id, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, w->comm);
    w->reduce_sum += sum;

    MPI_Datatype t;
    MPI_Type_vector(2, 1 + w->id, 3 + w->id, MPI_INT, &t);
    MPI_Type_commit(&t);
    int bytes = 0;
    MPI_Type_size(t, &bytes);
    w->type_bytes += bytes;
    MPI_Type_free(&t);

    if (round % 5 == 0) {
      MPI_Comm d;
      MPI_Comm_dup(w->comm, &d);
      int dsize = 0;
      MPI_Comm_size(d, &dsize);
      w->dup_sizes += dsize;
      MPI_Comm_free(&d);
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = tp_init(&argc, &argv, MPI_THREAD_MULTIPLE);
  if (provided != MPI_THREAD_MULTIPLE) {
    tp_out("MPI_THREAD_MULTIPLE not provided: nothing run");
    return tp_finish();
  }
  struct work w[THREADS];
  pthread_t t[THREADS];
  memset(w, 0, sizeof w);
  for (int i = 0; i < THREADS; ++i) {
    w[i].id = i;
    MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm);
  }
  for (int i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, run, &w[i]);
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; ++i) {
    tp_out("thread %d: ring %ld nonblocking %ld allreduce %ld type bytes %ld dup sizes %ld", i,
           w[i].ring_sum, w[i].nb_sum, w[i].reduce_sum, w[i].type_bytes, w[i].dup_sizes);
    MPI_Comm_free(&w[i].comm);
  }
  int query = -1;
  MPI_Query_thread(&query);
  tp_out("query_thread is multiple: %d", query == MPI_THREAD_MULTIPLE);
  return tp_finish();
}
