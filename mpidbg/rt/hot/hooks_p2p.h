// hooks_p2p.h — the hooks of blocking and nonblocking point-to-point calls, inline in
// the generated wrappers (every message runs them; a call per step would cost more than
// the steps). The rest of the point-to-point area is in hooks_p2p.cc.
//
// HOT PATH: no lock, no heap allocation, no system call; PMPI_* only.
//
// Each call describes its operation once (normalised peer and tag, the peer's world
// rank, the datatype's size and name from the thread's cache); its op record, the
// traffic count and the send log all take it from there:
//  - a blocking send or receive below MPI_THREAD_MULTIPLE appends an entry (request 0)
//    to the thread's flight ring before PMPI, named by the thread's live words (not its
//    record), and marks it DONE after PMPI; a Sendrecv appends two, the live words
//    naming its receive half; otherwise (probes, message receives,
//    MPI_THREAD_MULTIPLE) a blocking call writes its envelope into the
//    thread's reserved op slot, whose fields no blocking call changes were written once
//    (operation_slots.h), and publishes it in the thread record before PMPI; the slot
//    goes FREE again after PMPI. Either way a debugger sees peer, tag, communicator and
//    size of a blocked send or receive;
//  - a nonblocking call below MPI_THREAD_MULTIPLE appends an entry to the thread's
//    flight ring after PMPI (rt/hot/flight_ring.h); otherwise (and for MPI_Imrecv) it
//    fills an operation record from the thread's slot cache and indexes it under the
//    request handle.
//
// Traffic (rt/hot/traffic.h): a send is counted when it is posted (a blocking send before
// it enters MPI, so a send stuck in MPI is already counted); a blocking receive when it
// completes, from its status (requests in hooks_completion.cc); a matched
// MPI_Mprobe/Improbe counts as the receive, so MPI_Mrecv/Imrecv count nothing.
#ifndef MPIDBG_RT_HOOKS_P2P_H
#define MPIDBG_RT_HOOKS_P2P_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/normalise.h"
#include "mpidbg/records.h"
#include "rt/hot/comm_cache.h"
#include "rt/hot/completed_request.h"
#include "rt/hot/flight_ring.h"
#include "rt/handle_widening.h"
#include "rt/hot/hook_args.h"
#include "rt/hot/operation_slots.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/traffic.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {

// --- the out-of-line parts (hooks_p2p.cc) ---
// They take values, never the address of the wrapper's scope or arguments: an address
// passed to another object anywhere in a wrapper keeps the compiler from holding that
// object in registers (or folding the role constants) on every path.

// The matched message of MPI_Mrecv/Imrecv: its communicator's view (the thread's
// message_view, or kNoCommView) and envelope (the thread's message_* fields).
struct MessageComm {
  const CommView* view;
  uint64_t saved_message;  // the message handle before MPI nulls it
};
MessageComm ResolveMessageComm(ThreadState* ts, uint64_t message);
// After a blocking probe or message receive (Mprobe, Mrecv): the message record.
void PostMessageBlocking(ThreadState* ts, int32_t call, P2pArgs a, int rc);
// MPI_Mrecv/Imrecv consumed its message handle (when the call succeeded or nulled it).
void ConsumeIfGone(uint64_t saved_message, const MPI_Message* message, int rc);
// The view of "no communicator".
extern const CommView kNoCommView;

// The call's communicator (for Mrecv/Imrecv the matched message's) in a.view; returns
// what the call publishes of it ({0, 0} for none).
MPIDBG_ALWAYS_INLINE CallComm ResolveCallComm(ThreadState* ts, P2pArgs& a) {
  if (a.comm != MPI_COMM_NULL) {
    a.view = &CommViewOf(ts, a.comm);
    return CallCommOf(*a.view);
  }
  if (a.message == nullptr || a.direction != MPIDBG_OPERATION_RECV) {
    a.view = &kNoCommView;
    return CallComm{0, 0};
  }
  const MessageComm m = ResolveMessageComm(ts, HandleToU64(*a.message));
  a.view = m.view;
  a.saved_message = m.saved_message;
  return CallCommOf(*m.view);  // kNoCommView's words are {0, 0}
}

