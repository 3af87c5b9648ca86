// hooks_p2p.cc — point-to-point calls other than the plain blocking and nonblocking ones
// and Sendrecv (those are inline in hooks_p2p.h, which describes what every call
// records): MPI_Isendrecv, persistent requests and their starts, probes and message
// handles, request free and cancel; and the flight memos' search on a miss.
//
// HOT PATH: no heap allocation, no system call; PMPI_* only. operation records take the
// request registry's spinlock only under MPI_THREAD_MULTIPLE; blocking calls take none.
#include <string.h>

#include "core/normalise.h"
#include "rt/hot/comm_cache.h"
#include "rt/hot/completed_request.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/hot/hooks.h"
#include "rt/hot/hooks_p2p.h"
#include "rt/hot/message_registry.h"
#include "rt/hot/flight_ring.h"
#include "rt/hot/operation_registry.h"
#include "rt/hot/operation_slots.h"
#include "rt/partitions/partition_registry.h"
#include "rt/process/registry.h"
#include "rt/hot/traffic.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {

const CommView kNoCommView;

RecalledMemo RecallFlightMemo(ThreadState* ts, int kind, RequestMemoKey key) {
  FlightMemo* memos = ts->flight_memo[kind];
  for (uint32_t i = 1; i < kFlightMemoWays; ++i) {
    const RequestMemoKey& k = memos[i].key;
    if (k.count_call == key.count_call && k.peer_tag == key.peer_tag &&
        k.datatype == key.datatype && k.comm == key.comm && k.job_id == key.job_id) {
      return {&memos[i], true};
    }
  }
  // The first (the envelope described last, the one a loop of one envelope hits inline)
  // is described over; what it held moves over the oldest of the others.
  if (memos[0].key.count_call != MemoKey(0, MPIDBG_CALL_NONE)) {
    uint8_t& victim = ts->flight_memo_victim[kind];
    victim = static_cast<uint8_t>(victim % (kFlightMemoWays - 1) + 1);
    memos[victim] = memos[0];
  }
  return {&memos[0], false};
}

namespace {

// A probe that matched a message handle: its record, and the receive it stands for.
void MessageMatched(ThreadState* ts, int32_t call, P2pArgs& a) {
  if (a.message == nullptr || *a.message == MPI_MESSAGE_NULL) return;
  MPI_Status* status = a.status != nullptr ? *a.status : nullptr;
  if (status == nullptr || status == MPI_STATUS_IGNORE) return;
  RecordMatchedMessage(*a.message, call, *a.view, *status);
  if (*a.message != MPI_MESSAGE_NO_PROC) {
    DescribeEnvelope(ts, a);
    CountCompletedReceive(ts, a, status);
  }
}

}  // namespace

MessageComm ResolveMessageComm(ThreadState* ts, uint64_t message) {
  MessageEnvelope m;
  if (!FindMessage(message, &m)) {
    ts->message_source = ts->message_source_world = MPIDBG_RANK_UNKNOWN;
    ts->message_tag = MPIDBG_TAG_ANY;
    return MessageComm{&kNoCommView, message};
  }
  ts->message_view = CommView{};
  ts->message_view.handle = m.comm_handle;
  ts->message_view.job_id = m.comm_job_id;
  ts->message_source = m.source;
  ts->message_source_world = m.source_world;
  ts->message_tag = m.tag;
  return MessageComm{&ts->message_view, message};
}

void PostMessageBlocking(ThreadState* ts, int32_t call, P2pArgs a, int rc) {
  if (a.direction == MPIDBG_OPERATION_PROBE) {
    if (rc == MPI_SUCCESS) MessageMatched(ts, call, a);
  } else {
    ConsumeIfGone(a.saved_message, a.message, rc);
  }
}

void ConsumeIfGone(uint64_t saved_message, const MPI_Message* message, int rc) {
  if (saved_message != 0 && (rc == MPI_SUCCESS || *message == MPI_MESSAGE_NULL)) {
    ConsumeMessage(saved_message);
  }
}

