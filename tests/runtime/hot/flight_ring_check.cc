// flight_ring_check — 2 ranks, MPI_THREAD_SERIALIZED, rings of 64 entries
// (MPIDBG_FLIGHT_RING=64): nonblocking point-to-point requests live in per-thread
// flight rings and a reader derives them (rtcheck::Operations, records.h's rule):
//  - a pending request is a POSTED entry with every field, not an op record;
//  - completion marks it DONE (no derived op), whatever completes it (Waitall, Test,
//    Waitany, Testsome);
//  - a request still pending when its ring comes round is carried into an op record
//    with the same post serial, seen once, and completed through the index;
//  - a persistent request's start is a ring entry the reader applies to the request's
//    inactive record; carried into that record when the ring comes round; completion
//    makes it inactive again; freed while started it is a FREED orphan; a new request
//    under a freed one's handle shows its own envelope when started;
//  - MPI_Request_free of a pending ring request keeps a FREED orphan record;
//  - a send MPI completed inside MPI_Isend (one shared, completed handle) is DONE from
//    the start, still a logged send, and kept as a FREED orphan when its handle is freed;
//  - a freed derived datatype a pending ring request names stays unreleased;
//  - a communicator freed while a ring receive on it is pending stays unreleased;
//  - a thread that exits with a pending request keeps its record and ring until the next
//    thread that posts takes the ring over (the request then an op record of the exited
//    thread), and another thread completes the request;
//  - many more posts than the ring holds leave nothing behind;
//  - a thread blocked in MPI_Recv, MPI_Ssend or MPI_Sendrecv shows the call and its
//    envelope (an entry of its ring that its live words name; its record is not
//    published; a Sendrecv's send half a blocking entry beside it), with a generation
//    step while it waits and one as it returns;
//  - a thread polling with MPI_Test, MPI_Testany, MPI_Testall or MPI_Testsome shows the
//    call and the request array it tests in its live words (its record unpublished).
// With MPIDBG_FLIGHT_RING=0 (runtime.flight_ring_off.<f>) every request has an op
// record, and the same view is derived.
// Usage: flight_ring_check <mpich|openmpi>.
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "traffic_check.h"

using rtcheck::Operations;
using rtcheck::Root;
using rtcheck::HeldRequestOp;
using rtcheck::MyThread;
using rtcheck::RequestOp;
using rtcheck::Tid;
using rtcheck::U64;