// The same, published in the thread record.
MPIDBG_ALWAYS_INLINE void ResolveComm(CallScope& scope, P2pArgs& a) {
  scope.SetComm(ResolveCallComm(scope.thread(), a));
}

// The peer's world rank (comm_registry's PeerWorld, inline: it runs per message).
MPIDBG_ALWAYS_INLINE int32_t WorldOf(const CommView& v, int32_t peer) {
  if (peer < 0) return peer;
  if (v.inter) return core::PeerWorldRank(peer, v.remote_world_ranks, v.remote_size);
  return core::PeerWorldRank(peer, v.world_ranks, v.size);
}

// Normalised peer and tag and the peer's world rank (a.norm_peer, a.peer_world,
// a.norm_tag); for a
// message-handle receive (Mrecv/Imrecv) the matched message's.
MPIDBG_ALWAYS_INLINE void DescribeEnvelope(const ThreadState* ts, P2pArgs& a) {
  if (a.message != nullptr && a.direction == MPIDBG_OPERATION_RECV) {
    a.norm_peer = ts->message_source;
    a.peer_world = ts->message_source_world;
    a.norm_tag = ts->message_tag;
    return;
  }
  a.norm_peer = a.peer == kAbsent ? MPIDBG_RANK_UNKNOWN : core::NormaliseRank(a.peer, kEncodings);
  a.peer_world = WorldOf(*a.view, a.norm_peer);
  a.norm_tag = a.tag == kAbsent ? MPIDBG_TAG_ANY : core::NormaliseTag(a.tag, kEncodings);
}

// The op record fields a call sets (every field but those FillConstants writes), from
// the described envelope (DescribeEnvelope).
MPIDBG_ALWAYS_INLINE void FillEnvelope(mpidbg_operation_record* rec, const ThreadState* ts,
                                       int32_t call, const P2pArgs& a, const DatatypeInfo& type) {
  const CommView& v = *a.view;
  rec->comm_handle = v.handle;
  // Other areas scan op records for these two fields with atomic loads.
  __atomic_store_n(&rec->comm_job_id, v.job_id, __ATOMIC_RELAXED);
  rec->post_serial = NextPostSerialHot();
  rec->buffer = AddressOf(a.buf);
  __atomic_store_n(&rec->datatype, a.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(a.datatype),
                   __ATOMIC_RELAXED);
  rec->count = a.count;
  rec->bytes = a.count * type.size;
  rec->post_time_ns = ts->live.entry_time_ns;
  rec->create_pc = ts->live.site;
  rec->call = call;
  rec->direction = a.direction;
  rec->mode = a.direction == MPIDBG_OPERATION_SEND ? a.mode : MPIDBG_MODE_NONE;
  rec->peer = a.norm_peer;
  rec->peer_world = a.peer_world;
  rec->tag = a.norm_tag;
  if (a.message != nullptr && a.direction == MPIDBG_OPERATION_RECV) {
    // A message-handle receive (Mrecv/Imrecv) was matched by the probe before it.
    rec->status = MPIDBG_OPERATION_MATCHED;
    rec->actual_source = a.norm_peer;
    rec->actual_tag = a.norm_tag;
  } else {
    rec->status = MPIDBG_OPERATION_PENDING;
    rec->actual_source = MPIDBG_RANK_UNKNOWN;
    rec->actual_tag = MPIDBG_TAG_ANY;
  }
  memcpy(rec->datatype_name, type.name, sizeof rec->datatype_name);
}

