// tsan_stress — the runtime under MPI_THREAD_MULTIPLE, built with ThreadSanitizer.
//
// Every rank runs kThreads worker threads, each on a communicator of its own, that for
// kIterations make the calls whose hooks share state across threads: Isend/Irecv
// completed by every Wait/Test variant, a receive completed by a different thread than
// the one that posted it, Sendrecv, blocking and nonblocking collectives, MPI_Request_free
// of an active send, communicator dup/free, datatype create/commit/free (and a message
// through the type). Meanwhile a reader thread walks the runtime's records like a
// debugger (record_reader.h). The runtime library, this file and the reader's caller are
// instrumented; a data race in the runtime stops the process (TSAN_OPTIONS
// halt_on_error=1) and fails the test.
//
// Exit status 0: no report, every result right, the reader saw only consistent records.
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <condition_variable>
#include <deque>
#include <mutex>

#include "record_reader.h"

namespace {

constexpr int kThreads = 4;
constexpr int kIterations = 150;

int g_rank = -1, g_size = 0;

// A request handed from one worker to the next, which completes it.
struct Mailbox {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<MPI_Request> requests;
};
Mailbox g_mailboxes[kThreads];

// Receive buffers of the handed-over receives: they outlive the worker that posted
// them, since the next worker may complete the last one after the poster has exited.
int g_handed[kThreads][kIterations];

struct Worker {
  int id = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  long errors = 0;
  char first_error[160] = {};
};

void Fail(Worker* w, const char* what, long got, long want) {
  if (w->errors++ == 0) {
    snprintf(w->first_error, sizeof w->first_error, "%s: got %ld, want %ld", what, got, want);
  }
}

// Completes a send/receive pair with one of the completion calls, chosen by `round`.
void Complete(MPI_Request* rq, int round) {
  int flag = 0, index = -1, out = 0, indices[2];
  MPI_Status st[2];
  switch (round % 7) {
    case 0:
      MPI_Wait(&rq[0], &st[0]);
      MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
      break;
    case 1:
      MPI_Waitall(2, rq, st);
      break;
    case 2:
      while (!flag) MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
      break;
    case 3:
      for (int done = 0; done < 2;) {
        MPI_Waitany(2, rq, &index, MPI_STATUS_IGNORE);
        ++done;
      }
      break;
    case 4:
      for (int done = 0; done < 2;) {
        MPI_Waitsome(2, rq, &out, indices, st);
        done += out;
      }
      break;
    case 5:
      for (int done = 0; done < 2;) {
        MPI_Testany(2, rq, &index, &flag, &st[0]);
        if (flag && index != MPI_UNDEFINED) ++done;
      }
      break;
    default:
      for (int done = 0; done < 2;) {
        MPI_Testsome(2, rq, &out, indices, MPI_STATUSES_IGNORE);
        if (out != MPI_UNDEFINED) done += out;
      }
      for (int i = 0; i < 2; ++i) {
        flag = 0;
        MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE);  // null requests: returns at once
      }
      break;
  }
}

