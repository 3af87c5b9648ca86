// traffic_counts_check — 2 ranks, MPI_Init (one thread: the runtime's unlocked mode).
// Exact traffic counts per (communicator, peer, tag) for known patterns, the send log,
// outstanding messages from counts joined across ranks, MPI_Message records, orphans of
// freed requests, and MPI_Isendrecv where MPI has it. Each pattern uses its own tags.
// Usage: traffic_counts_check <mpich|openmpi>.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "traffic_check.h"

using namespace traffic;
using rtcheck::U64;

namespace {

int g_peer = -1;
uint64_t g_world = 0;

void Sync() { MPI_Barrier(MPI_COMM_WORLD); }

void CheckHeader() {
  const mpidbg_traffic* t = Traffic();
  RT_CHECK(t != nullptr);
  if (t == nullptr) return;
  RT_CHECK_EQ(t->size, sizeof(mpidbg_traffic));
  RT_CHECK_EQ(t->entry_size, sizeof(mpidbg_traffic_entry));
  RT_CHECK_EQ(t->log_entry_size, sizeof(mpidbg_send_log_entry));
  RT_CHECK_EQ(t->capacity, 4096);
  RT_CHECK_EQ(t->log_capacity, 1024);
  RT_CHECK(t->entries != 0 && t->log != 0);
  // A request in a flight ring costs its entry and its slot of the direct-mapped table.
  RT_CHECK_EQ(Root()->request_bytes, sizeof(mpidbg_flight_entry) + sizeof(void*));
}

// Blocking sends (one synchronous) and receives with real statuses.
void Blocking() {
  int buf[4] = {1, 2, 3, 4};
  if (rtcheck::g_rank == 0) {
    MPI_Send(buf, 4, MPI_INT, 1, 101, MPI_COMM_WORLD);
    MPI_Send(buf, 4, MPI_INT, 1, 101, MPI_COMM_WORLD);
    MPI_Ssend(buf, 4, MPI_INT, 1, 101, MPI_COMM_WORLD);
    Counts c = CountsOf(g_world, 1, 101);
    RT_CHECK_EQ(c.found, 1);
    RT_CHECK_EQ(c.sends, 3);
    RT_CHECK_EQ(c.send_bytes, 48);
    RT_CHECK_EQ(c.receives, 0);
    RT_CHECK_EQ(c.peer_world, 1);
    std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(g_world, 1, 101);
    RT_CHECK_EQ(log.size(), 3);
    for (size_t i = 0; i < log.size(); ++i) {
      RT_CHECK_EQ(log[i].ordinal, i + 1);
      RT_CHECK_EQ(log[i].bytes, 16);
      RT_CHECK_EQ(log[i].count, 4);
      RT_CHECK_EQ(log[i].datatype, U64(MPI_INT));
      RT_CHECK_EQ(log[i].peer_world, 1);
      RT_CHECK(log[i].time_ns > 0);
      RT_CHECK_EQ(log[i].call, i < 2 ? MPIDBG_CALL_MPI_Send : MPIDBG_CALL_MPI_Ssend);
      RT_CHECK_EQ(log[i].mode, i < 2 ? MPIDBG_MODE_STANDARD : MPIDBG_MODE_SYNCHRONOUS);
    }
  } else {
    MPI_Status st;
    for (int i = 0; i < 3; ++i) MPI_Recv(buf, 4, MPI_INT, 0, 101, MPI_COMM_WORLD, &st);
    Counts c = CountsOf(g_world, 0, 101);
    RT_CHECK_EQ(c.found, 1);
    RT_CHECK_EQ(c.receives, 3);
    RT_CHECK_EQ(c.receive_bytes, 48);
    RT_CHECK_EQ(c.sends, 0);
    RT_CHECK_EQ(c.peer_world, 0);
  }
  Sync();
}

void Nonblocking() {
  int a[2] = {0, 0};
  MPI_Request r[2];
  if (rtcheck::g_rank == 0) {
    MPI_Isend(&a[0], 1, MPI_INT, 1, 102, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&a[1], 1, MPI_INT, 1, 102, MPI_COMM_WORLD, &r[1]);
    RT_CHECK_EQ(CountsOf(g_world, 1, 102).sends, 2);  // counted when posted
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 1, 102).sends, 2);
  } else {
    MPI_Irecv(&a[0], 1, MPI_INT, 0, 102, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&a[1], 1, MPI_INT, 0, 102, MPI_COMM_WORLD, &r[1]);
    RT_CHECK_EQ(CountsOf(g_world, 0, 102).receives, 0);  // counted at completion
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    Counts c = CountsOf(g_world, 0, 102);
    RT_CHECK_EQ(c.receives, 2);
    RT_CHECK_EQ(c.receive_bytes, 8);
  }
  Sync();
}