// The op record fields no point-to-point call changes (a blocking slot has them already:
// operation_slots.h, TakeBlockingSlot).
MPIDBG_ALWAYS_INLINE void FillConstants(mpidbg_operation_record* rec, const ThreadState* ts) {
  static_assert(sizeof(mpidbg_operation_record) == 240,
                "FillEnvelope and FillConstants write every op record field");
  rec->request = 0;
  rec->tid = ts->tid;
  rec->actual_bytes = 0;
  rec->reserved = 0;
  rec->object = 0;
  rec->free_serial = 0;
  rec->file_offset = -1;
  rec->target_disp = 0;
  rec->extra_state = 0;
  rec->query_fn = 0;
  rec->reserved2 = 0;
}

// A send's envelope for the traffic counters and the send log.
MPIDBG_ALWAYS_INLINE SendEnvelope SendOf(const ThreadState* ts, int32_t call, const P2pArgs& a,
                                         const DatatypeInfo& type) {
  SendEnvelope s;
  s.comm_job_id = a.view->job_id;
  s.datatype = a.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(a.datatype);
  s.count = a.count;
  s.bytes = a.count * type.size;
  s.time_ns = ts->live.entry_time_ns;
  s.peer = a.norm_peer;
  s.peer_world = a.peer_world;
  s.tag = a.norm_tag;
  s.call = call;
  s.mode = a.mode;
  return s;
}

// The same from a described flight entry.
MPIDBG_ALWAYS_INLINE SendEnvelope SendOf(const mpidbg_flight_entry& e) {
  return SendEnvelope{e.comm_job_id, e.datatype, e.count, e.bytes, e.post_time_ns,
                      e.peer,        e.peer_world, e.tag, e.call,  e.mode};
}

// Whether nothing but the call's arguments decides its envelope, so a memo may keep it
// for the next call with the same ones: a predefined datatype (a derived one's handle
// may be freed and reused for another type), a communicator the runtime knows, a count
// of 32 bits, no message handle.
MPIDBG_ALWAYS_INLINE bool MemoableEnvelope(const ThreadState* ts, const P2pArgs& a) {
  const uint64_t key = HandleToU64(a.datatype);
  return a.message == nullptr && key != 0 && ts->type_cache[TypeCacheSlot(key)].key == key &&
         a.view->job_id != 0 && MemoCount(a.count) != kNoMemoCount;
}

// Whether a memo key holds a call with these arguments (all but the buffer).
MPIDBG_ALWAYS_INLINE bool MemoKeyMatches(const RequestMemoKey& k, int32_t call, const P2pArgs& a) {
  return k.count_call == MemoKey(MemoCount(a.count), call) && k.peer_tag == MemoKey(a.peer, a.tag) &&
         k.datatype == HandleToU64(a.datatype) && k.comm == a.view->handle &&
         k.job_id == a.view->job_id;
}

// The memo key of a call with these arguments (what MemoKeyMatches compares).
MPIDBG_ALWAYS_INLINE RequestMemoKey MemoKeyOf(int32_t call, const P2pArgs& a) {
  RequestMemoKey k;
  k.count_call = MemoKey(MemoCount(a.count), call);
  k.peer_tag = MemoKey(a.peer, a.tag);
  k.datatype = HandleToU64(a.datatype);
  k.comm = a.view->handle;
  k.job_id = a.view->job_id;
  return k;
}

// Makes a memo key hold this call's arguments, or nothing when they do not decide the
// envelope alone (MemoableEnvelope).
MPIDBG_ALWAYS_INLINE bool SetMemoKey(RequestMemoKey& k, const ThreadState* ts, int32_t call,
                                     const P2pArgs& a) {
  if (!MemoableEnvelope(ts, a)) {
    k.count_call = MemoKey(0, MPIDBG_CALL_NONE);
    return false;
  }
  k = MemoKeyOf(call, a);
  return true;
}

