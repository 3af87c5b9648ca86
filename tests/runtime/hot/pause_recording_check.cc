// pause_recording_check — 2 ranks. mpidbg_pause_recording() / mpidbg_resume_recording()
// (runtime_api.h): while a thread is paused its MPI calls reach MPI and work, and none of
// them is recorded — no communicator record, no traffic count, no pending request, no
// call counted in the thread's live words; the live words publish the pauses; pauses
// nest; a resume without a pause is refused; once resumed the same calls are recorded
// again. Requests pending at a pause (rt/hot/pause_drain.h) are collected all the same by
// the paused thread's completion calls that name them — a few, more than the pause
// notes by handle, a persistent request's start, a free — and once they are, the
// thread's completion calls go unrecorded again. Requests another thread posted are not
// the pausing thread's to collect: a pause leaves them unnoted (MPI_THREAD_SERIALIZED).
// A pause never hides MPI_Init_thread or MPI_Finalize.
// Usage: pause_recording_check <mpich|openmpi>.
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include <vector>

#include "mpidbg/runtime_api.h"
#include "rt_check.h"
#include "traffic_check.h"

namespace {

using rtcheck::MyThread;
using rtcheck::Root;
using Toggle = int (*)();

Toggle g_pause = nullptr;
Toggle g_resume = nullptr;

using rtcheck::U64;

// The thread's outermost MPI calls so far, as its live words count them.
uint64_t CallsMade() {
  const mpidbg_thread_record* me = MyThread();
  return me != nullptr ? rtcheck::ThreadNow(me).calls : 0;
}

// The pauses the thread's live words publish (records.h, `paused`); -1 without them.
int32_t PausesPublished() {
  const mpidbg_thread_record* me = MyThread();
  if (me == nullptr || me->live == 0) return -1;
  return __atomic_load_n(&rtcheck::At<mpidbg_thread_live>(me->live)->paused, __ATOMIC_RELAXED);
}

uint64_t Generation() { return __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE); }

// A dup of MPI_COMM_WORLD, one message each way under `tag` on it, posted nonblocking
// and completed with MPI_Waitall; the dup is returned (freed by the caller).
MPI_Comm Exchange(int tag) {
  MPI_Comm dup = MPI_COMM_NULL;
  RT_CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
  const int peer = 1 - rtcheck::g_rank;
  int out = 40 + rtcheck::g_rank, in = -1;
  MPI_Request req[2];
  MPI_Irecv(&in, 1, MPI_INT, peer, tag, dup, &req[0]);
  MPI_Isend(&out, 1, MPI_INT, peer, tag, dup, &req[1]);
  RT_CHECK_EQ(MPI_Waitall(2, req, MPI_STATUSES_IGNORE), MPI_SUCCESS);
  RT_CHECK_EQ(in, 40 + peer);  // MPI did the work either way
  return dup;
}

// Posts under `tag` a reader finds: whole entries of the thread's flight ring in any
// state (a completed request's entry stays until the ring comes round) and operation
// records (rings off).
int PostsUnder(int tag) {
  int n = 0;
  if (const mpidbg_thread_record* me = MyThread()) {
    rtcheck::ForEachWholeEntry(*me, [&](const mpidbg_flight_entry& e) { n += e.tag == tag; });
  }
  for (const auto* op : rtcheck::Records<mpidbg_operation_record>(Root()->operations)) {
    n += op->tag == tag;
  }
  return n;
}

// Requests under `tag` a reader finds pending: not freed, not a persistent request at rest.
int PendingUnder(int tag) {
  int n = 0;
  for (const mpidbg_operation_record* op : rtcheck::Operations()) {
    const uint32_t at_rest = MPIDBG_REC_FREED | MPIDBG_OPERATION_INACTIVE;
    n += op->tag == tag && (op->hdr.flags & at_rest) == 0;
  }
  return n;
}

