// hooks_p2p.cc — point-to-point calls: blocking envelopes, requests, persistent start.
//
// HOT PATH: no heap allocation, no system call; PMPI_* only. Request records take the
// op registry's spinlock; blocking calls take none.
#include "core/normalise.h"
#include "rt/comm_registry.h"
#include "rt/handles.h"
#include "rt/hooks.h"
#include "rt/op_registry.h"
#include "rt/registry.h"

namespace mpidbg::rt {
namespace {

OpDescription Describe(int32_t call, const P2pArgs& a, const CommView* comm) {
  OpDescription d;
  d.call = call;
  d.direction = a.direction;
  d.mode = a.direction == MPIDBG_OP_SEND ? a.mode : MPIDBG_MODE_NONE;
  d.buffer = a.buf;
  d.count = a.count;
  d.datatype = a.datatype;
  d.peer = a.peer == kAbsent ? MPIDBG_RANK_UNKNOWN : core::NormaliseRank(a.peer, kEncodings);
  d.tag = a.tag == kAbsent ? MPIDBG_TAG_ANY : core::NormaliseTag(a.tag, kEncodings);
  d.comm = comm;
  // A message-handle receive (Mrecv/Imrecv) was matched by the probe before it.
  if (a.comm == MPI_COMM_NULL && a.direction == MPIDBG_OP_RECV) d.status = MPIDBG_OP_MATCHED;
  return d;
}

}  // namespace

void PreP2pBlocking(CallScope& scope, P2pArgs& args) {
  CommView comm = LookupComm(args.comm);
  if (args.comm != MPI_COMM_NULL) scope.SetComm(comm);
  OpDescription d = Describe(scope.call(), args, args.comm != MPI_COMM_NULL ? &comm : nullptr);
  scope.detail().op = BeginBlockingOp(scope.thread(), 0, d);
}

void PostP2pBlocking(CallScope& scope, P2pArgs&, int) { EndBlockingOp(scope.thread(), 0); }

void PreSendrecv(CallScope& scope, SendrecvArgs& args) {
  CommView comm = LookupComm(args.send.comm);
  scope.SetComm(comm);
  BeginBlockingOp(scope.thread(), 0, Describe(scope.call(), args.send, &comm));
  // The thread waits on the receive half; that is the one the thread record names.
  scope.detail().op = BeginBlockingOp(scope.thread(), 1, Describe(scope.call(), args.recv, &comm));
}

void PostSendrecv(CallScope& scope, SendrecvArgs&, int) {
  EndBlockingOp(scope.thread(), 0);
  EndBlockingOp(scope.thread(), 1);
}

void PreP2pNonblocking(CallScope& scope, P2pArgs& args) {
  if (args.comm != MPI_COMM_NULL) scope.SetComm(LookupComm(args.comm));
}

void PostP2pNonblocking(CallScope& scope, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  CommView comm = LookupComm(args.comm);
  OpDescription d = Describe(scope.call(), args, args.comm != MPI_COMM_NULL ? &comm : nullptr);
  TrackRequest(HandleToU64(*args.request), d, 0, scope.thread()->tid);
}

void PreP2pPersistent(CallScope& scope, P2pArgs& args) {
  if (args.comm != MPI_COMM_NULL) scope.SetComm(LookupComm(args.comm));
}

void PostP2pPersistent(CallScope& scope, P2pArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  CommView comm = LookupComm(args.comm);
  OpDescription d = Describe(scope.call(), args, &comm);
  TrackRequest(HandleToU64(*args.request), d, MPIDBG_OP_PERSISTENT | MPIDBG_OP_INACTIVE,
               scope.thread()->tid);
}

void PreStart(CallScope&, StartArgs&) {}

void PostStart(CallScope& scope, StartArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.requests == nullptr) return;
  for (int i = 0; i < args.count; ++i) {
    StartRequest(HandleToU64(args.requests[i]), scope.thread()->tid);
  }
}

void PreRequestFree(CallScope&, RequestFreeArgs& args) {
  if (args.request != nullptr) args.saved = HandleToU64(*args.request);
}

void PostRequestFree(CallScope&, RequestFreeArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.saved != 0) ForgetRequest(args.saved);
}

}  // namespace mpidbg::rt
