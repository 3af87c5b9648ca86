/*
 * completion.c — the Wait/Test family on arrays mixing active, completed, persistent and
 * MPI_REQUEST_NULL entries, with MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, plus
 * MPI_Request_free of an active request. Printed results never depend on timing: loops
 * collect the set of completed indices, and "not complete yet" is only printed where
 * the matching send cannot have happened (it follows a barrier).
 *
 * Every rank exchanges with every other rank; run with 3+ ranks.
 */
#include "tp.h"

enum { MAXR = 16 };

/* Posts a receive from every other rank at indices 1..size-1 (index 0 stays null) and
 * sends this rank's number to every other rank with `tag`. */
static int post_exchange(MPI_Request* rq, int* in, int tag) {
  int n = 0;
  rq[n++] = MPI_REQUEST_NULL;
  for (int r = 0; r < tp_size; ++r) {
    if (r == tp_rank) continue;
    in[n] = -1;
    MPI_Irecv(&in[n], 1, MPI_INT, r, tag, MPI_COMM_WORLD, &rq[n]);
    ++n;
  }
  int value = 100 * tag + tp_rank;
  for (int r = 0; r < tp_size; ++r) {
    if (r != tp_rank) MPI_Send(&value, 1, MPI_INT, r, tag, MPI_COMM_WORLD);
  }
  return n;
}

static const char* mask_text(const int* seen, int n) {
  static char text[256];
  size_t used = 0;
  text[0] = '\0';
  for (int i = 0; i < n; ++i) {
    used += (size_t)snprintf(text + used, sizeof text - used, "%d", seen[i]);
  }
  return text;
}

static void waitany(void) {
  MPI_Request rq[MAXR];
  int in[MAXR];
  int seen[MAXR] = {0};
  int n = post_exchange(rq, in, 1);
  for (;;) {
    int index = -5;
    MPI_Waitany(n, rq, &index, MPI_STATUS_IGNORE);
    if (index == MPI_UNDEFINED) break;
    seen[index]++;
    if (rq[index] != MPI_REQUEST_NULL) tp_out("waitany: request %d not nulled", index);
  }
  tp_out("waitany status_ignore: completed mask %s data %s", mask_text(seen, n), tp_ints(in + 1, n - 1));
  /* With a status, on a fresh exchange. */
  memset(seen, 0, sizeof seen);
  n = post_exchange(rq, in, 2);
  MPI_Status st[MAXR];
  for (;;) {
    int index = -5;
    MPI_Status s;
    MPI_Waitany(n, rq, &index, &s);
    if (index == MPI_UNDEFINED) {
      int count = -1;
      MPI_Get_count(&s, MPI_INT, &count);
      tp_out("waitany all null: empty status source-any=%d tag-any=%d count=%d",
             s.MPI_SOURCE == MPI_ANY_SOURCE, s.MPI_TAG == MPI_ANY_TAG, count);
      break;
    }
    seen[index]++;
    st[index] = s;
  }
  tp_out("waitany status: completed mask %s", mask_text(seen, n));
  for (int i = 1; i < n; ++i) tp_out("  index %d: %s value %d", i, tp_status(&st[i], MPI_INT), in[i]);
}

static void waitsome(void) {
  MPI_Request rq[MAXR];
  int in[MAXR];
  int seen[MAXR] = {0};
  int idx[MAXR];
  int n = post_exchange(rq, in, 3);
  for (;;) {
    int out = -5;
    MPI_Waitsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
    if (out == MPI_UNDEFINED) break;
    for (int i = 0; i < out; ++i) seen[idx[i]]++;
  }
  tp_out("waitsome statuses_ignore: completed mask %s data %s", mask_text(seen, n),
         tp_ints(in + 1, n - 1));
  memset(seen, 0, sizeof seen);
  n = post_exchange(rq, in, 4);
  MPI_Status sts[MAXR], st[MAXR];
  for (;;) {
    int out = -5;
    MPI_Waitsome(n, rq, &out, idx, sts);
    if (out == MPI_UNDEFINED) break;
    for (int i = 0; i < out; ++i) {
      seen[idx[i]]++;
      st[idx[i]] = sts[i];
    }
  }
  tp_out("waitsome statuses: completed mask %s", mask_text(seen, n));
  for (int i = 1; i < n; ++i) tp_out("  index %d: %s value %d", i, tp_status(&st[i], MPI_INT), in[i]);
}