// Wildcard receives count under the actual source and tag, whatever status form.
void Wildcards() {
  int v[4] = {0, 0, 0, 0};
  if (rtcheck::g_rank == 0) {
    MPI_Send(v, 1, MPI_INT, 1, 103, MPI_COMM_WORLD);
    MPI_Send(v, 2, MPI_INT, 1, 104, MPI_COMM_WORLD);
    for (int i = 0; i < 4; ++i) MPI_Send(v, 1, MPI_INT, 1, 105, MPI_COMM_WORLD);
  } else {
    MPI_Recv(v, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(v, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 0, 103).receives, 1);
    RT_CHECK_EQ(CountsOf(g_world, 0, 104).receives, 1);
    RT_CHECK_EQ(CountsOf(g_world, 0, 104).receive_bytes, 8);
    RT_CHECK_EQ(CountsOf(g_world, MPIDBG_RANK_ANY_SOURCE, MPIDBG_TAG_ANY).found, 0);
    MPI_Request r[4];
    for (int i = 0; i < 4; ++i) MPI_Irecv(&v[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[i]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    for (int flag = 0; !flag;) MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE);
    int index = -1;
    MPI_Waitany(2, &r[2], &index, MPI_STATUS_IGNORE);
    for (int done = 1; done < 2;) {
      int outcount = 0, indices[2];
      MPI_Testsome(2, &r[2], &outcount, indices, MPI_STATUSES_IGNORE);
      if (outcount != MPI_UNDEFINED) done += outcount;
    }
    Counts c = CountsOf(g_world, 0, 105);
    RT_CHECK_EQ(c.found, 1);
    RT_CHECK_EQ(c.receives, 4);
    RT_CHECK_EQ(c.peer_world, 0);
  }
  Sync();
}

// Probes count nothing; the receive after them counts once.
void Probes() {
  int v = 0;
  if (rtcheck::g_rank == 0) {
    MPI_Send(&v, 1, MPI_INT, 1, 106, MPI_COMM_WORLD);
  } else {
    MPI_Status st;
    MPI_Probe(0, 106, MPI_COMM_WORLD, &st);
    int flag = 0;
    while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, 106, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 0, 106).receives, 0);
    MPI_Recv(&v, 1, MPI_INT, 0, 106, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 0, 106).receives, 1);
  }
  Sync();
}

const mpidbg_message_record* MessageRecord(uint64_t handle, bool live_only) {
  return rtcheck::FindObject<mpidbg_message_record>(Root()->messages, handle, live_only);
}

