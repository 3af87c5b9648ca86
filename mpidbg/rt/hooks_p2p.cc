// hooks_p2p.cc — point-to-point calls: blocking envelopes, requests, persistent start,
// probes and message handles, and the traffic counts of sends and receives.
//
// HOT PATH: no heap allocation, no system call; PMPI_* only. Request records take the
// op registry's spinlock only under MPI_THREAD_MULTIPLE; blocking calls take none.
// Each call describes its operation once (normalised peer and tag, the peer's world
// rank, the datatype from the thread's cache) and the op record, the traffic count and
// the send log all take it from there.
//
// Traffic (rt/traffic.h): a send is counted when it is posted (here, before a blocking
// send enters MPI, so a send stuck in MPI is already counted); a receive when it
// completes, from its status (here for blocking receives, in hooks_completion.cc for
// requests); a matched MPI_Mprobe/Improbe counts as the receive, so MPI_Mrecv/Imrecv
// count nothing. Probes that do not match count nothing.
#include <string.h>

#include "core/normalise.h"
#include "rt/comm_cache.h"
#include "rt/comm_registry.h"
#include "rt/datatype_info.h"
#include "rt/handles.h"
#include "rt/hooks.h"
#include "rt/message_registry.h"
#include "rt/op_registry.h"
#include "rt/registry.h"
#include "rt/traffic.h"
#include "rt/type_cache.h"