static void tests(void) {
  MPI_Request rq[MAXR];
  int in[MAXR];
  int seen[MAXR] = {0};
  int idx[MAXR];
  int n = post_exchange(rq, in, 5);
  int done = 0;
  while (done < n - 1) {
    int index = -5, flag = -5;
    MPI_Testany(n, rq, &index, &flag, MPI_STATUS_IGNORE);
    if (flag && index != MPI_UNDEFINED) {
      seen[index]++;
      ++done;
    }
  }
  int index = -5, flag = -5;
  MPI_Status s;
  MPI_Testany(n, rq, &index, &flag, &s);
  tp_out("testany: completed mask %s data %s; all null: flag=%d undefined=%d", mask_text(seen, n),
         tp_ints(in + 1, n - 1), flag, index == MPI_UNDEFINED);

  memset(seen, 0, sizeof seen);
  n = post_exchange(rq, in, 6);
  done = 0;
  while (done < n - 1) {
    int out = -5;
    MPI_Testsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
    for (int i = 0; i < out && out != MPI_UNDEFINED; ++i) {
      seen[idx[i]]++;
      ++done;
    }
  }
  int out = -5;
  MPI_Testsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
  tp_out("testsome statuses_ignore: completed mask %s data %s; all null: undefined=%d",
         mask_text(seen, n), tp_ints(in + 1, n - 1), out == MPI_UNDEFINED);

  memset(seen, 0, sizeof seen);
  n = post_exchange(rq, in, 7);
  MPI_Status sts[MAXR], st[MAXR];
  done = 0;
  while (done < n - 1) {
    out = -5;
    MPI_Testsome(n, rq, &out, idx, sts);
    for (int i = 0; i < out && out != MPI_UNDEFINED; ++i) {
      seen[idx[i]]++;
      st[idx[i]] = sts[i];
      ++done;
    }
  }
  tp_out("testsome statuses: completed mask %s", mask_text(seen, n));
  for (int i = 1; i < n; ++i) tp_out("  index %d: %s value %d", i, tp_status(&st[i], MPI_INT), in[i]);

  n = post_exchange(rq, in, 8);
  flag = 0;
  while (!flag) MPI_Testall(n, rq, &flag, sts);
  int nulls = 0;
  for (int i = 0; i < n; ++i) nulls += rq[i] == MPI_REQUEST_NULL;
  tp_out("testall: flag=%d nulled=%d of %d data %s", flag, nulls, n, tp_ints(in + 1, n - 1));
  for (int i = 1; i < n; ++i) tp_out("  index %d: %s", i, tp_status(&sts[i], MPI_INT));

  n = post_exchange(rq, in, 9);
  flag = 0;
  while (!flag) MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE);
  tp_out("testall statuses_ignore: flag=%d data %s", flag, tp_ints(in + 1, n - 1));

  n = post_exchange(rq, in, 10);
  for (int i = 1; i < n; ++i) {
    flag = 0;
    while (!flag) MPI_Test(&rq[i], &flag, i % 2 ? MPI_STATUS_IGNORE : &st[i]);
  }
  tp_out("test loop: data %s", tp_ints(in + 1, n - 1));
}