// The call's blocking envelope in the thread's slot `which`, written in full; remembered
// for the next call when nothing but the arguments decides it (BlockingMemo).
MPIDBG_ALWAYS_INLINE mpidbg_operation_record* FillBlocking(ThreadState* ts, int which, int32_t call,
                                                    P2pArgs& a, const DatatypeInfo& type) {
  mpidbg_operation_record* rec = OpenBlockingRecord(ts, which);
  if (rec == nullptr) return nullptr;
  FillEnvelope(rec, ts, call, a, type);
  CloseOperationRecord(rec);
  BlockingMemo& m = ts->blocking_memo[which];
  if (!SetMemoKey(m.key, ts, call, a)) return rec;
  m.buf = AddressOf(a.buf);
  m.bytes = rec->bytes;
  m.norm_peer = a.norm_peer;
  m.peer_world = a.peer_world;
  m.norm_tag = a.norm_tag;
  return rec;
}

// The call's blocking envelope in the thread's slot `which`; its address (0 if none).
// Counts a send.
MPIDBG_ALWAYS_INLINE uint64_t PostBlocking(ThreadState* ts, int which, int32_t call, P2pArgs& a) {
  mpidbg_operation_record* rec = ts->blocking_requests[which];
  const BlockingMemo& m = ts->blocking_memo[which];
  if (a.message == nullptr && MemoKeyMatches(m.key, call, a) && m.buf == AddressOf(a.buf)) {
    // Same arguments as the slot's last call: its body holds this envelope already.
    a.norm_peer = m.norm_peer;
    a.peer_world = m.peer_world;
    a.norm_tag = m.norm_tag;
    g_operation_table.OpenRecord(&rec->hdr, MPIDBG_OPERATION_BLOCKING);
    rec->post_serial = NextPostSerialHot();
    rec->post_time_ns = ts->live.entry_time_ns;
    CloseOperationRecord(rec);
    if (a.direction == MPIDBG_OPERATION_SEND) {
      CountSend(ts, SendEnvelope{m.key.job_id, m.key.datatype, a.count, m.bytes, ts->live.entry_time_ns,
                                 m.norm_peer, m.peer_world, m.norm_tag, call, a.mode});
    }
    return AddressOf(rec);
  }
  DescribeEnvelope(ts, a);
  const DatatypeInfo& type = DatatypeOf(ts, a.datatype);
  rec = FillBlocking(ts, which, call, a, type);
  if (a.direction == MPIDBG_OPERATION_SEND) CountSend(ts, SendOf(ts, call, a, type));
  return AddressOf(rec);
}

// The blocking slot of a call: sends 0, receives and probes 1.
MPIDBG_ALWAYS_INLINE int BlockingSlotOf(const P2pArgs& a) {
  return a.direction == MPIDBG_OPERATION_SEND ? 0 : 1;
}

// The status MPI will write, substituting the thread's own for MPI_STATUS_IGNORE.
MPIDBG_ALWAYS_INLINE void KeepStatus(P2pArgs& a, MPI_Status* own) {
  if (a.status != nullptr && *a.status == MPI_STATUS_IGNORE) *a.status = own;
}

// A receive that completed with `status`, counted under its actual source and tag.
MPIDBG_ALWAYS_INLINE void CountCompletedReceive(ThreadState* ts, const P2pArgs& a,
                                                const MPI_Status* status) {
  if (status == nullptr || status == MPI_STATUS_IGNORE) return;
  SourceHint hint;
  hint.peer = a.norm_peer;
  hint.peer_world = a.peer_world;
  hint.comm = a.view;
  CountReceive(ts, a.view->job_id, *status, hint);
}

// --- blocking: Send, Ssend, Bsend, Rsend, Recv, Probe, Mprobe, Mrecv ---

// Below, with the nonblocking posts.
template <bool kBlocking>
MPIDBG_ALWAYS_INLINE mpidbg_flight_entry* PostFlightEntry(ThreadState* ts, int32_t call, P2pArgs& a,
                                                          uint64_t request);