void PreSendrecvNonblocking(CallScope& scope, SendrecvArgs& args) {
  ResolveComm(scope, args.send);
  args.recv.view = args.send.view;
}

// MPI_Isendrecv(_replace): one request, two records — the receive half (what the
// request's completion and status report) and the send half as its companion.
void PostSendrecvNonblocking(CallScope& scope, SendrecvArgs& args, int rc) {
  MPI_Request* request = args.send.request;
  if (rc != MPI_SUCCESS || request == nullptr || *request == MPI_REQUEST_NULL) return;
  ThreadState* ts = scope.thread();
  const int32_t call = scope.call();
  mpidbg_operation_record* recv = OpenOperationRecord(ts, 0);
  if (recv == nullptr) return;
  mpidbg_operation_record* send = OpenOperationRecord(ts, 0);
  const uint64_t handle = HandleToU64(*request);
  DescribeEnvelope(ts, args.recv);
  FillConstants(recv, ts);
  FillEnvelope(recv, ts, call, args.recv, DatatypeOf(ts, args.recv.datatype));
  recv->request = handle;
  if (send != nullptr) {
    DescribeEnvelope(ts, args.send);
    const DatatypeInfo& type = DatatypeOf(ts, args.send.datatype);
    FillConstants(send, ts);
    FillEnvelope(send, ts, call, args.send, type);
    send->request = handle;
    CountSend(ts, SendOf(ts, call, args.send, type));
  }
  IndexRequest(ts, handle, recv, send);
}

CallComm PreP2pPersistent(CallFacts call, P2pArgs& args) {
  return ResolveCallComm(call.thread, args);
}

void PostP2pPersistent(CallFacts call, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  PostOperationRecord(call.thread, call.call, args, MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE,
                false);
}

void PreStart(CallFacts, StartArgs&) {}

namespace {

// Whether a start of the request `op` records is an entry of the thread's flight ring
// (records.h, MPIDBG_FLIGHT_START): an inactive persistent point-to-point request, not a
// partitioned one (its rounds are kept beside its record, rt/partitions/) nor a
// persistent collective.
bool StartsInRing(const mpidbg_operation_record& op) {
  constexpr uint32_t kBoth = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  return (op.hdr.flags & kBoth) == kBoth &&
         (op.direction == MPIDBG_OPERATION_SEND || op.direction == MPIDBG_OPERATION_RECV) &&
         op.call != MPIDBG_CALL_MPI_Psend_init && op.call != MPIDBG_CALL_MPI_Precv_init;
}

// The start of the persistent request `op` describes (its record, or the entry of its
// last start, which holds the same envelope), as an entry of the thread's ring: the
// envelope, this start's serial and time; a send counted (the entry is its logged
// send). The record stays INACTIVE; completion finds the entry through the map and
// marks it DONE, as a nonblocking request's. False when the thread has no ring.
template <typename Envelope>
bool PostStartEntry(ThreadState* ts, const Envelope& op) {
  mpidbg_flight_entry* e = OpenFlightEntry<false>(ts, op.request);
  if (e == nullptr) return false;
  // `op` may be the entry `e` itself (the ring came round to the last start): only the
  // fields OpenFlightEntry wrote differ, and every other one is copied onto itself.
  e->flags = MPIDBG_FLIGHT_START;
  e->direction = op.direction;
  e->mode = op.mode;
  e->call = op.call;
  e->peer = op.peer;
  e->peer_world = op.peer_world;
  e->tag = op.tag;
  e->comm_handle = op.comm_handle;
  e->comm_job_id = op.comm_job_id;
  e->buffer = op.buffer;
  e->datatype = op.datatype;
  e->count = op.count;
  e->bytes = op.bytes;
  e->post_serial = NextPostSerialPlain();
  e->post_time_ns = ts->live.entry_time_ns;
  e->create_pc = op.create_pc;
  e->ordinal = op.direction == MPIDBG_OPERATION_SEND ? CountRingSend(ts, SendOf(*e)) : 0;
  PublishFlightEntry(ts, e);
  return true;
}

// The completed entry of the request's last start, while the map still holds it: a
// persistent request's envelope never changes, and the map forgets the handle when the
// request is freed (PostRequestFree), so the entry describes this very request and the
// start needs no look-up of its record. nullptr otherwise.
const mpidbg_flight_entry* LastStart(uint64_t request) {
  const mpidbg_flight_entry* e = g_flight_map[FlightSlot(request)];
  if (e == nullptr || e->request != request || (e->flags & MPIDBG_FLIGHT_START) == 0 ||
      e->state != MPIDBG_FLIGHT_DONE) {
    return nullptr;
  }
  return e;
}

}  // namespace