/* Wait and Test on MPI_REQUEST_NULL return the empty status at once. */
static void null_requests(void) {
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Status st;
  st.MPI_SOURCE = 1234;
  MPI_Wait(&rq, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  tp_out("wait null: source-any=%d tag-any=%d count=%d", st.MPI_SOURCE == MPI_ANY_SOURCE,
         st.MPI_TAG == MPI_ANY_TAG, count);
  int flag = -1;
  MPI_Test(&rq, &flag, &st);
  tp_out("test null: flag=%d source-any=%d", flag, st.MPI_SOURCE == MPI_ANY_SOURCE);
  MPI_Request arr[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Waitall(3, arr, MPI_STATUSES_IGNORE);
  flag = -1;
  MPI_Testall(3, arr, &flag, MPI_STATUSES_IGNORE);
  int index = -5, out = -5;
  MPI_Waitany(3, arr, &index, MPI_STATUS_IGNORE);
  MPI_Waitsome(3, arr, &out, &index, MPI_STATUSES_IGNORE);
  tp_out("null arrays: testall flag=%d waitsome undefined=%d", flag, out == MPI_UNDEFINED);
  MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE);
  MPI_Testall(0, NULL, &flag, MPI_STATUSES_IGNORE);
  tp_out("empty arrays: testall flag=%d", flag);
}

/* Requests that cannot be complete yet: their sends follow a barrier. */
static void not_yet(void) {
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int a = -1, b = -1, never = -1;
  MPI_Request rq[3];
  MPI_Irecv(&a, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(&never, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &rq[1]); /* never sent */
  MPI_Irecv(&b, 1, MPI_INT, left, 22, MPI_COMM_WORLD, &rq[2]);
  int flag = -1, index = -5, out = -5, idx[3];
  MPI_Status st;
  MPI_Test(&rq[0], &flag, &st);
  tp_out("not yet: test flag=%d", flag);
  MPI_Testall(3, rq, &flag, MPI_STATUSES_IGNORE);
  tp_out("not yet: testall flag=%d", flag);
  MPI_Testany(3, rq, &index, &flag, &st);
  tp_out("not yet: testany flag=%d undefined=%d", flag, index == MPI_UNDEFINED);
  MPI_Testsome(3, rq, &out, idx, MPI_STATUSES_IGNORE);
  tp_out("not yet: testsome outcount=%d", out);
  int active = 0;
  for (int i = 0; i < 3; ++i) active += rq[i] != MPI_REQUEST_NULL;
  tp_out("not yet: requests still active=%d", active);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 10 + tp_rank;
  MPI_Send(&v, 1, MPI_INT, right, 22, MPI_COMM_WORLD);
  MPI_Waitany(3, rq, &index, &st);
  tp_out("waitany picks the only sendable: index=%d %s value=%d", index, tp_status(&st, MPI_INT), b);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank's Waitany is over before tag 20 is sent */
  v = 20 + tp_rank;
  MPI_Send(&v, 1, MPI_INT, right, 20, MPI_COMM_WORLD);
  int got = 0;
  while (got < 1) {
    MPI_Waitsome(3, rq, &out, idx, MPI_STATUSES_IGNORE);
    got += out;
    for (int i = 0; i < out; ++i) tp_out("waitsome got index %d", idx[i]);
  }
  tp_out("value a=%d", a);
  MPI_Cancel(&rq[1]);
  MPI_Wait(&rq[1], &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  tp_out("cancelled never-sent receive: %d value=%d", cancelled, never);
}

/* MPI_Request_free on an active send: the message still arrives. */
static void free_active(void) {
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int out[4] = {tp_rank, tp_rank + 1, tp_rank + 2, tp_rank + 3};
  int in[4] = {0, 0, 0, 0};
  MPI_Request rq;
  MPI_Isend(out, 4, MPI_INT, right, 30, MPI_COMM_WORLD, &rq);
  MPI_Request_free(&rq);
  tp_out("request_free active send: null=%d", rq == MPI_REQUEST_NULL);
  MPI_Status st;
  MPI_Recv(in, 4, MPI_INT, left, 30, MPI_COMM_WORLD, &st);
  tp_out("received after free: %s data %s", tp_status(&st, MPI_INT), tp_ints(in, 4));
  MPI_Barrier(MPI_COMM_WORLD); /* the freed send's buffer stays valid until here */
}

/* Waitall over a mix of persistent, nonblocking and null requests, twice. */
static void mixed(void) {
  int right = (tp_rank + 1) % tp_size, left = (tp_rank + tp_size - 1) % tp_size;
  int ps = 0, pr = 0, nb = 0, nbr = 0;
  MPI_Request rq[5];
  MPI_Send_init(&ps, 1, MPI_INT, right, 40, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_init(&pr, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &rq[1]);
  rq[2] = MPI_REQUEST_NULL;
  for (int round = 0; round < 2; ++round) {
    ps = 100 * round + tp_rank;
    nb = 1000 * round + tp_rank;
    MPI_Startall(2, rq);
    MPI_Isend(&nb, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &rq[3]);
    MPI_Irecv(&nbr, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &rq[4]);
    MPI_Status sts[5];
    MPI_Waitall(5, rq, round ? MPI_STATUSES_IGNORE : sts);
    tp_out("mixed round %d: persistent=%d nonblocking=%d kept persistent=%d nulled=%d", round,
           pr, nbr, rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL,
           rq[3] == MPI_REQUEST_NULL && rq[4] == MPI_REQUEST_NULL);
    if (!round) tp_out("  status 1: %s; status 4: %s", tp_status(&sts[1], MPI_INT),
                       tp_status(&sts[4], MPI_INT));
  }
  MPI_Request_free(&rq[0]);
  MPI_Request_free(&rq[1]);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, MPI_THREAD_SINGLE);
  if (tp_size + 1 > MAXR) return 1;
  waitany();
  waitsome();
  tests();
  null_requests();
  not_yet();
  free_active();
  mixed();
  return tp_finish();
}