MPIDBG_ALWAYS_INLINE void PreP2pBlocking(CallScope& scope, P2pArgs& args) {
  ThreadState* ts = scope.thread();
  ResolveComm(scope, args);
  // Below MPI_THREAD_MULTIPLE a send's or a receive's envelope is an entry of the
  // thread's flight ring (DONE when the call returns); probes and message receives keep
  // op records.
  if (!core::Concurrent() && args.message == nullptr && args.direction != MPIDBG_OPERATION_PROBE) {
    args.flight = PostFlightEntry<true>(ts, scope.call(), args, 0);
    if (args.flight != nullptr) {
      scope.SetFlightEntry(AddressOf(args.flight));
      if (args.direction == MPIDBG_OPERATION_RECV) KeepStatus(args, &ts->own_status[0]);
      return;
    }
  }
  scope.SetOperationRecord(PostBlocking(ts, BlockingSlotOf(args), scope.call(), args));
  if (args.direction != MPIDBG_OPERATION_SEND &&
      (args.message == nullptr ? args.direction == MPIDBG_OPERATION_RECV
                               : args.direction == MPIDBG_OPERATION_PROBE)) {
    KeepStatus(args, &ts->own_status[0]);  // Recv and Mprobe are counted from it
  }
}

MPIDBG_ALWAYS_INLINE void PostP2pBlocking(CallScope& scope, P2pArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  if (args.flight != nullptr) {
    args.flight->state = MPIDBG_FLIGHT_DONE;
  } else {
    EndBlockingRecord(ts, BlockingSlotOf(args));
  }
  if (args.message != nullptr) {
    PostMessageBlocking(ts, scope.call(), args, rc);
    return;
  }
  if (args.direction == MPIDBG_OPERATION_RECV && rc == MPI_SUCCESS && args.status != nullptr) {
    CountCompletedReceive(ts, args, *args.status);
  }
}

// --- Sendrecv, Sendrecv_replace ---

// Below MPI_THREAD_MULTIPLE both halves are blocking entries of the thread's flight ring,
// as a Send's and a Recv's are, and the live words name the receive half: the one the
// thread waits on. Otherwise (or without a ring) they are the thread's two blocking op
// slots, published in its record. Either way a debugger sees both envelopes.
MPIDBG_ALWAYS_INLINE void PreSendrecv(CallScope& scope, SendrecvArgs& args) {
  ThreadState* ts = scope.thread();
  ResolveComm(scope, args.send);
  args.recv.view = args.send.view;
  if (!core::Concurrent()) {
    args.send.flight = PostFlightEntry<true>(ts, scope.call(), args.send, 0);
    if (args.send.flight != nullptr) {
      args.recv.flight = PostFlightEntry<true>(ts, scope.call(), args.recv, 0);
      if (args.recv.flight != nullptr) {
        scope.SetFlightEntry(AddressOf(args.recv.flight));
        KeepStatus(args.recv, &ts->own_status[1]);
        return;
      }
      // The ring went away between the two posts (it cannot below MPI_THREAD_MULTIPLE,
      // but a lost send half would be worse than a DONE one): the slots take both.
      args.send.flight->state = MPIDBG_FLIGHT_DONE;
      args.send.flight = nullptr;
    }
  }
  PostBlocking(ts, 0, scope.call(), args.send);
  scope.SetOperationRecord(PostBlocking(ts, 1, scope.call(), args.recv));
  KeepStatus(args.recv, &ts->own_status[1]);
}

MPIDBG_ALWAYS_INLINE void PostSendrecv(CallScope& scope, SendrecvArgs& args, int rc) {
  ThreadState* ts = scope.thread();
  if (args.recv.flight != nullptr) {
    args.send.flight->state = MPIDBG_FLIGHT_DONE;
    args.recv.flight->state = MPIDBG_FLIGHT_DONE;
  } else {
    EndBlockingRecord(ts, 0);
    EndBlockingRecord(ts, 1);
  }
  if (rc == MPI_SUCCESS && args.recv.status != nullptr) {
    CountCompletedReceive(ts, args.recv, *args.recv.status);
  }
}

// --- nonblocking: Isend, Issend, Ibsend, Irsend, Irecv, Imrecv ---

MPIDBG_ALWAYS_INLINE void PreP2pNonblocking(CallScope& scope, P2pArgs& args) {
  ResolveComm(scope, args);
}