namespace {

int g_peer = 0;
bool g_rings = true;  // MPIDBG_FLIGHT_RING is not 0

// Whether the derived op of `request` comes from a ring entry (not an op record).
bool FromRing(const mpidbg_operation_record* op) {
  for (const auto* o : rtcheck::Records<mpidbg_operation_record>(Root()->operations)) {
    if (o == op) return false;
  }
  return true;
}

size_t PendingCount() { return Operations().size(); }

void CheckPendingFields() {
  const size_t before = PendingCount();
  const uint32_t records_before = Root()->operations.live_count;
  int r7[10], s9[3] = {1, 2, 3}, s7[10] = {0};
  MPI_Request req[2];
  MPI_Irecv(r7, 10, MPI_INT, g_peer, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Issend(s9, 3, MPI_INT, g_peer, 9, MPI_COMM_WORLD, &req[1]);
  const mpidbg_operation_record* recv = HeldRequestOp(U64(req[0]));
  RT_CHECK(recv != nullptr);
  if (recv != nullptr) {
    RT_CHECK_EQ(FromRing(recv), g_rings);
    RT_CHECK_EQ(recv->direction, MPIDBG_OPERATION_RECV);
    RT_CHECK_EQ(recv->mode, MPIDBG_MODE_NONE);
    RT_CHECK_EQ(recv->call, MPIDBG_CALL_MPI_Irecv);
    RT_CHECK_EQ(recv->peer, g_peer);
    RT_CHECK_EQ(recv->peer_world, g_peer);
    RT_CHECK_EQ(recv->tag, 7);
    RT_CHECK_EQ(recv->count, 10);
    RT_CHECK_EQ(recv->bytes, 40);
    RT_CHECK_EQ(recv->buffer, rtcheck::Addr(r7));
    RT_CHECK_EQ(recv->status, MPIDBG_OPERATION_PENDING);
    RT_CHECK_STREQ(recv->datatype_name, "MPI_INT");
    RT_CHECK_EQ(recv->datatype, U64(MPI_INT));
    RT_CHECK_EQ(recv->comm_handle, U64(MPI_COMM_WORLD));
    RT_CHECK_EQ(recv->comm_job_id, traffic::JobIdOf(MPI_COMM_WORLD));
    RT_CHECK_EQ(recv->tid, Tid());
    RT_CHECK(recv->post_time_ns > 0);
    RT_CHECK(recv->create_pc != 0);
  }
  const uint64_t recv_serial = recv != nullptr ? recv->post_serial : 0;
  const mpidbg_operation_record* send = HeldRequestOp(U64(req[1]));
  RT_CHECK(send != nullptr);
  if (send != nullptr) {
    RT_CHECK_EQ(send->direction, MPIDBG_OPERATION_SEND);
    RT_CHECK_EQ(send->mode, MPIDBG_MODE_SYNCHRONOUS);
    RT_CHECK_EQ(send->call, MPIDBG_CALL_MPI_Issend);
    RT_CHECK_EQ(send->bytes, 12);
    RT_CHECK(send->post_serial > recv_serial);
  }
  RT_CHECK_EQ(PendingCount(), before + 2);
  RT_CHECK_EQ(Root()->operations.live_count, records_before + (g_rings ? 0 : 2));
  if (g_rings) {
    const mpidbg_thread_record* me = MyThread();
    RT_CHECK(me != nullptr && me->flight_entries != 0 && me->flight_capacity == 64 &&
             me->flight_entry_size == sizeof(mpidbg_flight_entry) && me->flight_head >= 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(s7, 10, MPI_INT, g_peer, 7, MPI_COMM_WORLD);
  MPI_Recv(s7, 3, MPI_INT, g_peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  RT_CHECK_EQ(PendingCount(), before);
  RT_CHECK_EQ(Root()->operations.live_count, records_before);
}

// Every completion call retires ring entries.
void CheckCompletionCalls() {
  const size_t before = PendingCount();
  int a = 5, b = 0;
  MPI_Request two[2];
  MPI_Irecv(&b, 1, MPI_INT, rtcheck::g_rank, 11, MPI_COMM_WORLD, &two[0]);
  MPI_Isend(&a, 1, MPI_INT, rtcheck::g_rank, 11, MPI_COMM_WORLD, &two[1]);
  for (int done = 0; done < 2; ++done) {
    int index = -1;
    MPI_Waitany(2, two, &index, MPI_STATUS_IGNORE);
  }
  RT_CHECK_EQ(PendingCount(), before);
  MPI_Request one;
  MPI_Isend(&a, 1, MPI_INT, rtcheck::g_rank, 12, MPI_COMM_WORLD, &one);
  MPI_Recv(&b, 1, MPI_INT, rtcheck::g_rank, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int flag = 0; !flag;) MPI_Test(&one, &flag, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(PendingCount(), before);
  MPI_Irecv(&b, 1, MPI_INT, rtcheck::g_rank, 13, MPI_COMM_WORLD, &two[0]);
  MPI_Isend(&a, 1, MPI_INT, rtcheck::g_rank, 13, MPI_COMM_WORLD, &two[1]);
  int outcount = 0, indices[2];
  for (int done = 0; done < 2; done += outcount == MPI_UNDEFINED ? 0 : outcount) {
    MPI_Testsome(2, two, &outcount, indices, MPI_STATUSES_IGNORE);
  }
  RT_CHECK_EQ(PendingCount(), before);
}

// A receive pending over several laps of the ring: carried, seen once, completed.
void CheckCarried() {
  const size_t before = PendingCount();
  int slow = -1;
  MPI_Request pending;
  MPI_Irecv(&slow, 1, MPI_INT, g_peer, 40, MPI_COMM_WORLD, &pending);
  const mpidbg_operation_record* op = HeldRequestOp(U64(pending));
  const uint64_t serial = op != nullptr ? op->post_serial : 0;
  for (int i = 0; i < 200; ++i) {  // about three laps of 64
    int out = i, in = -1;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, rtcheck::g_rank, 41, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, rtcheck::g_rank, 41, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  RT_CHECK_EQ(PendingCount(), before + 1);
  int seen = 0;
  for (const auto* o : Operations()) seen += o->request == U64(pending) ? 1 : 0;
  RT_CHECK_EQ(seen, 1);
  op = HeldRequestOp(U64(pending));
  RT_CHECK(op != nullptr && !FromRing(op) && op->post_serial == serial && op->tag == 40 &&
           op->tid == Tid() && strcmp(op->datatype_name, "MPI_INT") == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 99;
  MPI_Send(&v, 1, MPI_INT, g_peer, 40, MPI_COMM_WORLD);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(slow, 99);
  RT_CHECK_EQ(PendingCount(), before);
  // Its receive was counted once, at completion.
  RT_CHECK_EQ(traffic::CountsOf(traffic::JobIdOf(MPI_COMM_WORLD), g_peer, 40).receives, 1u);
}

// A persistent request's start is a flight ring entry (MPIDBG_FLIGHT_START) that the
// reader applies to the request's inactive record: one operation, active, the start's
// serial; the record itself stays as the init made it. Carried when the ring comes
// round: the record takes the start in place (same serial). Completion makes it
// inactive again, its receive counted once; MPI_Request_free of a started request keeps
// a FREED orphan record.
std::vector<mpidbg_flight_entry> MyEntries(int32_t tag);

void CheckPersistentStarts() {
  constexpr uint32_t kBoth = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  const uint64_t counted = traffic::CountsOf(traffic::JobIdOf(MPI_COMM_WORLD), g_peer, 45).receives;
  int slow = -1;
  MPI_Request pr;
  MPI_Recv_init(&slow, 1, MPI_INT, g_peer, 45, MPI_COMM_WORLD, &pr);
  const uint64_t handle = U64(pr);
  const mpidbg_operation_record* record = RequestOp(handle);
  RT_CHECK(record != nullptr && !FromRing(record) && (record->hdr.flags & kBoth) == kBoth);
  const size_t before = PendingCount();  // the inactive record among them
  MPI_Start(&pr);
  const mpidbg_operation_record* op = RequestOp(handle);
  RT_CHECK(op != nullptr && (op->hdr.flags & kBoth) == MPIDBG_OPERATION_PERSISTENT &&
           op->status == MPIDBG_OPERATION_PENDING && op->tag == 45 && op->tid == Tid() &&
           op->call == MPIDBG_CALL_MPI_Recv_init && strcmp(op->datatype_name, "MPI_INT") == 0);
  const uint64_t serial = op != nullptr ? op->post_serial : 0;
  RT_CHECK_EQ(PendingCount(), before);  // the record, started: no operation of its own
  if (g_rings) {
    RT_CHECK((record->hdr.flags & kBoth) == kBoth);  // the record as the init made it
    const std::vector<mpidbg_flight_entry> mine = MyEntries(45);
    RT_CHECK(!mine.empty() && mine.back().flags == MPIDBG_FLIGHT_START &&
             mine.back().state == MPIDBG_FLIGHT_POSTED && mine.back().post_serial == serial);
  }
  for (int i = 0; i < 200; ++i) {  // about three laps of 64: the start is carried
    int out = i, in = -1;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, rtcheck::g_rank, 46, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, rtcheck::g_rank, 46, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  int seen = 0;
  for (const auto* o : Operations()) seen += o->request == handle ? 1 : 0;
  RT_CHECK_EQ(seen, 1);
  op = RequestOp(handle);
  RT_CHECK(op != nullptr && !FromRing(op) && op->post_serial == serial &&
           (op->hdr.flags & kBoth) == MPIDBG_OPERATION_PERSISTENT);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 45;
  MPI_Send(&v, 1, MPI_INT, g_peer, 45, MPI_COMM_WORLD);
  MPI_Wait(&pr, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(slow, 45);
  op = RequestOp(handle);
  RT_CHECK(op != nullptr && (op->hdr.flags & kBoth) == kBoth);
  RT_CHECK_EQ(PendingCount(), before);
  // Started again and completed without a lap: the entry DONE, the record untouched.
  MPI_Start(&pr);
  const uint64_t again = RequestOp(handle) != nullptr ? RequestOp(handle)->post_serial : 0;
  RT_CHECK(again > serial);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(&v, 1, MPI_INT, g_peer, 45, MPI_COMM_WORLD);
  MPI_Wait(&pr, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(PendingCount(), before);
  RT_CHECK_EQ(traffic::CountsOf(traffic::JobIdOf(MPI_COMM_WORLD), g_peer, 45).receives, counted + 2);
  // Freed while started: a FREED orphan record with the start's serial.
  MPI_Start(&pr);
  const uint64_t last = RequestOp(handle) != nullptr ? RequestOp(handle)->post_serial : 0;
  MPI_Request_free(&pr);
  bool orphan = false;
  for (const auto* o : traffic::OpsOf(handle, /*orphans=*/true)) {
    orphan = orphan || ((o->hdr.flags & MPIDBG_REC_FREED) != 0 && o->post_serial == last &&
                        (o->hdr.flags & MPIDBG_OPERATION_INACTIVE) == 0);
  }
  RT_CHECK(orphan);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(&v, 1, MPI_INT, g_peer, 45, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

// A persistent request freed and another made under the same handle value (both MPIs
// hand a freed request's handle out again): the new one's start shows its own envelope,
// not the freed one's last start. Checked only when MPI did reuse the handle.
std::vector<mpidbg_flight_entry> MyEntries(int32_t tag);

void CheckPersistentHandleReuse() {
  int reused = 0;
  for (int round = 0; round < 4; ++round) {
    int a = -1, b = -1;
    MPI_Request first;
    MPI_Recv_init(&a, 1, MPI_INT, MPI_PROC_NULL, 47, MPI_COMM_WORLD, &first);
    MPI_Start(&first);
    MPI_Wait(&first, MPI_STATUS_IGNORE);
    const uint64_t handle = U64(first);
    MPI_Request_free(&first);
    MPI_Request second;
    MPI_Recv_init(&b, 2, MPI_SHORT, MPI_PROC_NULL, 48, MPI_COMM_WORLD, &second);
    if (U64(second) == handle) {
      ++reused;
      MPI_Start(&second);
      const mpidbg_operation_record* op = RequestOp(handle);
      RT_CHECK(op != nullptr && op->tag == 48 && op->count == 2 &&
               op->buffer == static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&b)));
      // The start's own entry (what the send log, the lifetime checks and a reader
      // without the record take), not only the record a reader applies it to.
      if (g_rings) {
        const std::vector<mpidbg_flight_entry> mine = MyEntries(48);
        RT_CHECK(!mine.empty() && mine.back().request == handle && mine.back().count == 2 &&
                 (mine.back().flags & MPIDBG_FLIGHT_START) != 0 &&
                 mine.back().buffer == static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&b)));
      }
      MPI_Wait(&second, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&second);
  }
  if (reused == 0) fprintf(stderr, "note: MPI reused no persistent request handle\n");
}

// MPI_Request_free of a pending ring request: a FREED orphan record.
void CheckFreedRequest() {
  int in = -1;
  MPI_Request r;
  MPI_Irecv(&in, 1, MPI_INT, g_peer, 50, MPI_COMM_WORLD, &r);
  const uint64_t handle = U64(r);
  MPI_Request_free(&r);
  bool orphan = false;
  for (const auto* o : traffic::OpsOf(handle, /*orphans=*/true)) {
    orphan = orphan || ((o->hdr.flags & MPIDBG_REC_FREED) != 0 && o->tag == 50);
  }
  RT_CHECK(orphan);
  RT_CHECK(RequestOp(handle) == nullptr || (RequestOp(handle)->hdr.flags & MPIDBG_REC_FREED) != 0);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 1;
  MPI_Send(&v, 1, MPI_INT, g_peer, 50, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

// The whole entries of this thread's ring with `tag`, oldest first.
std::vector<mpidbg_flight_entry> MyEntries(int32_t tag) {
  std::vector<mpidbg_flight_entry> out;
  if (const mpidbg_thread_record* me = MyThread()) {
    rtcheck::ForEachWholeEntry(*me, [&](const mpidbg_flight_entry& e) {
      if (e.tag == tag) out.push_back(e);
    });
  }
  return out;
}

// Sends MPI completed inside MPI_Isend come back under one shared, completed request
// handle (both MPIs, for a small eager send): their entries are DONE from the start, so
// nothing shows as pending, and each is still a logged send. A receive from
// MPI_PROC_NULL likewise. MPI_Request_free of the shared handle keeps the last such
// send as a FREED orphan. Checked only when MPI did hand one handle out twice.
void CheckCompletedAtPost() {
  if (!g_rings) return;
  const size_t before = PendingCount();
  int a = 1, b = 2, c = -1;
  MPI_Request first, second, none;
  MPI_Isend(&a, 1, MPI_INT, g_peer, 60, MPI_COMM_WORLD, &first);
  MPI_Isend(&b, 1, MPI_INT, g_peer, 60, MPI_COMM_WORLD, &second);
  const bool shared = U64(first) == U64(second);
  if (!shared) fprintf(stderr, "[rank %d] two small sends got two handles: not checked\n", rtcheck::g_rank);
  if (shared) {
    RT_CHECK_EQ(PendingCount(), before);
    const std::vector<mpidbg_flight_entry> sends = MyEntries(60);
    RT_CHECK_EQ(sends.size(), 2);
    for (const auto& e : sends) {
      RT_CHECK_EQ(e.state, MPIDBG_FLIGHT_DONE);
      RT_CHECK_EQ(e.request, U64(first));
      RT_CHECK(e.ordinal != 0);
    }
    RT_CHECK_EQ(traffic::LoggedSendsTo(traffic::JobIdOf(MPI_COMM_WORLD), g_peer, 60).size(), 2);
    MPI_Request_free(&second);
    bool orphan = false;
    for (const auto* o : traffic::OpsOf(U64(first), /*orphans=*/true)) {
      orphan = orphan || ((o->hdr.flags & MPIDBG_REC_FREED) != 0 && o->tag == 60 &&
                          o->buffer == rtcheck::Addr(&b));
    }
    RT_CHECK(orphan);
  } else {
    MPI_Wait(&second, MPI_STATUS_IGNORE);
  }
  // From here on the orphan record is one more operation record (orphans stay until
  // evicted or released on request).
  const size_t kept = PendingCount();
  RT_CHECK_EQ(kept, before + (shared ? 1 : 0));
  int d = 3;
  MPI_Request third;
  MPI_Isend(&d, 1, MPI_INT, g_peer, 60, MPI_COMM_WORLD, &third);
  if (shared && U64(third) == U64(first)) {
    // MPI handed the freed handle out again: the orphan is known released.
    bool released = false;
    for (const auto* o : traffic::OpsOf(U64(first), /*orphans=*/true)) {
      released = released || (o->tag == 60 && (o->hdr.flags & MPIDBG_REC_RELEASED) != 0);
    }
    RT_CHECK(released);
    RT_CHECK_EQ(PendingCount(), kept);
  }
  MPI_Wait(&third, MPI_STATUS_IGNORE);
  MPI_Wait(&first, MPI_STATUS_IGNORE);
  // A receive from MPI_PROC_NULL completes inside MPI_Irecv: not pending either.
  MPI_Irecv(&c, 1, MPI_INT, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &none);
  if (shared) RT_CHECK_EQ(PendingCount(), kept);
  MPI_Wait(&none, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(PendingCount(), kept);
  int in[3];
  for (int& v : in) MPI_Recv(&v, 1, MPI_INT, g_peer, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  RT_CHECK(in[0] == 1 && in[1] == 2 && in[2] == 3);
  MPI_Barrier(MPI_COMM_WORLD);
}

bool Released(const mpidbg_table& table, uint64_t handle) {
  const auto* rec = rtcheck::FindObject<mpidbg_datatype_record>(table, handle, false);
  return rec != nullptr && (rec->obj.hdr.flags & MPIDBG_REC_RELEASED) != 0;
}

// A derived datatype freed while a ring receive names it stays unreleased until the
// receive completes (and a later datatype call rechecks).
void CheckFreedDatatype() {
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const uint64_t handle = U64(pair);
  int in[2] = {0, 0};
  MPI_Request r;
  MPI_Irecv(in, 1, pair, g_peer, 60, MPI_COMM_WORLD, &r);
  MPI_Type_free(&pair);
  RT_CHECK(!Released(Root()->datatypes, handle));
  MPI_Barrier(MPI_COMM_WORLD);
  int out[2] = {3, 4};
  MPI_Send(out, 2, MPI_INT, g_peer, 60, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Datatype other;
  MPI_Type_contiguous(3, MPI_INT, &other);  // a datatype call rechecks freed types
  MPI_Type_free(&other);
  RT_CHECK(Released(Root()->datatypes, handle));
}

// A communicator freed while a ring receive on it is pending stays unreleased (the
// runtime has not seen the receive complete, whatever MPI did meanwhile).
void CheckFreedComm() {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const uint64_t job = traffic::JobIdOf(dup);
  int in = -1, out = 7;
  MPI_Request r[2];
  MPI_Irecv(&in, 1, MPI_INT, g_peer, 70, dup, &r[0]);
  MPI_Isend(&out, 1, MPI_INT, g_peer, 70, dup, &r[1]);
  MPI_Comm_free(&dup);
  const mpidbg_comm_record* rec = nullptr;
  for (const auto* c : rtcheck::Records<mpidbg_comm_record>(Root()->comms)) {
    if (c->job_id == job) rec = c;
  }
  RT_CHECK(rec != nullptr && (rec->hdr.flags & MPIDBG_REC_FREED) != 0 &&
           (rec->hdr.flags & MPIDBG_REC_RELEASED) == 0);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  RT_CHECK_EQ(in, 7);
}

// A thread posts a receive and exits with it pending: its record and ring stay. The next
// thread that posts takes the ring over: the request becomes an operation record of the
// exited thread (same post serial) and the exited thread's record goes. The main thread
// completes the request.
struct Poster {
  MPI_Request request;
  uint64_t tid;
  uint64_t ring;  // the thread's flight_entries once it posted
};

// Posts (and completes) a receive from MPI_PROC_NULL: enough to open a ring.
void* SecondPosterMain(void* p) {
  auto* poster = static_cast<Poster*>(p);
  int in = -1;
  poster->tid = Tid();
  MPI_Irecv(&in, 1, MPI_INT, MPI_PROC_NULL, 81, MPI_COMM_WORLD, &poster->request);
  if (const mpidbg_thread_record* me = MyThread()) poster->ring = me->flight_entries;
  MPI_Wait(&poster->request, MPI_STATUS_IGNORE);
  return nullptr;
}

void* PosterMain(void* p) {
  auto* poster = static_cast<Poster*>(p);
  static int in = -1;
  poster->tid = Tid();
  MPI_Irecv(&in, 1, MPI_INT, g_peer, 80, MPI_COMM_WORLD, &poster->request);
  return nullptr;
}

void CheckExitedPoster() {
  Poster poster{MPI_REQUEST_NULL, 0, 0};
  pthread_t th;
  pthread_create(&th, nullptr, PosterMain, &poster);
  pthread_join(th, nullptr);
  const mpidbg_operation_record* op = HeldRequestOp(U64(poster.request));
  RT_CHECK(op != nullptr && op->tid == poster.tid && op->tag == 80);
  if (g_rings && op != nullptr) {
    RT_CHECK(FromRing(op));
    const uint64_t serial = op->post_serial;
    uint64_t ring = 0;
    for (const auto* t : rtcheck::Records<mpidbg_thread_record>(Root()->threads)) {
      if (t->tid == poster.tid) ring = t->flight_entries;
    }
    RT_CHECK(ring != 0);
    Poster second{MPI_REQUEST_NULL, 0, 0};
    pthread_create(&th, nullptr, SecondPosterMain, &second);
    pthread_join(th, nullptr);
    RT_CHECK_EQ(second.ring, ring);
    for (const auto* t : rtcheck::Records<mpidbg_thread_record>(Root()->threads)) {
      RT_CHECK(t->tid != poster.tid);
    }
    const mpidbg_operation_record* carried = HeldRequestOp(U64(poster.request));
    RT_CHECK(carried != nullptr);
    if (carried != nullptr) {
      RT_CHECK(!FromRing(carried));
      RT_CHECK_EQ(carried->tid, poster.tid);
      RT_CHECK_EQ(carried->tag, 80);
      RT_CHECK_EQ(carried->post_serial, serial);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int v = 8;
  MPI_Send(&v, 1, MPI_INT, g_peer, 80, MPI_COMM_WORLD);
  MPI_Wait(&poster.request, MPI_STATUS_IGNORE);
  RT_CHECK(RequestOp(U64(poster.request)) == nullptr);
  for (const auto* o : Operations()) RT_CHECK(o->tag != 80);
}

// What a thread that calls no MPI saw of the thread `tid` once it showed `call` BLOCKED
// with an operation (rtcheck::ThreadNow: its record with its live words).
struct BlockedView {
  uint64_t tid;
  int32_t call;
  bool seen;
  int32_t record_state;  // what the thread record itself said then
  uint64_t generation;   // root.generation then
  bool has_op;
  mpidbg_operation_record op;
  // The thread's other blocking operation then (a Sendrecv's send half).
  bool has_companion;
  mpidbg_operation_record companion;
};

// The thread `tid` as a debugger shows it now (rtcheck::ThreadNow) in *shown, and its
// record itself in *record; false when it has none.
bool ShowThread(uint64_t tid, mpidbg_thread_record* shown, const mpidbg_thread_record** record) {
  for (const auto* r : rtcheck::Records<mpidbg_thread_record>(Root()->threads)) {
    if (r->tid != tid) continue;
    *shown = rtcheck::ThreadNow(r);
    *record = r;
    return true;
  }
  return false;
}

// A thread that runs `watch` over *v, cleared to watch this thread in `call`.
template <typename View>
pthread_t StartWatching(View* v, int32_t call, void* (*watch)(void*)) {
  memset(static_cast<void*>(v), 0, sizeof *v);
  v->tid = Tid();
  v->call = call;
  v->record_state = -1;
  pthread_t watcher;
  pthread_create(&watcher, nullptr, watch, v);
  return watcher;
}

void* WatchMain(void* p) {
  auto* v = static_cast<BlockedView*>(p);
  for (int i = 0; i < 5000 && !v->seen; ++i) {
    mpidbg_thread_record t;
    const mpidbg_thread_record* r = nullptr;
    if (ShowThread(v->tid, &t, &r) && t.state == MPIDBG_THREAD_BLOCKED && t.call == v->call &&
        t.op != 0) {
      v->record_state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
      v->generation = __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE);
      if (const mpidbg_operation_record* o = rtcheck::OperationAt(t.op)) {
        v->op = *o;
        v->has_op = true;
      }
      std::vector<std::pair<uint64_t, const mpidbg_operation_record*>> at;
      for (const auto* o : Operations(&at)) {
        if ((o->hdr.flags & MPIDBG_OPERATION_BLOCKING) == 0 || o->tid != v->tid) continue;
        if (v->has_op && o->post_serial == v->op.post_serial) continue;
        v->companion = *o;
        v->has_companion = true;
      }
      v->seen = true;
    }
    usleep(1000);
  }
  return nullptr;
}

// The calling thread blocked in `call` (run by `enter`) while the peer waits 300 ms:
// another thread sees the call and its envelope, the thread's record stays unpublished
// when the envelope is a ring entry, and the generation steps while it waits and as it
// returns.
template <typename Enter>
void CheckBlockedCall(int32_t call, int32_t direction, int tag, Enter enter) {
  BlockedView v;
  const pthread_t watcher = StartWatching(&v, call, WatchMain);
  const uint64_t before = __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE);
  enter();
  const uint64_t after = __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE);
  pthread_join(watcher, nullptr);
  RT_CHECK(v.seen);
  if (!v.seen) return;
  RT_CHECK_EQ(v.record_state, g_rings ? MPIDBG_THREAD_NOT_IN_MPI : MPIDBG_THREAD_BLOCKED);
  // A reader that cached a snapshot before the call does not keep it while the thread
  // waits, nor once it has returned.
  RT_CHECK(v.generation != before);
  RT_CHECK(after != v.generation);
  RT_CHECK(v.has_op);
  RT_CHECK(v.op.hdr.flags & MPIDBG_OPERATION_BLOCKING);
  RT_CHECK_EQ(v.op.request, 0);
  RT_CHECK_EQ(v.op.call, call);
  RT_CHECK_EQ(v.op.direction, direction);
  RT_CHECK_EQ(v.op.peer, g_peer);
  RT_CHECK_EQ(v.op.peer_world, g_peer);
  RT_CHECK_EQ(v.op.tag, tag);
  RT_CHECK_EQ(v.op.bytes, 8);
  RT_CHECK_EQ(v.op.tid, Tid());
  RT_CHECK_STREQ(v.op.datatype_name, "MPI_INT");
  if (call == MPIDBG_CALL_MPI_Sendrecv) {
    // The send half: a blocking operation of its own, posted just before the receive.
    RT_CHECK(v.has_companion);
    RT_CHECK_EQ(v.companion.call, call);
    RT_CHECK_EQ(v.companion.direction, MPIDBG_OPERATION_SEND);
    RT_CHECK_EQ(v.companion.peer, g_peer);
    RT_CHECK_EQ(v.companion.tag, tag - 1);
    RT_CHECK_EQ(v.companion.bytes, 8);
    RT_CHECK_EQ(v.companion.request, 0);
    RT_CHECK_EQ(v.companion.post_serial + 1, v.op.post_serial);
  } else {
    RT_CHECK(!v.has_companion);
  }
  // Back outside MPI: the thread names nothing, in its record or its words.
  const mpidbg_thread_record* me = MyThread();
  RT_CHECK(me != nullptr);
  if (me == nullptr) return;
  const mpidbg_thread_record now = rtcheck::ThreadNow(me);
  RT_CHECK_EQ(now.state, MPIDBG_THREAD_NOT_IN_MPI);
  RT_CHECK_EQ(now.op, 0);
  RT_CHECK_EQ(me->live_size, sizeof(mpidbg_thread_live));
  const auto* live = rtcheck::At<mpidbg_thread_live>(me->live);
  RT_CHECK(live != nullptr && live->op == 0);
  RT_CHECK(live != nullptr && live->requests == 0 && live->request_count == 0);
  RT_CHECK(Operations().size() == 0 || [] {
    for (const auto* o : Operations())
      if ((o->hdr.flags & MPIDBG_OPERATION_BLOCKING) != 0 && o->tid == Tid()) return false;
    return true;
  }());
}

void CheckBlockedThread() {
  int two[2] = {1, 2};
  MPI_Barrier(MPI_COMM_WORLD);
  // Rank 0 waits in MPI_Recv, then rank 1 in MPI_Ssend (until its receive is posted).
  if (rtcheck::g_rank == 0) {
    CheckBlockedCall(MPIDBG_CALL_MPI_Recv, MPIDBG_OPERATION_RECV, 31, [&] {
      MPI_Recv(two, 2, MPI_INT, g_peer, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    });
    usleep(300 * 1000);
    MPI_Recv(two, 2, MPI_INT, g_peer, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    usleep(300 * 1000);
    MPI_Send(two, 2, MPI_INT, g_peer, 31, MPI_COMM_WORLD);
    CheckBlockedCall(MPIDBG_CALL_MPI_Ssend, MPIDBG_OPERATION_SEND, 32, [&] {
      MPI_Ssend(two, 2, MPI_INT, g_peer, 32, MPI_COMM_WORLD);
    });
  }
  RT_CHECK_EQ(two[1], 2);
  // Rank 0 waits in MPI_Sendrecv's receive half (its send goes at once), rank 1 answers
  // after 300 ms.
  MPI_Barrier(MPI_COMM_WORLD);
  if (rtcheck::g_rank == 0) {
    int out[2] = {3, 4};
    CheckBlockedCall(MPIDBG_CALL_MPI_Sendrecv, MPIDBG_OPERATION_RECV, 34, [&] {
      MPI_Sendrecv(out, 2, MPI_INT, g_peer, 33, two, 2, MPI_INT, g_peer, 34, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    });
    RT_CHECK_EQ(two[0], 5);
  } else {
    usleep(300 * 1000);
    int back[2] = {5, 6};
    MPI_Recv(two, 2, MPI_INT, g_peer, 33, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(back, 2, MPI_INT, g_peer, 34, MPI_COMM_WORLD);
    RT_CHECK_EQ(two[0], 3);
  }
}

// What a thread that calls no MPI saw of the thread `tid` once it showed `call` in
// `state` (IN_MPI for a Test, BLOCKED for a Wait) with a request array.
struct TestingView {
  uint64_t tid;
  int32_t call;
  int32_t state;
  volatile bool done;  // the polling thread got its message
  bool seen;
  int32_t record_state;
  uint64_t generation;  // root.generation then
  uint64_t requests;
  int32_t request_count;
};

void* WatchTesting(void* p) {
  auto* v = static_cast<TestingView*>(p);
  for (int i = 0; i < 200000 && !v->seen && !v->done; ++i) {
    mpidbg_thread_record t;
    const mpidbg_thread_record* r = nullptr;
    // The array is named once the call has saved its handles, a moment after its
    // state; a read racing the thread may pair its words from two polls, or from a
    // poll and the moment between two (records.h, mpidbg_thread_live).
    if (ShowThread(v->tid, &t, &r) && t.state == v->state && t.call == v->call &&
        t.requests != 0 && t.request_count != 0) {
      v->record_state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
      v->generation = __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE);
      v->requests = t.requests;
      v->request_count = t.request_count;
      v->seen = true;
    }
    if (i % 64 == 63) usleep(100);
  }
  return nullptr;
}

// The calling thread polls `test` (which returns whether its requests completed; a
// Wait returns true at once) over the `n` requests at `requests`, the first a receive
// the peer matches after 300 ms: another thread sees the call in `state` and the array
// in the thread's live words, and a Wait has stepped the generation by then, so a
// reader that cached a snapshot before the call does not keep it while the thread waits.
template <typename Test>
void CheckTestingCall(int32_t call, int32_t state, MPI_Request* requests, int n, Test test) {
  TestingView v;
  const pthread_t watcher = StartWatching(&v, call, WatchTesting);
  v.state = state;
  const uint64_t before = __atomic_load_n(&Root()->generation, __ATOMIC_ACQUIRE);
  while (!test()) {
  }
  v.done = true;
  pthread_join(watcher, nullptr);
  RT_CHECK(v.seen);
  if (!v.seen) return;
  RT_CHECK_EQ(v.record_state, MPIDBG_THREAD_NOT_IN_MPI);
  if (state == MPIDBG_THREAD_BLOCKED) RT_CHECK(v.generation != before);
  RT_CHECK_EQ(v.requests, U64(requests));
  RT_CHECK_EQ(v.request_count, n);
  const mpidbg_thread_record* me = MyThread();
  RT_CHECK(me != nullptr);
  if (me == nullptr) return;
  const auto* live = rtcheck::At<mpidbg_thread_live>(me->live);
  RT_CHECK(live != nullptr && live->requests == 0 && live->request_count == 0);
  RT_CHECK_EQ(rtcheck::ThreadNow(me).state, MPIDBG_THREAD_NOT_IN_MPI);
}

// Each Test-family call polled, and each Wait-family call waiting, until the peer's
// message arrives.
void CheckTestingThread() {
  struct Poll {
    int32_t call;
    int n;
  };
  const Poll polls[] = {{MPIDBG_CALL_MPI_Test, 1},    {MPIDBG_CALL_MPI_Testany, 3},
                        {MPIDBG_CALL_MPI_Testall, 1}, {MPIDBG_CALL_MPI_Testsome, 2},
                        {MPIDBG_CALL_MPI_Wait, 1},    {MPIDBG_CALL_MPI_Waitany, 3},
                        {MPIDBG_CALL_MPI_Waitall, 1}, {MPIDBG_CALL_MPI_Waitsome, 2}};
  int tag = 100;  // tags no other check uses (their orphans stay)
  for (const Poll& poll : polls) {
    MPI_Barrier(MPI_COMM_WORLD);
    int value = 0;
    if (rtcheck::g_rank == 1) {
      usleep(300 * 1000);
      value = tag;
      MPI_Send(&value, 1, MPI_INT, g_peer, tag, MPI_COMM_WORLD);
      ++tag;
      continue;
    }
    MPI_Request r[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(&value, 1, MPI_INT, g_peer, tag, MPI_COMM_WORLD, &r[0]);
    int flag = 0, index = 0, outcount = 0, indices[3];
    const bool waits = poll.call == MPIDBG_CALL_MPI_Wait || poll.call == MPIDBG_CALL_MPI_Waitany ||
                       poll.call == MPIDBG_CALL_MPI_Waitall || poll.call == MPIDBG_CALL_MPI_Waitsome;
    const int32_t state = waits ? MPIDBG_THREAD_BLOCKED : MPIDBG_THREAD_IN_MPI;
    CheckTestingCall(poll.call, state, r, poll.n, [&] {
      switch (poll.call) {
        case MPIDBG_CALL_MPI_Wait:
          MPI_Wait(&r[0], MPI_STATUS_IGNORE);
          return true;
        case MPIDBG_CALL_MPI_Waitany:
          MPI_Waitany(poll.n, r, &index, MPI_STATUS_IGNORE);
          return true;
        case MPIDBG_CALL_MPI_Waitall:
          MPI_Waitall(poll.n, r, MPI_STATUSES_IGNORE);
          return true;
        case MPIDBG_CALL_MPI_Waitsome:
          MPI_Waitsome(poll.n, r, &outcount, indices, MPI_STATUSES_IGNORE);
          return true;
        case MPIDBG_CALL_MPI_Test:
          MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
          return flag != 0;
        case MPIDBG_CALL_MPI_Testany:
          MPI_Testany(poll.n, r, &index, &flag, MPI_STATUS_IGNORE);
          return flag != 0;
        case MPIDBG_CALL_MPI_Testall:
          MPI_Testall(poll.n, r, &flag, MPI_STATUSES_IGNORE);
          return flag != 0;
        default:
          MPI_Testsome(poll.n, r, &outcount, indices, MPI_STATUSES_IGNORE);
          return outcount > 0;
      }
    });
    RT_CHECK_EQ(value, tag);
    RT_CHECK(r[0] == MPI_REQUEST_NULL);
    // Found done: no pending operation is left of it.
    for (const auto* o : Operations()) RT_CHECK(o->tag != tag);
    ++tag;
  }
}

// Many more posts than the ring holds, some sends completing at once (a handle MPI
// hands out again): nothing is left pending.
void CheckChurn() {
  const size_t before = PendingCount();
  for (int round = 0; round < 50; ++round) {
    int out[16], in[16];
    MPI_Request r[32];
    for (int i = 0; i < 16; ++i) {
      out[i] = i;
      MPI_Irecv(&in[i], 1, MPI_INT, g_peer, 90, MPI_COMM_WORLD, &r[i]);
    }
    for (int i = 0; i < 16; ++i) MPI_Isend(&out[i], 1, MPI_INT, g_peer, 90, MPI_COMM_WORLD, &r[16 + i]);
    MPI_Waitall(32, r, MPI_STATUSES_IGNORE);
  }
  RT_CHECK_EQ(PendingCount(), before);
  const traffic::Counts c = traffic::CountsOf(traffic::JobIdOf(MPI_COMM_WORLD), g_peer, 90);
  RT_CHECK_EQ(c.sends, 50u * 16u);
  RT_CHECK_EQ(c.receives, 50u * 16u);
}

// Posts whose envelopes alternate, as a halo exchange's swaps do, as many as a kind keeps
// memos of (so from the second round on each is copied from a memo of its own): each
// pending receive shows its own tag, count and size, and each send is counted under
// its own tag (a send copied from a memo counts into that memo's traffic entry).
void CheckAlternatingEnvelopes() {
  constexpr int kEnvelopes = 4;  // envelope e: tag 110 + e, 1 + e integers
  constexpr int kRounds = 3;
  constexpr int kPosts = kEnvelopes * kRounds;
  const uint64_t job = traffic::JobIdOf(MPI_COMM_WORLD);
  static int buffers[kPosts][kEnvelopes];
  MPI_Barrier(MPI_COMM_WORLD);
  if (rtcheck::g_rank == 0) {
    MPI_Request r[kPosts];
    for (int i = 0; i < kPosts; ++i) {
      const int e = i % kEnvelopes;
      MPI_Irecv(buffers[i], 1 + e, MPI_INT, g_peer, 110 + e, MPI_COMM_WORLD, &r[i]);
    }
    for (int i = 0; i < kPosts; ++i) {
      const int e = i % kEnvelopes;
      const mpidbg_operation_record* o = HeldRequestOp(U64(r[i]));
      RT_CHECK(o != nullptr);
      if (o == nullptr) continue;
      RT_CHECK_EQ(o->tag, 110 + e);
      RT_CHECK_EQ(o->count, 1 + e);
      RT_CHECK_EQ(o->bytes, 4 * (1 + e));
      RT_CHECK_EQ(o->peer, g_peer);
      RT_CHECK_EQ(o->buffer, rtcheck::Addr(buffers[i]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Waitall(kPosts, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < kPosts; ++i) RT_CHECK_EQ(buffers[i][i % kEnvelopes], 110 + i % kEnvelopes);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < kPosts; ++i) {
      const int e = i % kEnvelopes;
      for (int j = 0; j <= e; ++j) buffers[i][j] = 110 + e;
      MPI_Send(buffers[i], 1 + e, MPI_INT, g_peer, 110 + e, MPI_COMM_WORLD);
    }
    for (int e = 0; e < kEnvelopes; ++e) {
      const traffic::Counts c = traffic::CountsOf(job, g_peer, 110 + e);
      RT_CHECK_EQ(c.sends, static_cast<uint64_t>(kRounds));
      RT_CHECK_EQ(c.send_bytes, static_cast<uint64_t>(kRounds * 4 * (1 + e)));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  g_peer = 1 - rtcheck::g_rank;
  const char* ring = getenv("MPIDBG_FLIGHT_RING");
  g_rings = ring == nullptr || strcmp(ring, "0") != 0;
  RT_CHECK(Root() != nullptr);
  if (Root() == nullptr) return rtcheck::Finish("flight_ring_check");
  RT_CHECK_EQ(Root()->layout_version, MPIDBG_LAYOUT_VERSION);
  RT_CHECK_EQ(Root()->request_bytes,
              g_rings ? sizeof(mpidbg_flight_entry) + sizeof(void*) : Root()->request_bytes);
  if (g_rings) RT_CHECK(Root()->request_bytes <= 128);

  CheckPendingFields();
  CheckCompletionCalls();
  CheckCarried();
  CheckFreedRequest();
  CheckCompletedAtPost();
  CheckFreedDatatype();
  CheckFreedComm();
  CheckExitedPoster();
  CheckChurn();
  // After the checks that look requests up by handle: the orphan it frees keeps a
  // handle value MPI hands out again.
  CheckPersistentStarts();
  CheckPersistentHandleReuse();
  CheckBlockedThread();
  CheckTestingThread();
  // Last: its look-ups skip the orphans earlier checks leave under handle values MPI
  // hands out again (HeldRequestOp).
  CheckAlternatingEnvelopes();
  const int rc = rtcheck::Finish("flight_ring_check");
  MPI_Finalize();
  return rc;
}