void PostStart(CallFacts call, StartArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.requests == nullptr) return;
  ThreadState* ts = call.thread;
  // Partitioned requests (rt/partitions/) are rare: one relaxed load when there are none.
  const bool partitioned = __atomic_load_n(&g_partitioned_requests, __ATOMIC_RELAXED) != 0;
  // Flight rings are kept only below MPI_THREAD_MULTIPLE (flight_ring.h).
  const bool rings = !core::Concurrent();
  for (int i = 0; i < args.count; ++i) {
    const uint64_t request = HandleToU64(args.requests[i]);
    if (rings) {
      const mpidbg_flight_entry* last = LastStart(request);
      if (last != nullptr && PostStartEntry(ts, *last)) continue;
    }
    mpidbg_operation_record* op = FindOperationRecord(request);
    if (op != nullptr && rings && StartsInRing(*op) && PostStartEntry(ts, *op)) continue;
    if (op != nullptr) {
      StartOperationRecord(op, ts->tid);
      if (op->direction == MPIDBG_OPERATION_SEND) CountSend(ts, EnvelopeOf(*op));
    }
    if (partitioned) StartPartitionRound(request);
  }
}

CallComm PreIprobe(CallFacts call, P2pArgs& args) {
  const CallComm comm = ResolveCallComm(call.thread, args);
  if (args.message != nullptr) KeepStatus(args, &call.thread->own_status[0]);
  return comm;
}

void PostIprobe(CallFacts call, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.flag == nullptr || *args.flag == 0) return;
  MessageMatched(call.thread, call.call, args);
}

void PreRequestFree(CallFacts call, RequestFreeArgs& args) {
  if (args.request == nullptr) return;
  args.saved = HandleToU64(*args.request);
  // A request in a flight ring gets its record first: a freed active request is kept as
  // an orphan record. Of a shared completed request handle, the thread's last post under
  // it is the one freed (completed_request.h).
  if (!core::Concurrent()) {
    mpidbg_flight_entry* e = CompletedRequestHandle(args.saved)
                                 ? LastCompletedPost(call.thread, args.saved)
                                 : FindFlight(args.saved);
    if (e != nullptr) CarryFlightEntry(call.thread, e);
  }
  PrepareRequestFree(args.saved, &args.ticket);
}

void PostRequestFree(CallFacts, RequestFreeArgs& args, int rc) {
  if (args.saved == 0) return;
  FinishRequestFree(args.saved, args.ticket, rc == MPI_SUCCESS);
  // MPI may hand the handle out again for another request, whose starts must not copy
  // this one's envelope (LastStart).
  if (rc == MPI_SUCCESS && !core::Concurrent()) ForgetFlightHandle(args.saved);
  if (rc == MPI_SUCCESS && __atomic_load_n(&g_partitioned_requests, __ATOMIC_RELAXED) != 0) {
    ForgetPartitioned(args.saved);
  }
}

void PreCancel(CallFacts, CancelArgs&) { NoteCancelRequested(); }

void PostCancel(CallFacts, CancelArgs&, int) {}

}  // namespace mpidbg::rt