// Copies the op record fields from `count` on, in 16-byte blocks (a plain memcpy of the
// 160 bytes becomes a string move, several times slower).
MPIDBG_ALWAYS_INLINE void CopyTail(mpidbg_operation_record* dst, const mpidbg_operation_record& src) {
  constexpr size_t kFrom = offsetof(mpidbg_operation_record, count);
  constexpr size_t kBlocks = (sizeof(mpidbg_operation_record) - kFrom) / 16;
  static_assert(kFrom % 16 == 0 && (sizeof(mpidbg_operation_record) - kFrom) % 16 == 0,
                "the tail is whole 16-byte blocks");
  char* d = reinterpret_cast<char*>(dst) + kFrom;
  const char* s = reinterpret_cast<const char*>(&src) + kFrom;
#pragma GCC unroll 16
  for (size_t i = 0; i < kBlocks; ++i) __builtin_memcpy(d + 16 * i, s + 16 * i, 16);
}

// Whether a request memo holds the record of a call with these arguments.
MPIDBG_ALWAYS_INLINE bool MemoMatches(const RequestMemo& m, int32_t call, const P2pArgs& a) {
  return a.message == nullptr && MemoKeyMatches(m.key, call, a);
}

// Remembers an operation record (not a message-handle one) for the next call with the
// same arguments, when nothing else decided it (see BlockingMemo).
MPIDBG_ALWAYS_INLINE void RememberRequest(ThreadState* ts, RequestMemo& m, int32_t call,
                                          const P2pArgs& a, const mpidbg_operation_record& rec) {
  if (SetMemoKey(m.key, ts, call, a)) m.record = rec;
}

// A operation record for the call, indexed under *a.request (nothing if the slot cache
// could not be filled); counts a send. A request whose arguments (but the buffer) match
// the thread's last one of its direction and kind (plain or persistent) is a copy of
// that record. Below
// MPI_THREAD_MULTIPLE a stale record under the same handle is rewritten in place
// (operation_registry.h, OpenOwnedOperationRecord).
MPIDBG_ALWAYS_INLINE void PostOperationRecord(ThreadState* ts, int32_t call, P2pArgs& a, uint32_t flags,
                                        bool count_send) {
  const uint64_t request = HandleToU64(*a.request);
  const bool shared = core::Concurrent();
  OwnedOperationSlot slot;
  // A call's records always have the same flags (the memo's key holds the call).
  RequestMemo& m = (flags != 0 ? ts->persistent_memo
                                : ts->request_memo)[a.direction == MPIDBG_OPERATION_SEND ? 0 : 1];
  if (MemoMatches(m, call, a)) {
    mpidbg_operation_record* rec = shared ? OpenOperationRecord(ts, flags)
                                          : OpenOwnedOperationRecord(ts, request, flags, &slot);
    if (rec == nullptr) return;
    // What differs, the two fields other areas read atomically, then the rest.
    static_assert(offsetof(mpidbg_operation_record, datatype) + 8 == offsetof(mpidbg_operation_record, count),
                  "the copied tail starts at count");
    rec->request = request;
    rec->comm_handle = m.record.comm_handle;
    __atomic_store_n(&rec->comm_job_id, m.record.comm_job_id, __ATOMIC_RELAXED);
    rec->post_serial = NextPostSerialHot();
    rec->buffer = AddressOf(a.buf);
    __atomic_store_n(&rec->datatype, m.record.datatype, __ATOMIC_RELAXED);
    CopyTail(rec, m.record);
    rec->post_time_ns = ts->live.entry_time_ns;
    rec->create_pc = ts->live.site;  // the memo's tail holds an earlier call's site
    if (count_send) CountSend(ts, EnvelopeOf(*rec));
    if (shared) {
      IndexRequest(ts, request, rec, nullptr);
    } else {
      FinishOwnedOperationRecord(ts, request, rec, slot);
    }
    return;
  }
  DescribeEnvelope(ts, a);
  const DatatypeInfo& type = DatatypeOf(ts, a.datatype);
  mpidbg_operation_record* rec =
      shared ? OpenOperationRecord(ts, flags) : OpenOwnedOperationRecord(ts, request, flags, &slot);
  if (rec != nullptr) {
    FillConstants(rec, ts);
    FillEnvelope(rec, ts, call, a, type);
    rec->request = request;
    RememberRequest(ts, m, call, a, *rec);
  }
  // Counted before the record is indexed: once indexed, another thread completing a
  // request with a reused handle could release it.
  if (count_send) CountSend(ts, SendOf(ts, call, a, type));
  if (rec == nullptr) return;
  if (shared) {
    IndexRequest(ts, request, rec, nullptr);
  } else {
    FinishOwnedOperationRecord(ts, request, rec, slot);
  }
}