void* Work(void* arg) {
  auto* w = static_cast<Worker*>(arg);
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  Mailbox& mine = g_mailboxes[w->id];
  Mailbox& next = g_mailboxes[(w->id + 1) % kThreads];
  for (int i = 0; i < kIterations; ++i) {
    const int tag = i % 1000;
    // Point to point, completed by a rotating choice of Wait/Test calls.
    int out = 1000 * g_rank + 10 * w->id + i % 10, in = -1;
    MPI_Request rq[2];
    MPI_Irecv(&in, 1, MPI_INT, left, tag, w->comm, &rq[0]);
    MPI_Isend(&out, 1, MPI_INT, right, tag, w->comm, &rq[1]);
    Complete(rq, i + w->id);
    if (in != 1000 * left + 10 * w->id + i % 10) Fail(w, "isend/irecv value", in, 1000 * left + 10 * w->id + i % 10);

    // Sendrecv around the ring.
    int sr = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 2000 + tag, &sr, 1, MPI_INT, left, 2000 + tag, w->comm,
                 MPI_STATUS_IGNORE);
    if (sr != 1000 * left + 10 * w->id + i % 10) Fail(w, "sendrecv value", sr, 1000 * left + 10 * w->id + i % 10);

    // A receive posted here and completed by the next worker; this worker completes the
    // one the previous worker posted.
    int hand_out = 7 * i + w->id;
    MPI_Request posted, send_rq;
    MPI_Irecv(&g_handed[w->id][i], 1, MPI_INT, left, 4000 + tag, w->comm, &posted);
    MPI_Isend(&hand_out, 1, MPI_INT, right, 4000 + tag, w->comm, &send_rq);
    {
      std::lock_guard<std::mutex> lock(next.mutex);
      next.requests.push_back(posted);
    }
    next.ready.notify_one();
    MPI_Request theirs;
    {
      std::unique_lock<std::mutex> lock(mine.mutex);
      mine.ready.wait(lock, [&] { return !mine.requests.empty(); });
      theirs = mine.requests.front();
      mine.requests.pop_front();
    }
    MPI_Wait(&theirs, MPI_STATUS_IGNORE);
    MPI_Wait(&send_rq, MPI_STATUS_IGNORE);

    // Collectives on this worker's communicator.
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, w->comm);
    if (sum != g_size) Fail(w, "allreduce", sum, g_size);
    int b = g_rank == 0 ? i : -1;
    MPI_Request brq;
    MPI_Ibcast(&b, 1, MPI_INT, 0, w->comm, &brq);
    MPI_Wait(&brq, MPI_STATUS_IGNORE);
    if (b != i) Fail(w, "ibcast", b, i);

    // A send freed while active; the matching receive is an ordinary one.
    int fire = i, caught = -1;
    MPI_Request frq;
    MPI_Isend(&fire, 1, MPI_INT, right, 6000 + tag, w->comm, &frq);
    MPI_Request_free(&frq);
    MPI_Recv(&caught, 1, MPI_INT, left, 6000 + tag, w->comm, MPI_STATUS_IGNORE);
    if (caught != i) Fail(w, "freed send", caught, i);

    // Datatypes made, used and freed concurrently in every worker.
    MPI_Datatype t;
    MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    int vec[3] = {i, -1, i + 1}, got[2] = {-1, -1};
    MPI_Sendrecv(vec, 1, t, right, 8000 + tag, got, 2, MPI_INT, left, 8000 + tag, w->comm,
                 MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    if (got[0] != i || got[1] != i + 1) Fail(w, "vector type", got[0], i);

    // Communicators duplicated and freed concurrently in every worker.
    if (i % 10 == 0) {
      MPI_Comm d;
      MPI_Comm_dup(w->comm, &d);
      MPI_Barrier(d);
      MPI_Comm_free(&d);
    }
    // MPI_Barrier keeps the workers of both ranks in step, so the freed sends and the
    // handed receives never pile up.
    MPI_Barrier(w->comm);
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "[rank %d] FAIL: MPI_THREAD_MULTIPLE not provided (%d)\n", g_rank, provided);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (!StartRecordReader()) {
    fprintf(stderr, "[rank %d] FAIL: the runtime's root was not found\n", g_rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Worker workers[kThreads];
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    workers[i].id = i;
    MPI_Comm_dup(MPI_COMM_WORLD, &workers[i].comm);
  }
  for (int i = 0; i < kThreads; ++i) pthread_create(&threads[i], nullptr, Work, &workers[i]);
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], nullptr);
  long errors = 0;
  for (int w = 0; w < kThreads; ++w) {
    for (int i = 0; i < kIterations; ++i) {
      if (g_handed[w][i] != 7 * i + w) {
        Fail(&workers[w], "handed-over receive", g_handed[w][i], 7 * i + w);
      }
    }
  }
  for (int i = 0; i < kThreads; ++i) {
    if (workers[i].errors != 0) {
      fprintf(stderr, "[rank %d] worker %d: %ld wrong results, first: %s\n", g_rank, i,
              workers[i].errors, workers[i].first_error);
    }
    errors += workers[i].errors;
    MPI_Comm_free(&workers[i].comm);
  }
  MPI_Finalize();
  const ReaderReport r = StopRecordReader();
  printf("[rank %d] %d threads x %d iterations; reader: %llu passes, %llu records checked, "
         "%llu torn copies skipped, %llu inconsistent, %llu seq regressions\n",
         g_rank, kThreads, kIterations, (unsigned long long)r.passes, (unsigned long long)r.records,
         (unsigned long long)r.torn, (unsigned long long)r.inconsistent,
         (unsigned long long)r.seq_backwards);
  if (r.inconsistent != 0) fprintf(stderr, "[rank %d] FAIL: first problem: %s\n", g_rank, r.first_problem);
  const bool ok = errors == 0 && r.inconsistent == 0 && r.seq_backwards == 0 && r.records > 0;
  if (!ok) fprintf(stderr, "[rank %d] FAIL\n", g_rank);
  return ok ? 0 : 1;
}