namespace mpidbg::rt {
namespace {

const CommView kNoComm;

int32_t NormalisedPeer(const P2pArgs& a) {
  return a.peer == kAbsent ? MPIDBG_RANK_UNKNOWN : core::NormaliseRank(a.peer, kEncodings);
}

// The peer's world rank (comm_registry's PeerWorld, inline: it runs per message).
int32_t WorldOf(const CommView& v, int32_t peer) {
  if (peer < 0) return peer;
  if (v.inter) return core::PeerWorldRank(peer, v.remote_world_ranks, v.remote_size);
  return core::PeerWorldRank(peer, v.world_ranks, v.size);
}

// Writes every field of an opened op record for the call (the same fields as FillOp,
// without an intermediate description: this runs for every point-to-point call).
void Fill(mpidbg_op_record* rec, ThreadState* ts, int32_t call, const P2pArgs& a) {
  static_assert(sizeof(mpidbg_op_record) == 224, "Fill writes every op record field");
  const DatatypeInfo& type = DatatypeOf(ts, a.datatype);
  const CommView& v = *a.view;
  rec->request = 0;
  rec->comm_handle = v.handle;
  // Other areas scan op records for these two fields with atomic loads.
  __atomic_store_n(&rec->comm_job_id, v.job_id, __ATOMIC_RELAXED);
  rec->post_serial = NextPostSerialHot();
  rec->buffer = AddressOf(a.buf);
  __atomic_store_n(&rec->datatype, a.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(a.datatype),
                   __ATOMIC_RELAXED);
  rec->count = a.count;
  rec->bytes = a.count * type.size;
  rec->tid = ts->tid;
  rec->post_time_ns = ts->entry_time_ns;
  rec->actual_bytes = 0;
  rec->call = call;
  rec->direction = a.direction;
  rec->mode = a.direction == MPIDBG_OP_SEND ? a.mode : MPIDBG_MODE_NONE;
  if (a.message != nullptr && a.direction == MPIDBG_OP_RECV) {
    // A message-handle receive (Mrecv/Imrecv) was matched by the probe before it.
    rec->status = MPIDBG_OP_MATCHED;
    rec->peer = rec->actual_source = ts->message_source;
    rec->peer_world = ts->message_source_world;
    rec->tag = rec->actual_tag = ts->message_tag;
  } else {
    rec->status = MPIDBG_OP_PENDING;
    rec->peer = NormalisedPeer(a);
    rec->peer_world = WorldOf(v, rec->peer);
    rec->tag = a.tag == kAbsent ? MPIDBG_TAG_ANY : core::NormaliseTag(a.tag, kEncodings);
    rec->actual_source = MPIDBG_RANK_UNKNOWN;
    rec->actual_tag = MPIDBG_TAG_ANY;
  }
  rec->reserved = 0;
  memcpy(rec->datatype_name, type.name, sizeof rec->datatype_name);
  rec->object = 0;
  rec->free_serial = 0;
  rec->file_offset = -1;
  rec->target_disp = 0;
  rec->extra_state = 0;
  rec->query_fn = 0;
}

// The call's blocking op record in the thread's slot `which`; its address (0 if none).
const mpidbg_op_record* PostBlocking(ThreadState* ts, int which, int32_t call, const P2pArgs& a) {
  mpidbg_op_record* rec = OpenBlockingOp(ts, which);
  if (rec == nullptr) return nullptr;
  Fill(rec, ts, call, a);
  CloseOp(rec);
  return rec;
}

// A request record for the call, indexed under *a.request; returns it (nullptr if none).
const mpidbg_op_record* PostRequest(ThreadState* ts, int32_t call, const P2pArgs& a,
                                    uint32_t flags) {
  mpidbg_op_record* rec = OpenRequestOp(ts, flags);
  if (rec == nullptr) return nullptr;
  Fill(rec, ts, call, a);
  const uint64_t request = HandleToU64(*a.request);
  rec->request = request;
  IndexRequest(ts, request, rec, nullptr);
  return rec;
}

// The call's communicator (or, for Mrecv/Imrecv, the matched message's) in a.view, and
// in the thread record.
void ResolveComm(CallScope& scope, P2pArgs& a) {
  ThreadState* ts = scope.thread();
  if (a.comm != MPI_COMM_NULL) {
    a.view = &CommViewOf(ts, a.comm);
    scope.SetComm(*a.view);
    return;
  }
  a.view = &kNoComm;
  if (a.message == nullptr || a.direction != MPIDBG_OP_RECV) return;
  a.saved_message = HandleToU64(*a.message);
  MessageEnvelope m;
  if (!FindMessage(a.saved_message, &m)) {
    ts->message_source = ts->message_source_world = MPIDBG_RANK_UNKNOWN;
    ts->message_tag = MPIDBG_TAG_ANY;
    return;
  }
  ts->message_view = CommView{};
  ts->message_view.handle = m.comm_handle;
  ts->message_view.job_id = m.comm_job_id;
  ts->message_source = m.source;
  ts->message_source_world = m.source_world;
  ts->message_tag = m.tag;
  a.view = &ts->message_view;
  scope.SetComm(*a.view);
}

// The status MPI will write, substituting the thread's own for MPI_STATUS_IGNORE.
void KeepStatus(P2pArgs& a, MPI_Status* own) {
  if (a.status != nullptr && *a.status == MPI_STATUS_IGNORE) *a.status = own;
}

void CountCompletedReceive(ThreadState* ts, const P2pArgs& a, const MPI_Status* status) {
  if (status == nullptr || status == MPI_STATUS_IGNORE) return;
  SourceHint hint;
  hint.peer = NormalisedPeer(a);
  hint.peer_world = WorldOf(*a.view, hint.peer);
  hint.comm = a.view;
  CountReceive(ts, a.view->job_id, *status, hint);
}

// A probe that matched a message handle: its record, and the receive it stands for.
void MessageMatched(CallScope& scope, const P2pArgs& a) {
  if (a.message == nullptr || *a.message == MPI_MESSAGE_NULL) return;
  MPI_Status* status = a.status != nullptr ? *a.status : nullptr;
  if (status == nullptr || status == MPI_STATUS_IGNORE) return;
  RecordMatchedMessage(*a.message, scope.call(), *a.view, *status);
  if (*a.message != MPI_MESSAGE_NO_PROC) CountCompletedReceive(scope.thread(), a, status);
}

void ConsumeIfGone(const P2pArgs& a, int rc) {
  if (a.saved_message != 0 && (rc == MPI_SUCCESS || *a.message == MPI_MESSAGE_NULL)) {
    ConsumeMessage(a.saved_message);
  }
}

}  // namespace

void PreP2pBlocking(CallScope& scope, P2pArgs& args) {
  ThreadState* ts = scope.thread();
  ResolveComm(scope, args);
  const mpidbg_op_record* op = PostBlocking(ts, 0, scope.call(), args);
  scope.detail().op = AddressOf(op);
  if (args.direction == MPIDBG_OP_SEND) {
    if (op != nullptr) CountSend(ts, *op);
  } else if (args.message == nullptr ? args.direction == MPIDBG_OP_RECV
                                     : args.direction == MPIDBG_OP_PROBE) {
    KeepStatus(args, &ts->own_status[0]);  // Recv and Mprobe are counted from it
  }
}

void PostP2pBlocking(CallScope& scope, P2pArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  EndBlockingOp(ts, 0);
  if (args.message != nullptr) {
    if (args.direction == MPIDBG_OP_PROBE) {
      if (rc == MPI_SUCCESS) MessageMatched(scope, args);
    } else {
      ConsumeIfGone(args, rc);
    }
    return;
  }
  if (args.direction == MPIDBG_OP_RECV && rc == MPI_SUCCESS && args.status != nullptr) {
    CountCompletedReceive(ts, args, *args.status);
  }
}

void PreSendrecv(CallScope& scope, SendrecvArgs& args) {
  ThreadState* ts = scope.thread();
  ResolveComm(scope, args.send);
  args.recv.view = args.send.view;
  const mpidbg_op_record* send = PostBlocking(ts, 0, scope.call(), args.send);
  // The thread waits on the receive half; that is the one the thread record names.
  scope.detail().op = AddressOf(PostBlocking(ts, 1, scope.call(), args.recv));
  if (send != nullptr) CountSend(ts, *send);
  KeepStatus(args.recv, &ts->own_status[1]);
}

void PostSendrecv(CallScope& scope, SendrecvArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  EndBlockingOp(ts, 0);
  EndBlockingOp(ts, 1);
  if (rc == MPI_SUCCESS && args.recv.status != nullptr) {
    CountCompletedReceive(ts, args.recv, *args.recv.status);
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
  mpidbg_op_record* recv = OpenRequestOp(ts, 0);
  if (recv == nullptr) return;
  mpidbg_op_record* send = OpenRequestOp(ts, 0);
  const uint64_t handle = HandleToU64(*request);
  Fill(recv, ts, scope.call(), args.recv);
  recv->request = handle;
  if (send != nullptr) {
    Fill(send, ts, scope.call(), args.send);
    send->request = handle;
    CountSend(ts, *send);
  }
  IndexRequest(ts, handle, recv, send);
}

void PreP2pNonblocking(CallScope& scope, P2pArgs& args) { ResolveComm(scope, args); }

void PostP2pNonblocking(CallScope& scope, P2pArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.request != nullptr && *args.request != MPI_REQUEST_NULL) {
    ThreadState* ts = scope.thread();
    if (args.direction == MPIDBG_OP_SEND) {
      // Counted from the record's fields before it is indexed: once indexed, another
      // thread completing a request with a reused handle could release it.
      mpidbg_op_record* rec = OpenRequestOp(ts, 0);
      if (rec != nullptr) {
        Fill(rec, ts, scope.call(), args);
        rec->request = HandleToU64(*args.request);
        CountSend(ts, *rec);
        IndexRequest(ts, rec->request, rec, nullptr);
      }
    } else {
      PostRequest(ts, scope.call(), args, 0);
    }
  }
  ConsumeIfGone(args, rc);
}

void PreP2pPersistent(CallScope& scope, P2pArgs& args) { ResolveComm(scope, args); }

void PostP2pPersistent(CallScope& scope, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  PostRequest(scope.thread(), scope.call(), args, MPIDBG_OP_PERSISTENT | MPIDBG_OP_INACTIVE);
}

void PreStart(CallScope&, StartArgs&) {}

void PostStart(CallScope& scope, StartArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.requests == nullptr) return;
  ThreadState* ts = scope.thread();
  for (int i = 0; i < args.count; ++i) {
    const mpidbg_op_record* op = StartRequestOp(HandleToU64(args.requests[i]), ts->tid);
    if (op != nullptr && op->direction == MPIDBG_OP_SEND) CountSend(ts, *op);
  }
}

void PreIprobe(CallScope& scope, P2pArgs& args) {
  ResolveComm(scope, args);
  if (args.message != nullptr) KeepStatus(args, &scope.thread()->own_status[0]);
}

void PostIprobe(CallScope& scope, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.flag == nullptr || *args.flag == 0) return;
  MessageMatched(scope, args);
}

void PreRequestFree(CallScope&, RequestFreeArgs& args) {
  if (args.request == nullptr) return;
  args.saved = HandleToU64(*args.request);
  PrepareRequestFree(args.saved, &args.ticket);
}

void PostRequestFree(CallScope&, RequestFreeArgs& args, int rc) {
  if (args.saved != 0) FinishRequestFree(args.saved, args.ticket, rc == MPI_SUCCESS);
}

void PreCancel(CallScope&, CancelArgs&) { NoteCancelRequested(); }

void PostCancel(CallScope&, CancelArgs&, int) {}

}  // namespace mpidbg::rt
