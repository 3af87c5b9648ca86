/*
 * grequest.c — generalized requests: started, completed by MPI_Grequest_complete (from
 * this thread and from another thread), waited on alone and among other requests,
 * tested before and after completion, cancelled; the status comes from the query
 * callback, and the free and cancel callbacks run as MPI decides. Any rank count.
 */
#include <pthread.h>

#include "tp.h"

struct state {
  int id;
  int queries, frees, cancels;
  int cancelled_complete; /* `complete` argument the cancel callback saw */
};

static int query_fn(void* extra, MPI_Status* status) {
  struct state* s = extra;
  ++s->queries;
  status->MPI_SOURCE = 40 + s->id;
  status->MPI_TAG = 50 + s->id;
  MPI_Status_set_elements(status, MPI_INT, 3 + s->id);
  MPI_Status_set_cancelled(status, s->cancels > 0);
  return MPI_SUCCESS;
}

static int free_fn(void* extra) {
  ((struct state*)extra)->frees++;
  return MPI_SUCCESS;
}

static int cancel_fn(void* extra, int complete) {
  struct state* s = extra;
  ++s->cancels;
  s->cancelled_complete = complete;
  return MPI_SUCCESS;
}

static void report(const char* what, const struct state* s, const MPI_Status* st) {
  int cancelled = -1;
  MPI_Test_cancelled(st, &cancelled);
  tp_out("%s: %s cancelled=%d; callbacks query %d free %d cancel %d", what, tp_status(st, MPI_INT),
         cancelled, s->queries, s->frees, s->cancels);
}

static void* completer(void* arg) {
  MPI_Grequest_complete(*(MPI_Request*)arg);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = tp_init(&argc, &argv, MPI_THREAD_MULTIPLE);

  /* Complete, then wait. */
  struct state a = {1, 0, 0, 0, -1};
  MPI_Request rq;
  MPI_Status st;
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &rq);
  MPI_Grequest_complete(rq);
  MPI_Wait(&rq, &st);
  report("complete then wait", &a, &st);
  tp_out("  request null after wait: %d", rq == MPI_REQUEST_NULL);

  /* Test before and after completion. */
  struct state b = {2, 0, 0, 0, -1};
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &rq);
  int flag = -1;
  MPI_Test(&rq, &flag, &st);
  tp_out("test before complete: flag=%d queries %d", flag, b.queries);
  MPI_Grequest_complete(rq);
  MPI_Test(&rq, &flag, &st);
  report("test after complete", &b, &st);
  tp_out("  flag=%d", flag);

  /* Cancel, then complete. */
  struct state c = {3, 0, 0, 0, -1};
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &rq);
  MPI_Cancel(&rq);
  MPI_Grequest_complete(rq);
  MPI_Wait(&rq, &st);
  report("cancel then complete", &c, &st);
  tp_out("  cancel callback saw complete=%d", c.cancelled_complete);

  /* Completed by another thread while this one waits, among ordinary requests. */
  struct state d = {4, 0, 0, 0, -1};
  MPI_Request mix[3];
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int sendv = tp_rank, recvv = -1;
  MPI_Irecv(&recvv, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &mix[0]);
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &d, &mix[1]);
  MPI_Isend(&sendv, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &mix[2]);
  pthread_t t;
  if (provided == MPI_THREAD_MULTIPLE) {
    pthread_create(&t, NULL, completer, &mix[1]);
  } else {
    MPI_Grequest_complete(mix[1]);
  }
  MPI_Status sts[3];
  MPI_Waitall(3, mix, sts);
  if (provided == MPI_THREAD_MULTIPLE) pthread_join(t, NULL);
  report("completed by another thread, in waitall", &d, &sts[1]);
  tp_out("  ordinary receive in the same waitall: %d from %d", recvv, sts[0].MPI_SOURCE);

  /* Freed before completion: the free callback runs once it completes. */
  struct state e = {5, 0, 0, 0, -1};
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &e, &rq);
  MPI_Request keep = rq;
  MPI_Request_free(&rq);
  tp_out("request_free before complete: null=%d frees %d", rq == MPI_REQUEST_NULL, e.frees);
  MPI_Grequest_complete(keep);
  tp_out("after complete: frees %d", e.frees);
  return tp_finish();
}