// Matched probes count as the receive; the message-handle receives do not count again.
// Message records: MATCHED at the probe, RECEIVED and freed when consumed.
void MatchedProbes() {
  int v[3] = {7, 8, 9};
  if (rtcheck::g_rank == 0) {
    MPI_Send(v, 3, MPI_INT, 1, 107, MPI_COMM_WORLD);
    MPI_Send(v, 2, MPI_INT, 1, 107, MPI_COMM_WORLD);
  } else {
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    MPI_Mprobe(MPI_ANY_SOURCE, 107, MPI_COMM_WORLD, &msg, &st);
    RT_CHECK_EQ(CountsOf(g_world, 0, 107).receives, 1);
    const uint64_t h = U64(msg);
    const mpidbg_message_record* m = MessageRecord(h, true);
    RT_CHECK(m != nullptr);
    if (m != nullptr) {
      RT_CHECK_EQ(m->state, MPIDBG_MESSAGE_MATCHED);
      RT_CHECK_EQ(m->source, 0);
      RT_CHECK_EQ(m->source_world, 0);
      RT_CHECK_EQ(m->tag, 107);
      RT_CHECK_EQ(m->bytes, 12);
      RT_CHECK_EQ(m->comm_job_id, g_world);
      RT_CHECK_EQ(m->comm_handle, U64(MPI_COMM_WORLD));
      RT_CHECK_EQ(m->obj.creator, MPIDBG_CALL_MPI_Mprobe);
      RT_CHECK_EQ(m->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_MESSAGE_NO_PROC), 0);
    }
    MPI_Mrecv(v, 3, MPI_INT, &msg, MPI_STATUS_IGNORE);
    RT_CHECK(msg == MPI_MESSAGE_NULL);
    RT_CHECK_EQ(CountsOf(g_world, 0, 107).receives, 1);
    RT_CHECK(MessageRecord(h, true) == nullptr);
    m = MessageRecord(h, false);
    RT_CHECK(m != nullptr);
    if (m != nullptr) {
      RT_CHECK_EQ(m->state, MPIDBG_MESSAGE_RECEIVED);
      RT_CHECK_EQ(m->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                  MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
      RT_CHECK(m->obj.free_serial > 0);
    }

    int flag = 0;
    while (!flag) MPI_Improbe(0, 107, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 0, 107).receives, 2);
    m = MessageRecord(U64(msg), true);
    RT_CHECK(m != nullptr && m->obj.creator == MPIDBG_CALL_MPI_Improbe && m->bytes == 8 &&
             m->state == MPIDBG_MESSAGE_MATCHED);
    const uint64_t h2 = U64(msg);
    MPI_Request r;
    MPI_Imrecv(v, 3, MPI_INT, &msg, &r);
    m = MessageRecord(h2, false);
    RT_CHECK(m != nullptr && m->state == MPIDBG_MESSAGE_RECEIVED &&
             (m->obj.hdr.flags & MPIDBG_REC_FREED));
    std::vector<const mpidbg_operation_record*> ops = OpsOf(U64(r));
    RT_CHECK_EQ(ops.size(), 1);
    if (ops.size() == 1) {
      RT_CHECK_EQ(ops[0]->status, MPIDBG_OPERATION_MATCHED);
      RT_CHECK_EQ(ops[0]->peer, 0);
      RT_CHECK_EQ(ops[0]->tag, 107);
      RT_CHECK_EQ(ops[0]->comm_job_id, g_world);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(CountsOf(g_world, 0, 107).receives, 2);
  }
  Sync();
}