// `n` receives under `tag` posted (recorded), then paused: the matching sends, and the
// receives collected with MPI_Waitall. The receives' Waitall is recorded (one call) and
// leaves nothing pending, the sends' only when the pause noted too many requests to
// name them (`every`); a paused exchange after it is not recorded any more.
void CheckPendingAtPauseCollected(int n, int tag, bool every) {
  const int peer = 1 - rtcheck::g_rank;
  std::vector<int> in(n, -1), out(n, 60 + rtcheck::g_rank);
  std::vector<MPI_Request> recv(n), send(n);
  for (int i = 0; i < n; ++i) MPI_Irecv(&in[i], 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &recv[i]);
  RT_CHECK_EQ(PendingUnder(tag), n);
  RT_CHECK_EQ(g_pause(), 1);
  const uint64_t calls_before = CallsMade();
  for (int i = 0; i < n; ++i) MPI_Isend(&out[i], 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &send[i]);
  RT_CHECK_EQ(MPI_Waitall(n, send.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);  // none noted
  const uint64_t recorded = every ? 1 : 0;
  RT_CHECK_EQ(CallsMade(), calls_before + recorded);
  RT_CHECK_EQ(PendingUnder(tag), n);
  RT_CHECK_EQ(MPI_Waitall(n, recv.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
  RT_CHECK_EQ(in[n - 1], 60 + peer);
  RT_CHECK_EQ(CallsMade(), calls_before + recorded + 1);
  RT_CHECK_EQ(PendingUnder(tag), 0);
  MPI_Comm dup = Exchange(tag + 1);  // nothing noted any more: a plain pause
  RT_CHECK_EQ(CallsMade(), calls_before + recorded + 1);
  RT_CHECK_EQ(PostsUnder(tag + 1), 0);
  MPI_Comm_free(&dup);
  RT_CHECK_EQ(g_resume(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

// A persistent receive started before the pause, completed with MPI_Wait while paused:
// at rest afterwards. A receive posted before it and freed while paused: gone (an orphan).
void CheckPersistentAndFreedAtPause(int tag) {
  const int peer = 1 - rtcheck::g_rank;
  int in = -1, out = 80 + rtcheck::g_rank, spare = -1;
  MPI_Request persistent = MPI_REQUEST_NULL, freed = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
  MPI_Recv_init(&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &persistent);
  MPI_Start(&persistent);
  MPI_Irecv(&spare, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD, &freed);
  RT_CHECK_EQ(PendingUnder(tag), 1);
  RT_CHECK_EQ(PendingUnder(tag + 1), 1);
  RT_CHECK_EQ(g_pause(), 1);
  MPI_Isend(&out, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &send);
  RT_CHECK_EQ(MPI_Wait(&persistent, MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(in, 80 + peer);
  RT_CHECK_EQ(MPI_Request_free(&freed), MPI_SUCCESS);
  RT_CHECK_EQ(PendingUnder(tag), 0);
  RT_CHECK_EQ(PendingUnder(tag + 1), 0);
  RT_CHECK_EQ(g_resume(), 0);
  // The freed receive is still MPI's to match: the peer's send completes it.
  MPI_Send(&out, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD);
  MPI_Request_free(&persistent);
  MPI_Barrier(MPI_COMM_WORLD);
}

// Another thread posts `n` receives under `tag` (more than a pause notes by handle) and
// stops; this thread pauses, and its paused exchange stays unrecorded: the pause noted
// none of them. Resumed, it collects them.
void CheckOtherThreadsRequestsNotNoted(int n, int tag) {
  struct Posts {
    int n, tag;
    std::vector<int> in;
    std::vector<MPI_Request> req;
  } posts{n, tag, std::vector<int>(n, -1), std::vector<MPI_Request>(n)};
  pthread_t t;
  RT_CHECK_EQ(pthread_create(&t, nullptr, [](void* arg) -> void* {
    auto* p = static_cast<Posts*>(arg);
    for (int i = 0; i < p->n; ++i) {
      MPI_Irecv(&p->in[i], 1, MPI_INT, 1 - rtcheck::g_rank, p->tag, MPI_COMM_WORLD, &p->req[i]);
    }
    return nullptr;
  }, &posts), 0);
  pthread_join(t, nullptr);
  RT_CHECK_EQ(PendingUnder(tag), n);
  RT_CHECK_EQ(g_pause(), 1);
  const uint64_t calls_before = CallsMade();
  MPI_Comm dup = Exchange(tag + 1);
  RT_CHECK_EQ(CallsMade(), calls_before);
  MPI_Comm_free(&dup);
  RT_CHECK_EQ(g_resume(), 0);
  std::vector<int> out(n, 90);
  const int peer = 1 - rtcheck::g_rank;
  for (int i = 0; i < n; ++i) MPI_Send(&out[i], 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
  RT_CHECK_EQ(MPI_Waitall(n, posts.req.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
  RT_CHECK_EQ(PendingUnder(tag), 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

void CheckRefusedResume() {
  RT_CHECK_EQ(g_resume(), -1);
}

void CheckPausedCallsUnrecorded() {
  const uint64_t comms_before = Root()->comms.live_count;
  RT_CHECK_EQ(PausesPublished(), 0);
  const uint64_t generation = Generation();
  RT_CHECK_EQ(g_pause(), 1);
  // A debugger sees the pause, and a reader that caches by generation reads it.
  RT_CHECK_EQ(PausesPublished(), 1);
  RT_CHECK(Generation() != generation);
  RT_CHECK_EQ(g_pause(), 2);  // pauses nest
  RT_CHECK_EQ(PausesPublished(), 2);
  const uint64_t calls_before = CallsMade();
  MPI_Comm dup = Exchange(71);
  // Not recorded: no record of the dup (its handle maps to nothing live), no post of its
  // messages, no call counted.
  RT_CHECK(rtcheck::CommJobId(U64(dup)) == 0);
  RT_CHECK_EQ(Root()->comms.live_count, comms_before);
  RT_CHECK_EQ(PostsUnder(71), 0);
  RT_CHECK_EQ(CallsMade(), calls_before);
  MPI_Comm_free(&dup);
  RT_CHECK_EQ(g_resume(), 1);
  RT_CHECK_EQ(PausesPublished(), 1);
  RT_CHECK_EQ(g_resume(), 0);
  RT_CHECK_EQ(PausesPublished(), 0);
  RT_CHECK_EQ(g_resume(), -1);
  RT_CHECK_EQ(PausesPublished(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

void CheckResumedCallsRecorded() {
  const uint64_t calls_before = CallsMade();
  MPI_Comm dup = Exchange(72);
  const uint64_t job_id = rtcheck::CommJobId(U64(dup));
  RT_CHECK(job_id != 0);
  RT_CHECK(CallsMade() >= calls_before + 4);  // dup, Irecv, Isend, Waitall
  if (MyThread() != nullptr && MyThread()->flight_capacity != 0) {
    RT_CHECK_EQ(PostsUnder(72), 2);  // entries stay after completion; records do not
  }
  const int peer = 1 - rtcheck::g_rank;
  const traffic::Counts c = traffic::CountsOf(job_id, peer, 72);
  RT_CHECK_EQ(c.found, 1);
  RT_CHECK_EQ(c.sends, 1u);
  RT_CHECK_EQ(c.receives, 1u);
  MPI_Comm_free(&dup);
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  g_pause = reinterpret_cast<Toggle>(dlsym(RTLD_DEFAULT, "mpidbg_pause_recording"));
  g_resume = reinterpret_cast<Toggle>(dlsym(RTLD_DEFAULT, "mpidbg_resume_recording"));
  // A pause never hides MPI_Init_thread either: paused before it, the runtime still sets
  // itself up (its state, the thread level MPI gave, the world's size).
  const bool paused_at_init = g_pause != nullptr && g_pause() == 1;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  RT_CHECK(provided >= MPI_THREAD_SERIALIZED);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  RT_CHECK(g_pause != nullptr && g_resume != nullptr && Root() != nullptr);
  if (paused_at_init && Root() != nullptr) {
    RT_CHECK_EQ(__atomic_load_n(&Root()->process_state, __ATOMIC_ACQUIRE),
                static_cast<int32_t>(MPIDBG_PROCESS_RUNNING));
    RT_CHECK_EQ(Root()->thread_level, static_cast<int32_t>(MPIDBG_THREAD_SERIALIZED));
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    RT_CHECK_EQ(Root()->world_size, size);
    RT_CHECK_EQ(PausesPublished(), 1);
    RT_CHECK_EQ(g_resume(), 0);
  }
  if (g_pause != nullptr && g_resume != nullptr && Root() != nullptr) {
    CheckRefusedResume();
    CheckPausedCallsUnrecorded();
    CheckResumedCallsRecorded();
    CheckPendingAtPauseCollected(2, 73, false);
    CheckPendingAtPauseCollected(40, 75, true);  // more than a pause notes by handle
    CheckPersistentAndFreedAtPause(77);
    CheckOtherThreadsRequestsNotNoted(40, 79);
  }
  // A pause never hides MPI_Finalize: the runtime still finalizes (its reports, its state).
  const bool paused = g_pause != nullptr && g_pause() == 1;
  MPI_Finalize();
  if (paused) {
    RT_CHECK_EQ(__atomic_load_n(&Root()->process_state, __ATOMIC_ACQUIRE),
                static_cast<int32_t>(MPIDBG_PROCESS_FINALIZED));
  }
  return rtcheck::Finish("pause_recording_check");
}