// The envelope part of a flight entry (all but seq, state, request, buffer, serial,
// time, site and ordinal), copied from the memo's in words.
MPIDBG_ALWAYS_INLINE void CopyFlightEnvelope(mpidbg_flight_entry* e, const mpidbg_flight_entry& m) {
  static_assert(offsetof(mpidbg_flight_entry, call) == 8 && offsetof(mpidbg_flight_entry, tag) == 20 &&
                    offsetof(mpidbg_flight_entry, comm_handle) == 32 &&
                    offsetof(mpidbg_flight_entry, datatype) == 56 && offsetof(mpidbg_flight_entry, bytes) == 72,
                "the envelope's words");
  static_assert(offsetof(mpidbg_flight_entry, direction) == 5 && offsetof(mpidbg_flight_entry, mode) == 6,
                "direction and mode are one 16-bit word");
  char* d = reinterpret_cast<char*>(e);
  const char* s = reinterpret_cast<const char*>(&m);
  __builtin_memcpy(d + 5, s + 5, 2);    // direction, mode
  __builtin_memcpy(d + 8, s + 8, 16);   // call, peer, peer_world, tag
  __builtin_memcpy(d + 32, s + 32, 16); // comm_handle, comm_job_id
  __builtin_memcpy(d + 56, s + 56, 24); // datatype, count, bytes
}

// A post of kind `kind` whose arguments (`key`, MemoKeyOf) the first of its memos
// (FlightMemo) does not hold: the memo of the others that holds them (hit, nothing
// moves), or the first, to remember its envelope in, once what it held has moved over
// the oldest of the others (hooks_p2p.cc). The key goes by value: the arguments'
// address handed out of line would keep them in memory on every post.
struct RecalledMemo {
  FlightMemo* memo;
  bool hit;
};
RecalledMemo RecallFlightMemo(ThreadState* ts, int kind, RequestMemoKey key);

// Remembers the described envelope of a plain post for the next one with the same
// arguments, when nothing else decided it (see BlockingMemo).
MPIDBG_ALWAYS_INLINE void RememberFlight(ThreadState* ts, FlightMemo& m, int32_t call,
                                         const P2pArgs& a, const mpidbg_flight_entry& e,
                                         mpidbg_traffic_entry* traffic) {
  if (!SetMemoKey(m.key, ts, call, a)) return;
  CopyFlightEnvelope(&m.entry, e);
  m.traffic = traffic;
}

// The rest of a post whose arguments memo `m` holds (PostFlightEntry): its envelope
// copied, a send counted into the memo's traffic entry, the entry published.
MPIDBG_ALWAYS_INLINE mpidbg_flight_entry* PostFromMemo(ThreadState* ts, mpidbg_flight_entry* e,
                                                       const FlightMemo& m, P2pArgs& a, bool send) {
  CopyFlightEnvelope(e, m.entry);
  a.norm_peer = m.entry.peer;  // as DescribeEnvelope would (a receive's counting hint)
  a.peer_world = m.entry.peer_world;
  a.norm_tag = m.entry.tag;
  uint64_t ordinal = 0;
  if (send) {
    if (m.traffic != nullptr) {
      if (MonitorOn()) MonitorSend(m.entry.peer_world, m.entry.bytes);
      ordinal = AddMessage(&m.traffic->sends, &m.traffic->send_bytes,
                           static_cast<uint64_t>(m.entry.bytes), false);
    } else {
      ordinal = CountRingSend(ts, SendOf(*e));
    }
  }
  e->ordinal = ordinal;
  PublishFlightEntry(ts, e);
  return e;
}