// Traffic with MPI_PROC_NULL is not counted; a probe of it gives an MPI_MESSAGE_NO_PROC record.
void ProcNull() {
  int v = 0;
  MPI_Request r[2];
  MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 108, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 108, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 108, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 108, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 108, &v, 1, MPI_INT, MPI_PROC_NULL, 108,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  MPI_Mprobe(MPI_PROC_NULL, 108, MPI_COMM_WORLD, &msg, &st);
  RT_CHECK(msg == MPI_MESSAGE_NO_PROC);
  const mpidbg_message_record* m = MessageRecord(U64(msg), true);
  RT_CHECK(m != nullptr);
  if (m != nullptr) {
    RT_CHECK(m->obj.hdr.flags & MPIDBG_MESSAGE_NO_PROC);
    RT_CHECK_EQ(m->source, MPIDBG_RANK_PROC_NULL);
  }
  MPI_Mrecv(&v, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  for (const auto& e : Entries()) {
    RT_CHECK(e.tag != 108);
    RT_CHECK(e.peer >= 0);
  }
  for (const auto& s : LoggedSends()) RT_CHECK(s.tag != 108);
  Sync();
}

void Sendrecvs() {
  int out = rtcheck::g_rank, in = -1;
  MPI_Status st;
  MPI_Sendrecv(&out, 1, MPI_INT, g_peer, 109 + rtcheck::g_rank, &in, 1, MPI_INT, g_peer,
               109 + g_peer, MPI_COMM_WORLD, &st);
  MPI_Sendrecv_replace(&out, 1, MPI_INT, g_peer, 111, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Counts s = CountsOf(g_world, g_peer, 109 + rtcheck::g_rank);
  Counts r = CountsOf(g_world, g_peer, 109 + g_peer);
  Counts x = CountsOf(g_world, g_peer, 111);
  RT_CHECK_EQ(s.sends, 1);
  RT_CHECK_EQ(s.receives, 0);
  RT_CHECK_EQ(r.receives, 1);
  RT_CHECK_EQ(r.sends, 0);
  RT_CHECK_EQ(x.sends, 1);
  RT_CHECK_EQ(x.receives, 1);
  std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(g_world, g_peer, 111);
  RT_CHECK(log.size() == 1 && log[0].call == MPIDBG_CALL_MPI_Sendrecv_replace && log[0].ordinal == 1);
  Sync();
}

void Persistent() {
  double d[2] = {0, 0};
  MPI_Request r;
  if (rtcheck::g_rank == 0) {
    MPI_Send_init(d, 2, MPI_DOUBLE, 1, 112, MPI_COMM_WORLD, &r);
    RT_CHECK_EQ(CountsOf(g_world, 1, 112).sends, 0);  // not posted yet
    for (int i = 0; i < 3; ++i) {
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    Counts c = CountsOf(g_world, 1, 112);
    RT_CHECK_EQ(c.sends, 3);
    RT_CHECK_EQ(c.send_bytes, 48);
    std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(g_world, 1, 112);
    RT_CHECK(log.size() == 3 && log[2].ordinal == 3 && log[2].call == MPIDBG_CALL_MPI_Send_init);
  } else {
    MPI_Recv_init(d, 2, MPI_DOUBLE, 0, 112, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 3; ++i) {
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    RT_CHECK_EQ(CountsOf(g_world, 0, 112).receives, 3);
  }
  MPI_Request_free(&r);
  Sync();
}

// Counts joined across ranks tell how many messages are still unreceived, and the
// sender's log names them: the last ones to (comm, receiver, tag).
void Outstanding() {
  const int tag = 113;
  int payload[3] = {1, 2, 3};
  if (rtcheck::g_rank == 0) {
    MPI_Request r[3];
    for (int i = 0; i < 3; ++i) MPI_Isend(&payload[i], 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &r[i]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);  // eager: complete though not received
  }
  Sync();
  for (int received = 0; received <= 3; ++received) {
    if (received > 0 && rtcheck::g_rank == 1) {
      int v = 0;
      MPI_Recv(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      RT_CHECK_EQ(v, received);  // non-overtaking: the oldest outstanding arrives first
    }
    // Rank 0's sends to 1 and rank 1's receives from 0, as a host joins them.
    uint64_t mine[2] = {CountsOf(g_world, 1, tag).sends, CountsOf(g_world, 0, tag).receives};
    uint64_t all[4];
    MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, MPI_COMM_WORLD);
    const uint64_t sent = all[0], got = all[3];
    RT_CHECK_EQ(sent, 3);
    RT_CHECK_EQ(got, received);
    if (rtcheck::g_rank == 0) {
      std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(g_world, 1, tag);
      RT_CHECK_EQ(log.size(), 3);
      // The outstanding ones are ordinals got+1 .. sent.
      int outstanding = 0;
      for (const auto& s : log) outstanding += s.ordinal > got ? 1 : 0;
      RT_CHECK_EQ(outstanding, 3 - received);
    }
  }
  Sync();
}

// A cancelled receive is not counted.
void Cancelled() {
  if (rtcheck::g_rank == 1) {
    int v = 0;
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&v, 1, MPI_INT, 0, 114, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    RT_CHECK(cancelled);
    RT_CHECK_EQ(CountsOf(g_world, 0, 114).receives, 0);
    // Also through MPI_STATUS_IGNORE.
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 114, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (const auto& e : Entries()) RT_CHECK(e.tag != 114);
  }
  Sync();
}

// MPI_Request_free of an active request: the record stays, FREED, as an orphan; it is
// marked RELEASED once MPI hands the same handle out again.
void FreedRequests() {
  const uint64_t orphans_before = Root()->orphan_count;
  if (rtcheck::g_rank == 0) {
    int v = 5;
    MPI_Request r;
    MPI_Isend(&v, 1, MPI_INT, 1, 115, MPI_COMM_WORLD, &r);
    const uint64_t h = U64(r);
    const uint64_t free_counter = Root()->free_counter;
    MPI_Request_free(&r);
    RT_CHECK(r == MPI_REQUEST_NULL);
    std::vector<const mpidbg_operation_record*> ops = OpsOf(h, true);
    RT_CHECK_EQ(ops.size(), 1);
    const mpidbg_operation_record* freed = ops.empty() ? nullptr : ops[0];
    if (freed != nullptr) {
      RT_CHECK(freed->hdr.flags & MPIDBG_REC_FREED);
      RT_CHECK_EQ(freed->hdr.flags & MPIDBG_REC_RELEASED, 0);
      RT_CHECK(freed->free_serial > free_counter);
      RT_CHECK_EQ(freed->tag, 115);
      RT_CHECK_EQ(freed->direction, MPIDBG_OPERATION_SEND);
    }
    RT_CHECK_EQ(Root()->orphan_count, orphans_before + 1);
    MPI_Send(&v, 1, MPI_INT, 1, 116, MPI_COMM_WORLD);  // rank 1 has received tag 115
    MPI_Recv(&v, 1, MPI_INT, 1, 116, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // MPI reuses request handles once it is done with them.
    bool released = false;
    for (int i = 0; i < 2000 && !released && freed != nullptr; ++i) {
      int a = i, b = -1;
      MPI_Request q[2];
      MPI_Irecv(&b, 1, MPI_INT, 0, 117, MPI_COMM_WORLD, &q[0]);
      MPI_Isend(&a, 1, MPI_INT, 0, 117, MPI_COMM_WORLD, &q[1]);
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      released = freed->hdr.kind == MPIDBG_KIND_OPERATION && freed->request == h &&
                 (freed->hdr.flags & MPIDBG_REC_RELEASED) != 0;
    }
    RT_CHECK(released);

    // An inactive persistent request goes at once; a started one is orphaned.
    MPI_Request p;
    MPI_Send_init(&v, 1, MPI_INT, 1, 118, MPI_COMM_WORLD, &p);
    const uint64_t ph = U64(p);
    MPI_Request_free(&p);
    for (const auto* o : OpsOf(ph, true)) RT_CHECK(o->tag != 118);
    MPI_Send_init(&v, 1, MPI_INT, 1, 118, MPI_COMM_WORLD, &p);
    const uint64_t ph2 = U64(p);
    MPI_Start(&p);
    MPI_Request_free(&p);
    int started_orphans = 0;
    for (const auto* o : OpsOf(ph2, true)) {
      if (o->tag != 118) continue;
      ++started_orphans;
      RT_CHECK(o->hdr.flags & MPIDBG_REC_FREED);
      RT_CHECK(o->hdr.flags & MPIDBG_OPERATION_PERSISTENT);
    }
    RT_CHECK_EQ(started_orphans, 1);
    MPI_Send(&v, 1, MPI_INT, 1, 119, MPI_COMM_WORLD);
  } else {
    int v = 0;
    MPI_Recv(&v, 1, MPI_INT, 0, 115, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    RT_CHECK_EQ(v, 5);
    MPI_Recv(&v, 1, MPI_INT, 0, 116, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, 0, 116, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 0, 118, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&v, 1, MPI_INT, 0, 119, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  Sync();
}

void Buffered() {
  if (rtcheck::g_rank == 0) {
    static char attached[1024 + MPI_BSEND_OVERHEAD];
    MPI_Buffer_attach(attached, sizeof attached);
    int v = 1;
    MPI_Bsend(&v, 1, MPI_INT, 1, 120, MPI_COMM_WORLD);
    void* out = nullptr;
    int size = 0;
    MPI_Buffer_detach(&out, &size);
    std::vector<mpidbg_send_log_entry> log = LoggedSendsTo(g_world, 1, 120);
    RT_CHECK(log.size() == 1 && log[0].mode == MPIDBG_MODE_BUFFERED &&
             log[0].call == MPIDBG_CALL_MPI_Bsend);
  } else {
    int v = 0;
    MPI_Recv(&v, 1, MPI_INT, 0, 120, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  Sync();
}

// MPI_Isendrecv (MPI-4): one request, a receive record and its send companion.
void Isendrecv() {
#if MPI_VERSION >= 4
  int out = rtcheck::g_rank, in = -1;
  MPI_Request r;
  MPI_Isendrecv(&out, 1, MPI_INT, g_peer, 121, &in, 1, MPI_INT, g_peer, 121, MPI_COMM_WORLD, &r);
  std::vector<const mpidbg_operation_record*> ops = OpsOf(U64(r));
  RT_CHECK_EQ(ops.size(), 2);
  int sends = 0, recvs = 0;
  for (const auto* o : ops) {
    RT_CHECK_EQ(o->call, MPIDBG_CALL_MPI_Isendrecv);
    RT_CHECK_EQ(o->peer, g_peer);
    RT_CHECK_EQ(o->tag, 121);
    sends += o->direction == MPIDBG_OPERATION_SEND;
    recvs += o->direction == MPIDBG_OPERATION_RECV;
  }
  RT_CHECK(sends == 1 && recvs == 1);
  RT_CHECK_EQ(CountsOf(g_world, g_peer, 121).sends, 1);
  const uint64_t h = U64(r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  RT_CHECK(OpsOf(h).empty());
  RT_CHECK_EQ(in, g_peer);
  Counts c = CountsOf(g_world, g_peer, 121);
  RT_CHECK(c.sends == 1 && c.receives == 1);
  MPI_Isendrecv_replace(&out, 1, MPI_INT, g_peer, 122, g_peer, 122, MPI_COMM_WORLD, &r);
  RT_CHECK_EQ(OpsOf(U64(r)).size(), 2);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  c = CountsOf(g_world, g_peer, 122);
  RT_CHECK(c.sends == 1 && c.receives == 1);
  Sync();
#endif
}

// A communicator of its own: counts under its job id, peers as its ranks.
void OtherCommunicator() {
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -rtcheck::g_rank, &rev);  // ranks reversed
  const uint64_t id = JobIdOf(rev);
  int my = -1;
  MPI_Comm_rank(rev, &my);
  int v = 0;
  MPI_Sendrecv(&v, 1, MPI_INT, 1 - my, 123, &v, 1, MPI_INT, 1 - my, 123, rev, MPI_STATUS_IGNORE);
  Counts c = CountsOf(id, 1 - my, 123);
  RT_CHECK(c.sends == 1 && c.receives == 1);
  RT_CHECK_EQ(c.peer_world, g_peer);
  RT_CHECK_EQ(CountsOf(g_world, g_peer, 123).found, 0);
  MPI_Comm_free(&rev);
  Sync();
}

void FinalChecks() {
  const mpidbg_traffic* t = Traffic();
  if (t == nullptr) return;
  RT_CHECK_EQ(t->dropped, 0);
  RT_CHECK_EQ(t->used, Entries().size());
  // Every logged send has a counter entry whose sends reach its ordinal.
  for (const auto& s : LoggedSends()) {
    Counts c = CountsOf(s.comm_job_id, s.peer, s.tag);
    RT_CHECK(c.found == 1 && c.sends >= s.ordinal && s.ordinal >= 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || Root() == nullptr) {
    fprintf(stderr, "traffic_counts_check: needs 2 ranks and the runtime\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  (void)argc;
  g_peer = 1 - rtcheck::g_rank;
  g_world = JobIdOf(MPI_COMM_WORLD);
  RT_CHECK(g_world != 0);
  CheckHeader();
  Blocking();
  Nonblocking();
  Wildcards();
  Probes();
  MatchedProbes();
  ProcNull();
  Sendrecvs();
  Persistent();
  Outstanding();
  Cancelled();
  FreedRequests();
  Buffered();
  Isendrecv();
  OtherCommunicator();
  FinalChecks();
  const int rc = rtcheck::Finish("traffic_counts_check");
  MPI_Finalize();
  return rc;
}
