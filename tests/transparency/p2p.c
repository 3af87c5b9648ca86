/*
 * p2p.c — point-to-point in every mode: blocking, nonblocking, persistent, probe,
 * matched probe, cancel, MPI_PROC_NULL, wildcards, MPI-4 Isendrecv. Run with 2+ ranks;
 * ranks 0 and 1 are the pair, every rank takes part in the ring exchanges.
 */
#include "tp.h"

enum { N = 6 };

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

/* Send, Ssend, Bsend, Rsend from 0 to 1, received with Recv. */
static void blocking_modes(void) {
  int buf[N];
  MPI_Status st;
  int bsize = 4 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attach = malloc((size_t)bsize);
  MPI_Buffer_attach(attach, bsize);
  MPI_Request pre = MPI_REQUEST_NULL;
  int ready[N];
  if (tp_rank == 1) MPI_Irecv(ready, N, MPI_INT, 0, 13, MPI_COMM_WORLD, &pre);
  MPI_Barrier(MPI_COMM_WORLD); /* the ready-mode receive is posted */
  if (tp_rank == 0) {
    fill(buf, N, 100);
    MPI_Send(buf, N, MPI_INT, 1, 10, MPI_COMM_WORLD);
    fill(buf, N, 200);
    MPI_Ssend(buf, N, MPI_INT, 1, 11, MPI_COMM_WORLD);
    fill(buf, N, 300);
    MPI_Bsend(buf, N, MPI_INT, 1, 12, MPI_COMM_WORLD);
    fill(buf, N, 400);
    MPI_Rsend(buf, N, MPI_INT, 1, 13, MPI_COMM_WORLD);
  } else if (tp_rank == 1) {
    for (int tag = 10; tag <= 12; ++tag) {
      memset(buf, 0, sizeof buf);
      MPI_Recv(buf, N, MPI_INT, 0, tag, MPI_COMM_WORLD, &st);
      tp_out("blocking tag %d: %s data %s", tag, tp_status(&st, MPI_INT), tp_ints(buf, N));
    }
    MPI_Wait(&pre, &st);
    tp_out("rsend: %s data %s null-after-wait=%d", tp_status(&st, MPI_INT), tp_ints(ready, N),
           pre == MPI_REQUEST_NULL);
  }
  int size = 0;
  void* detached = NULL;
  MPI_Buffer_detach(&detached, &size);
  tp_out("buffer detach size=%d same=%d", size, detached == attach);
  free(attach);
}