// The post's entry in the thread's flight ring (kBlocking: a blocking call's envelope,
// `request` 0; otherwise a request handle, which is never 0); counts a send. nullptr
// when the thread has no ring (the caller makes an operation record). A post whose
// arguments (but the buffer) match a recent one's of its direction and kind (FlightMemo)
// copies that one's envelope and counts into the same traffic entry. Whether the post
// is blocking is a template argument so that each wrapper gets only its own path: no
// test of the handle, the first memo's address a constant offset.
template <bool kBlocking>
MPIDBG_ALWAYS_INLINE mpidbg_flight_entry* PostFlightEntry(ThreadState* ts, int32_t call, P2pArgs& a,
                                                          uint64_t request) {
  const bool send = a.direction == MPIDBG_OPERATION_SEND;
  const bool completed = !kBlocking && CompletedRequestHandle(request);
  mpidbg_flight_entry* e = OpenFlightEntry<kBlocking>(ts, request, completed);
  if (e == nullptr) return nullptr;
  // A record under the handle (a carried request, a persistent one since freed) is stale.
  if (__builtin_expect(!kBlocking && g_requests.size() != 0, 0)) DisplaceRequestRecord(ts, request);
  constexpr int kBase = kBlocking ? 2 : 0;
  const int kind = kBase + (send ? 0 : 1);
  FlightMemo& first = ts->flight_memo[kind][0];
  e->buffer = AddressOf(a.buf);
  e->post_serial = NextPostSerialPlain();
  e->post_time_ns = ts->live.entry_time_ns;
  e->create_pc = ts->live.site;
  if (MemoKeyMatches(first.key, call, a)) return PostFromMemo(ts, e, first, a, send);
  const RecalledMemo recalled = RecallFlightMemo(ts, kind, MemoKeyOf(call, a));
  if (recalled.hit) return PostFromMemo(ts, e, *recalled.memo, a, send);
  FlightMemo& m = *recalled.memo;
  DescribeEnvelope(ts, a);
  const DatatypeInfo& type = DatatypeOf(ts, a.datatype);
  const CommView& v = *a.view;
  e->direction = static_cast<uint8_t>(a.direction);
  e->mode = static_cast<uint8_t>(send ? a.mode : MPIDBG_MODE_NONE);
  e->call = call;
  e->peer = a.norm_peer;
  e->peer_world = a.peer_world;
  e->tag = a.norm_tag;
  e->comm_handle = v.handle;
  e->comm_job_id = v.job_id;
  e->datatype = a.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(a.datatype);
  e->count = a.count;
  e->bytes = a.count * type.size;
  mpidbg_traffic_entry* traffic = nullptr;
  e->ordinal = send ? CountRingSend(ts, SendOf(*e), &traffic) : 0;
  PublishFlightEntry(ts, e);
  RememberFlight(ts, m, call, a, *e, traffic);
  return e;
}

MPIDBG_ALWAYS_INLINE void PostP2pNonblocking(CallScope& scope, P2pArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.request != nullptr && *args.request != MPI_REQUEST_NULL) {
    ThreadState* ts = scope.thread();
    if (core::Concurrent() || args.message != nullptr ||
        PostFlightEntry<false>(ts, scope.call(), args, HandleToU64(*args.request)) == nullptr) {
      PostOperationRecord(ts, scope.call(), args, 0, args.direction == MPIDBG_OPERATION_SEND);
    }
  }
  if (args.saved_message != 0) ConsumeIfGone(args.saved_message, args.message, rc);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_P2P_H