/* Isend, Issend, Ibsend, Irsend, Irecv; ANY_SOURCE/ANY_TAG receive. */
static void nonblocking_modes(void) {
  int bsize = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attach = malloc((size_t)bsize);
  MPI_Buffer_attach(attach, bsize);
  int in[5][N];
  int out[4][N];
  MPI_Request rq[5];
  MPI_Status st[5];
  memset(in, 0, sizeof in);
  if (tp_rank == 1) {
    for (int i = 0; i < 4; ++i) MPI_Irecv(in[i], N, MPI_INT, 0, 20 + i, MPI_COMM_WORLD, &rq[i]);
    MPI_Irecv(in[4], N, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[4]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (tp_rank == 0) {
    for (int i = 0; i < 4; ++i) fill(out[i], N, 10 * (i + 1));
    MPI_Isend(out[0], N, MPI_INT, 1, 20, MPI_COMM_WORLD, &rq[0]);
    MPI_Issend(out[1], N, MPI_INT, 1, 21, MPI_COMM_WORLD, &rq[1]);
    MPI_Ibsend(out[2], N, MPI_INT, 1, 22, MPI_COMM_WORLD, &rq[2]);
    MPI_Irsend(out[3], N, MPI_INT, 1, 23, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, st);
    int one = 77;
    MPI_Send(&one, 1, MPI_INT, 1, 29, MPI_COMM_WORLD);
    tp_out("nonblocking sends complete, all null=%d",
           rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL &&
               rq[2] == MPI_REQUEST_NULL && rq[3] == MPI_REQUEST_NULL);
  } else if (tp_rank == 1) {
    MPI_Waitall(5, rq, st);
    for (int i = 0; i < 4; ++i) tp_out("irecv %d: %s data %s", i, tp_status(&st[i], MPI_INT),
                                       tp_ints(in[i], N));
    tp_out("wildcard: %s first %d", tp_status(&st[4], MPI_INT), in[4][0]);
  }
  int size = 0;
  void* detached = NULL;
  MPI_Buffer_detach(&detached, &size);
  free(attach);
}

/* Sendrecv and Sendrecv_replace around a ring of all ranks. */
static void ring(void) {
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int send[N], recv[N];
  MPI_Status st;
  fill(send, N, 1000 * tp_rank);
  memset(recv, 0, sizeof recv);
  MPI_Sendrecv(send, N, MPI_INT, right, 30, recv, N, MPI_INT, left, 30, MPI_COMM_WORLD, &st);
  tp_out("sendrecv: %s data %s", tp_status(&st, MPI_INT), tp_ints(recv, N));
  fill(send, N, 5000 + 10 * tp_rank);
  MPI_Sendrecv_replace(send, N, MPI_INT, left, 31, right, 31, MPI_COMM_WORLD, &st);
  tp_out("sendrecv_replace: %s data %s", tp_status(&st, MPI_INT), tp_ints(send, N));
  /* Different send and receive counts and types. */
  double d[3] = {0.5 * tp_rank, 1.5, 2.5};
  double dr[4] = {0, 0, 0, 0};
  MPI_Sendrecv(d, 3, MPI_DOUBLE, right, 32, dr, 4, MPI_DOUBLE, left, 32, MPI_COMM_WORLD, &st);
  tp_out("sendrecv doubles: %s data %s", tp_status(&st, MPI_DOUBLE), tp_doubles(dr, 4));
}

/* Probe, Iprobe, Mprobe/Mrecv, Improbe/Imrecv. */
static void probes(void) {
  MPI_Status st;
  if (tp_rank == 0) {
    int a[N];
    fill(a, N, 40);
    MPI_Send(a, 4, MPI_INT, 1, 40, MPI_COMM_WORLD);
    MPI_Send(a, 5, MPI_INT, 1, 41, MPI_COMM_WORLD);
    MPI_Send(a, 3, MPI_INT, 1, 42, MPI_COMM_WORLD);
    MPI_Send(a, 2, MPI_INT, 1, 43, MPI_COMM_WORLD);
  } else if (tp_rank == 1) {
    int got[N];
    MPI_Probe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &st);
    tp_out("probe: %s", tp_status(&st, MPI_INT));
    MPI_Recv(got, N, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int flag = 0;
    while (!flag) MPI_Iprobe(0, 41, MPI_COMM_WORLD, &flag, &st);
    tp_out("iprobe: flag=%d %s", flag, tp_status(&st, MPI_INT));
    MPI_Recv(got, N, MPI_INT, 0, 41, MPI_COMM_WORLD, &st);
    tp_out("after iprobe recv: %s data %s", tp_status(&st, MPI_INT), tp_ints(got, 5));

    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Mprobe(0, 42, MPI_COMM_WORLD, &msg, &st);
    tp_out("mprobe: %s", tp_status(&st, MPI_INT));
    memset(got, 0, sizeof got);
    MPI_Mrecv(got, N, MPI_INT, &msg, &st);
    tp_out("mrecv: %s data %s message-null=%d", tp_status(&st, MPI_INT), tp_ints(got, 3),
           msg == MPI_MESSAGE_NULL);

    flag = 0;
    while (!flag) MPI_Improbe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    tp_out("improbe: flag=%d %s", flag, tp_status(&st, MPI_INT));
    MPI_Request rq;
    memset(got, 0, sizeof got);
    MPI_Imrecv(got, N, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    tp_out("imrecv: %s data %s", tp_status(&st, MPI_INT), tp_ints(got, 2));
  }
  /* Probing MPI_PROC_NULL returns at once with the "null" status. */
  MPI_Message nomsg;
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &nomsg, &st);
  tp_out("mprobe proc_null: source-is-null=%d tag-any=%d no-proc=%d",
         st.MPI_SOURCE == MPI_PROC_NULL, st.MPI_TAG == MPI_ANY_TAG, nomsg == MPI_MESSAGE_NO_PROC);
  int nothing = -1;
  MPI_Mrecv(&nothing, 1, MPI_INT, &nomsg, &st);
  tp_out("mrecv no_proc: value=%d source-is-null=%d", nothing, st.MPI_SOURCE == MPI_PROC_NULL);
  int flag = 0;
  MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st);
  tp_out("iprobe proc_null: flag=%d source-is-null=%d", flag, st.MPI_SOURCE == MPI_PROC_NULL);
}

/* Send_init, Ssend_init, Bsend_init, Rsend_init, Recv_init with Start and Startall,
 * twice each, then Request_free. */
static void persistent(void) {
  int bsize = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attach = malloc((size_t)bsize);
  MPI_Buffer_attach(attach, bsize);
  int data[4][N];
  MPI_Request rq[4];
  MPI_Status st[4];
  if (tp_rank == 0) {
    MPI_Send_init(data[0], N, MPI_INT, 1, 50, MPI_COMM_WORLD, &rq[0]);
    MPI_Ssend_init(data[1], N, MPI_INT, 1, 51, MPI_COMM_WORLD, &rq[1]);
    MPI_Bsend_init(data[2], N, MPI_INT, 1, 52, MPI_COMM_WORLD, &rq[2]);
    MPI_Rsend_init(data[3], N, MPI_INT, 1, 53, MPI_COMM_WORLD, &rq[3]);
  } else if (tp_rank == 1) {
    for (int i = 0; i < 4; ++i) MPI_Recv_init(data[i], N, MPI_INT, 0, 50 + i, MPI_COMM_WORLD, &rq[i]);
  }
  for (int round = 0; round < 2; ++round) {
    if (tp_rank == 1) {
      if (round == 0) {
        for (int i = 0; i < 4; ++i) MPI_Start(&rq[i]);
      } else {
        MPI_Startall(4, rq);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD); /* receives are active before the ready send starts */
    if (tp_rank == 0) {
      for (int i = 0; i < 4; ++i) fill(data[i], N, 1000 * (round + 1) + 100 * i);
      if (round == 0) {
        MPI_Startall(4, rq);
      } else {
        for (int i = 0; i < 4; ++i) MPI_Start(&rq[i]);
      }
    }
    if (tp_rank <= 1) {
      MPI_Waitall(4, rq, st);
      int still = 0;
      for (int i = 0; i < 4; ++i) still += rq[i] != MPI_REQUEST_NULL;
      tp_out("persistent round %d: requests kept=%d", round, still);
      if (tp_rank == 1) {
        for (int i = 0; i < 4; ++i) tp_out("  recv %d: %s data %s", i, tp_status(&st[i], MPI_INT),
                                           tp_ints(data[i], N));
      }
    }
  }
  if (tp_rank <= 1) {
    /* An inactive persistent request tests complete with an empty status. */
    int flag = 0;
    MPI_Test(&rq[0], &flag, &st[0]);
    tp_out("test inactive: flag=%d kept=%d", flag, rq[0] != MPI_REQUEST_NULL);
    for (int i = 0; i < 4; ++i) MPI_Request_free(&rq[i]);
    tp_out("persistent freed: null=%d", rq[0] == MPI_REQUEST_NULL && rq[3] == MPI_REQUEST_NULL);
  }
  int size = 0;
  void* detached = NULL;
  MPI_Buffer_detach(&detached, &size);
  free(attach);
}

/* A receive nobody matches, cancelled. */
static void cancel(void) {
  int x = -1;
  MPI_Request rq;
  MPI_Status st;
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &rq);
  MPI_Cancel(&rq);
  MPI_Wait(&rq, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  tp_out("cancel irecv: cancelled=%d value=%d null=%d", cancelled, x, rq == MPI_REQUEST_NULL);
  /* Cancelling a persistent receive that was started. */
  MPI_Recv_init(&x, 1, MPI_INT, MPI_ANY_SOURCE, 998, MPI_COMM_WORLD, &rq);
  MPI_Start(&rq);
  MPI_Cancel(&rq);
  MPI_Wait(&rq, &st);
  MPI_Test_cancelled(&st, &cancelled);
  tp_out("cancel persistent: cancelled=%d kept=%d", cancelled, rq != MPI_REQUEST_NULL);
  MPI_Request_free(&rq);
}

/* Communication with MPI_PROC_NULL completes at once. */
static void proc_null(void) {
  int v = 5;
  MPI_Status st;
  MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  v = 6;
  MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  tp_out("proc_null recv: value=%d source-is-null=%d tag-any=%d count=%d", v,
         st.MPI_SOURCE == MPI_PROC_NULL, st.MPI_TAG == MPI_ANY_TAG, count);
  MPI_Request rq[2];
  MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq[1]);
  MPI_Status sts[2];
  MPI_Waitall(2, rq, sts);
  tp_out("proc_null nonblocking: value=%d source-is-null=%d", v, sts[1].MPI_SOURCE == MPI_PROC_NULL);
  MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, &v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
  tp_out("proc_null sendrecv: value=%d", v);
}

/* Zero-count messages and a message to self. */
static void edge_cases(void) {
  MPI_Status st;
  MPI_Request rq;
  int v = 3, w = 0;
  MPI_Irecv(&w, 1, MPI_INT, tp_rank, 60, MPI_COMM_WORLD, &rq);
  MPI_Send(&v, 1, MPI_INT, tp_rank, 60, MPI_COMM_WORLD);
  MPI_Wait(&rq, &st);
  tp_out("self: %s value=%d", tp_status(&st, MPI_INT), w);
  MPI_Irecv(NULL, 0, MPI_INT, tp_rank, 61, MPI_COMM_WORLD, &rq);
  MPI_Send(NULL, 0, MPI_INT, tp_rank, 61, MPI_COMM_WORLD);
  MPI_Wait(&rq, &st);
  tp_out("zero count: %s", tp_status(&st, MPI_INT));
}

#if MPI_VERSION >= 4
static void isendrecv(void) {
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int send[N], recv[N];
  MPI_Request rq;
  MPI_Status st;
  fill(send, N, 70 * (tp_rank + 1));
  memset(recv, 0, sizeof recv);
  MPI_Isendrecv(send, N, MPI_INT, right, 70, recv, N, MPI_INT, left, 70, MPI_COMM_WORLD, &rq);
  MPI_Wait(&rq, &st);
  tp_out("isendrecv: %s data %s", tp_status(&st, MPI_INT), tp_ints(recv, N));
  MPI_Isendrecv_replace(send, N, MPI_INT, left, 71, right, 71, MPI_COMM_WORLD, &rq);
  int flag = 0;
  while (!flag) MPI_Test(&rq, &flag, &st);
  tp_out("isendrecv_replace: %s data %s", tp_status(&st, MPI_INT), tp_ints(send, N));
}
#endif

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  blocking_modes();
  nonblocking_modes();
  ring();
  probes();
  persistent();
  cancel();
  proc_null();
  edge_cases();
#if MPI_VERSION >= 4
  isendrecv();
#else
  tp_out("isendrecv: not in MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
#endif
  return tp_finish();
}
