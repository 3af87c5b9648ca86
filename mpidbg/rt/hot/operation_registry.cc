// operation_registry.cc — see operation_registry.h (same hot-path rules).
#include "rt/hot/operation_registry.h"

#include <string.h>

#include <initializer_list>

#include "core/clock.h"
#include "core/concurrency.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/comms/comm_registry.h"
#include "rt/hot/completion_count.h"
#include "rt/hot/datatype_info.h"
#include "rt/hot/flight_ring.h"
#include "rt/handle_widening.h"
#include "rt/hot/operation_slots.h"
#include "rt/process/registry.h"
#include "core/request_index.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {

core::RequestIndex g_requests(1024);  // request handle -> op record (+ companion)

namespace {

// Every field of the op record is written by FillOperationRecord; a field appended to the record
// must be added there (this fails when the size changes).
static_assert(sizeof(mpidbg_operation_record) == 240, "FillOperationRecord writes every op record field");

core::SpinLock g_lock;             // guards g_requests (only under MPI_THREAD_MULTIPLE)

mpidbg_operation_record* RequestAt(uint64_t address) {
  return reinterpret_cast<mpidbg_operation_record*>(static_cast<uintptr_t>(address));
}

// --- request slots: a per-thread cache over the request table (rt/hot/operation_slots.h) ---

MPIDBG_ALWAYS_INLINE mpidbg_operation_record* TakeSlotFor(ThreadState* ts) {
  if (ts == nullptr) return reinterpret_cast<mpidbg_operation_record*>(g_operation_table.TakeSlot());
  return TakeOperationSlot(ts);
}

MPIDBG_ALWAYS_INLINE void GiveSlotFrom(ThreadState* ts, mpidbg_operation_record* rec) {
  if (ts == nullptr) {
    g_operation_table.ReturnSlot(&rec->hdr);
    return;
  }
  GiveOperationSlot(ts, rec);
}

// A new live record of a request (not yet indexed).
mpidbg_operation_record* NewOperationRecord(ThreadState* ts, uint64_t request, const OperationDescription& d,
                                   uint32_t flags, uint64_t tid) {
  mpidbg_operation_record* rec = TakeSlotFor(ts);
  if (rec == nullptr) return nullptr;
  g_operation_table.OpenRecord(&rec->hdr, flags);
  FillOperationRecord(rec, d, tid);
  rec->request = request;
  g_operation_table.CloseRecord(&rec->hdr);
  return rec;
}

// Record gone: slot back to the caller's cache.
MPIDBG_ALWAYS_INLINE void DropRecord(ThreadState* ts, mpidbg_operation_record* rec) {
  g_operation_table.Vacate(&rec->hdr);
  GiveSlotFrom(ts, rec);
}

// The request index held `old` for a handle MPI has just handed out again: a freed
// record is now known released; any other is stale (completed unseen) and goes.
// Returns the record to drop after the lock, or nullptr. Called under the lock.
mpidbg_operation_record* Displaced(uint64_t address) {
  if (address == 0) return nullptr;
  mpidbg_operation_record* old = RequestAt(address);
  if ((old->hdr.flags & MPIDBG_REC_FREED) == 0) return old;
  core::BeginRecordWrite(&old->hdr);
  old->hdr.flags |= MPIDBG_REC_RELEASED;
  core::EndRecordWrite(&old->hdr);
  return nullptr;  // the orphan list owns it
}

// What the index held for a handle MPI has just handed out again (Displaced, per
// record). Called under the lock.
__attribute__((noinline)) void DisplacedPair(const core::RequestIndex::Entry& previous,
                                             mpidbg_operation_record* drop[2]) {
  drop[0] = Displaced(previous.record);
  drop[1] = Displaced(previous.companion);
}

void Index(ThreadState* ts, uint64_t request, mpidbg_operation_record* rec, mpidbg_operation_record* companion) {
  mpidbg_operation_record* drop[2] = {nullptr, nullptr};
  bool indexed;
  {
    core::MaybeSpinGuard guard(g_lock);
    FlightHandleReused(request);
    core::RequestIndex::Entry previous;
    indexed = g_requests.Insert(request, AddressOf(rec), AddressOf(companion), &previous);
    if (__builtin_expect(previous.record != 0, 0)) DisplacedPair(previous, drop);
  }
  if (__builtin_expect(!indexed, 0)) {  // could not index it (memory): drop the records
    drop[0] = rec;
    drop[1] = companion;
  }
  if (__builtin_expect(drop[0] != nullptr, 0)) DropRecord(ts, drop[0]);
  if (__builtin_expect(drop[1] != nullptr, 0)) DropRecord(ts, drop[1]);
}

// Orphan release (budget eviction or mpidbg_release_orphans): unindex, then free.
void ReleaseOrphanRequest(mpidbg_record_header* hdr, void*) {
  auto* rec = reinterpret_cast<mpidbg_operation_record*>(hdr);
  {
    core::MaybeSpinGuard guard(g_lock);
    if (!g_requests.CompareErase(rec->request, AddressOf(rec))) {
      // A companion: the index entry (if still there) must stop naming it.
      g_requests.ForgetCompanion(rec->request, AddressOf(rec));
    }
  }
  // Also from the clock thread, beside a thread in MPI (a release a debugger asked for).
  g_operation_table.VacateBeside(&rec->hdr);
  g_operation_table.ReturnSlot(&rec->hdr);
  g_operation_table.BumpGenerationHot();
}

void MarkFreedLocked(mpidbg_operation_record* rec, uint64_t serial) {
  core::BeginRecordWrite(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_FREED;
  rec->free_serial = serial;
  core::EndRecordWrite(&rec->hdr);
}

// What completion needs of a request's record (SavedRequest, rt/hot/thread_state.h).
void Save(const mpidbg_operation_record& rec, SavedRequest* s) {
  s->comm_handle = rec.comm_handle;
  s->comm_job_id = rec.comm_job_id;
  s->bytes = rec.bytes;
  s->direction = rec.direction;
  s->call = rec.call;
  s->peer = rec.peer;
  s->peer_world = rec.peer_world;
  s->tag = rec.tag;
}

// A completed persistent request's record: inactive until started again.
void MarkInactive(mpidbg_operation_record* rec) {
  core::BeginRecordWrite(&rec->hdr);
  rec->hdr.flags |= MPIDBG_OPERATION_INACTIVE;
  rec->status = MPIDBG_OPERATION_COMPLETE;
  core::EndRecordWrite(&rec->hdr);
}

bool Inactive(const mpidbg_operation_record* rec) {
  const uint32_t both = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  return (rec->hdr.flags & both) == both;
}

}  // namespace

void FillOperationRecord(mpidbg_operation_record* rec, const OperationDescription& d, uint64_t tid) {
  ThreadState* ts = t_state;
  DatatypeInfo described;
  const DatatypeInfo* type = d.type;
  if (type == nullptr && ts != nullptr) type = &DatatypeOf(ts, d.datatype);
  if (type == nullptr) {
    DescribeDatatype(d.datatype, &described);
    type = &described;
  }
  rec->request = 0;
  if (d.comm != nullptr) NoteCommInOperations(d.comm->job_id);
  rec->comm_handle = d.comm != nullptr ? d.comm->handle : 0;
  // Other areas scan op records for these two fields with atomic loads.
  __atomic_store_n(&rec->comm_job_id, d.comm != nullptr ? d.comm->job_id : 0, __ATOMIC_RELAXED);
  rec->post_serial = core::CounterAdd(&mpidbg_runtime_root.post_counter, uint64_t{1});
  rec->buffer = AddressOf(d.buffer);
  __atomic_store_n(&rec->datatype, d.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(d.datatype),
                   __ATOMIC_RELAXED);
  rec->count = d.count;
  rec->bytes = d.bytes >= 0 ? d.bytes : d.count * type->size;
  rec->tid = tid;
  rec->post_time_ns = ts != nullptr && ts->depth > 0 ? ts->live.entry_time_ns : core::CoarseRealtimeNs();
  rec->actual_bytes = 0;
  rec->create_pc = CurrentCallSite();
  rec->call = d.call;
  rec->direction = d.direction;
  rec->mode = d.mode;
  rec->status = d.status;
  rec->peer = d.peer;
  rec->peer_world = d.peer_world != MPIDBG_RANK_UNKNOWN ? d.peer_world
                    : d.comm != nullptr                ? PeerWorld(*d.comm, d.peer)
                    : d.peer < 0                       ? d.peer
                                                       : MPIDBG_RANK_UNKNOWN;
  rec->tag = d.tag;
  rec->actual_source = d.actual_source;
  rec->actual_tag = d.actual_tag;
  rec->reserved = 0;
  memcpy(rec->datatype_name, type->name, sizeof rec->datatype_name);
  rec->object = d.object;
  rec->free_serial = 0;
  rec->file_offset = d.file_offset;
  rec->target_disp = d.target_disp;
  rec->extra_state = d.extra_state;
  rec->query_fn = d.query_fn;
  rec->reserved2 = 0;
}

void TrackRequest(uint64_t request, const OperationDescription& d, uint32_t flags, uint64_t tid) {
  ThreadState* ts = t_state;
  mpidbg_operation_record* rec = NewOperationRecord(ts, request, d, flags, tid);
  if (rec != nullptr) Index(ts, request, rec, nullptr);
}

void TrackRequestPair(uint64_t request, const OperationDescription& main,
                      const OperationDescription& companion, uint64_t tid) {
  ThreadState* ts = t_state;
  mpidbg_operation_record* rec = NewOperationRecord(ts, request, main, 0, tid);
  if (rec == nullptr) return;
  mpidbg_operation_record* other = NewOperationRecord(ts, request, companion, 0, tid);
  Index(ts, request, rec, other);
}

mpidbg_operation_record* FindOperationRecord(uint64_t request) {
  mpidbg_operation_record* out = nullptr;
  FindOperationRecords(&request, 1, &out);
  return out;
}

namespace {
bool Collectable(const mpidbg_operation_record* rec) {
  return rec != nullptr && (rec->hdr.flags & (MPIDBG_REC_FREED | MPIDBG_OPERATION_INACTIVE)) == 0;
}
}  // namespace

int PendingOperationRequests(uint64_t tid, uint64_t* out, int max) {
  core::MaybeSpinGuard guard(g_lock);
  int n = 0;
  g_requests.ForEach([&](const core::RequestIndex::Entry& e) {
    const mpidbg_operation_record* rec = RequestAt(e.record);
    if (!Collectable(rec) || rec->tid != tid) return;
    if (n < max) out[n] = e.key;
    ++n;
  });
  return n;
}

bool OperationRequestPending(uint64_t request) {
  core::MaybeSpinGuard guard(g_lock);
  const core::RequestIndex::Entry* e = g_requests.Find(request);
  return e != nullptr && Collectable(RequestAt(e->record));
}

void FindOperationRecords(const uint64_t* requests, int n, mpidbg_operation_record** out) {
  core::MaybeSpinGuard guard(g_lock);
  for (int i = 0; i < n; ++i) {
    const core::RequestIndex::Entry* e = g_requests.Find(requests[i]);
    mpidbg_operation_record* rec = e != nullptr ? RequestAt(e->record) : nullptr;
    out[i] = rec != nullptr && (rec->hdr.flags & MPIDBG_REC_FREED) == 0 ? rec : nullptr;
  }
}

void FindOperationRecordsSaved(const uint64_t* requests, int n, mpidbg_operation_record** out,
                         SavedRequest* saved) {
  core::MaybeSpinGuard guard(g_lock);
  for (int i = 0; i < n; ++i) {
    const core::RequestIndex::Entry* e = g_requests.Find(requests[i]);
    mpidbg_operation_record* rec = e != nullptr ? RequestAt(e->record) : nullptr;
    if (rec != nullptr && (rec->hdr.flags & MPIDBG_REC_FREED) != 0) rec = nullptr;
    out[i] = rec;
    SavedRequest& s = saved[i];
    if (rec == nullptr) {
      s.direction = 0;
      continue;
    }
    Save(*rec, &s);
  }
}

void FindOperationRecordPairs(const uint64_t* requests, int n, mpidbg_operation_record** out,
                        mpidbg_operation_record** companions) {
  core::MaybeSpinGuard guard(g_lock);
  for (int i = 0; i < n; ++i) {
    const core::RequestIndex::Entry* e = g_requests.Find(requests[i]);
    mpidbg_operation_record* rec = e != nullptr ? RequestAt(e->record) : nullptr;
    if (rec == nullptr || (rec->hdr.flags & MPIDBG_REC_FREED) != 0) {
      out[i] = companions[i] = nullptr;
    } else {
      out[i] = rec;
      companions[i] = e->companion != 0 ? RequestAt(e->companion) : nullptr;
    }
  }
}

void StartOperationRecord(mpidbg_operation_record* rec, uint64_t tid) {
  // The request belongs to the starting thread now (MPI forbids two threads using one
  // request at a time): its record is written without the lock.
  core::BeginRecordWrite(&rec->hdr);
  rec->hdr.flags &= ~MPIDBG_OPERATION_INACTIVE;
  rec->status = MPIDBG_OPERATION_PENDING;
  rec->post_serial = core::CounterAdd(&mpidbg_runtime_root.post_counter, uint64_t{1});
  const ThreadState* ts = t_state;
  rec->post_time_ns = ts != nullptr && ts->depth > 0 ? ts->live.entry_time_ns : core::CoarseRealtimeNs();
  rec->tid = tid;
  core::EndRecordWrite(&rec->hdr);
}

bool CarryStartIntoRecord(const mpidbg_flight_entry& e, uint64_t tid) {
  mpidbg_operation_record* rec = FindOperationRecord(e.request);
  if (rec == nullptr || (rec->hdr.flags & MPIDBG_OPERATION_PERSISTENT) == 0) return false;
  core::BeginRecordWrite(&rec->hdr);
  mpidbg_operation_apply_start(&e, tid, rec);
  core::EndRecordWrite(&rec->hdr);
  return true;
}

void RetireRequest(uint64_t request, mpidbg_operation_record* expected) {
  if (expected == nullptr) return;
  mpidbg_operation_record* companion = nullptr;
  {
    core::MaybeSpinGuard guard(g_lock);
    // `expected` is read only once the index confirms it is still this request's record.
    core::RequestIndex::Entry* e = g_requests.FindMutable(request);
    if (e == nullptr || e->record != AddressOf(expected)) return;
    if ((expected->hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0) {
      MarkInactive(expected);
      return;
    }
    companion = e->companion != 0 ? RequestAt(e->companion) : nullptr;
    g_requests.RemoveEntry(e);
  }
  ThreadState* ts = t_state;
  DropRecord(ts, expected);
  if (companion != nullptr) DropRecord(ts, companion);
}

void RetireOwnedRequest(ThreadState* ts, uint64_t request, const MPI_Status* status) {
  core::RequestIndex::Entry* e = g_requests.FindMutable(request);
  if (e == nullptr) return;
  mpidbg_operation_record* rec = RequestAt(e->record);
  const uint32_t flags = rec->hdr.flags;
  if ((flags & MPIDBG_REC_FREED) != 0) return;
  SavedRequest r;
  Save(*rec, &r);
  r.count_as = CountingOf(r);
  if ((flags & MPIDBG_OPERATION_PERSISTENT) != 0) {
    MarkInactive(rec);
  } else {
    mpidbg_operation_record* companion = e->companion != 0 ? RequestAt(e->companion) : nullptr;
    g_requests.RemoveEntry(e);
    DropRecord(ts, rec);
    if (companion != nullptr) DropRecord(ts, companion);
  }
  CountFrom(ts, r, status);
}

void PrepareRequestFree(uint64_t request, FreeTicket* ticket) {
  *ticket = FreeTicket{};
  core::MaybeSpinGuard guard(g_lock);
  core::RequestIndex::Entry* e = g_requests.FindMutable(request);
  if (e == nullptr) return;
  mpidbg_operation_record* rec = RequestAt(e->record);
  if ((rec->hdr.flags & MPIDBG_REC_FREED) != 0) return;  // freed twice: MPI's error
  ticket->rec = rec;
  ticket->companion = e->companion != 0 ? RequestAt(e->companion) : nullptr;
  ticket->orphan = !Inactive(rec);
  if (!ticket->orphan) return;
  // Marked before MPI frees the request: if MPI then hands the handle to another
  // thread, that thread's TrackRequest sees FREED and marks it RELEASED instead of
  // dropping it.
  const uint64_t serial = __atomic_add_fetch(&mpidbg_runtime_root.free_counter, 1,
                                             __ATOMIC_RELAXED);
  MarkFreedLocked(rec, serial);
  if (ticket->companion != nullptr) MarkFreedLocked(ticket->companion, serial);
}

void FinishRequestFree(uint64_t request, const FreeTicket& ticket, bool freed) {
  if (ticket.rec == nullptr) return;
  if (!freed) {
    if (!ticket.orphan) return;
    core::MaybeSpinGuard guard(g_lock);  // MPI kept the request: it is live again
    for (mpidbg_operation_record* r : {ticket.rec, ticket.companion}) {
      if (r == nullptr) continue;
      core::BeginRecordWrite(&r->hdr);
      r->hdr.flags &= ~MPIDBG_REC_FREED;
      r->free_serial = 0;
      core::EndRecordWrite(&r->hdr);
    }
    return;
  }
  if (ticket.orphan) {
    g_operation_table.BumpGenerationHot();
    // Either record may be evicted (and its slot reused) inside Add: nothing is read
    // through them afterwards.
    // Below MPI_THREAD_MULTIPLE the request index takes no lock: its release may run
    // only inside an MPI call, not beside one (the clock thread's release).
    const bool beside = core::Concurrent();
    g_orphans.Add(&ticket.rec->hdr, &ReleaseOrphanRequest, nullptr, beside);
    if (ticket.companion != nullptr) {
      g_orphans.Add(&ticket.companion->hdr, &ReleaseOrphanRequest, nullptr, beside);
    }
    return;
  }
  // Inactive persistent request: its records go now, unless MPI has already handed the
  // handle out again and that request's TrackRequest dropped them.
  bool mine;
  {
    core::MaybeSpinGuard guard(g_lock);
    mine = g_requests.CompareErase(request, AddressOf(ticket.rec));
  }
  if (!mine) return;
  ThreadState* ts = t_state;
  DropRecord(ts, ticket.rec);
  if (ticket.companion != nullptr) DropRecord(ts, ticket.companion);
  g_operation_table.BumpGenerationHot();
}

void FreeRequest(uint64_t request) {
  FreeTicket ticket;
  PrepareRequestFree(request, &ticket);
  FinishRequestFree(request, ticket, true);
}

mpidbg_operation_record* TakeBlockingSlot(ThreadState* ts, int which) {
  auto* rec = reinterpret_cast<mpidbg_operation_record*>(g_operation_table.TakeSlot());
  if (rec == nullptr) return nullptr;
  // The slot is FREE (readers skip it) and stays this thread's: what no blocking call
  // changes is written once, here, and each call writes the rest (hooks_p2p.h).
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
  ts->blocking_requests[which] = rec;
  ts->blocking_memo[which].key.count_call = MemoKey(0, MPIDBG_CALL_NONE);
  return rec;
}

uint32_t RefillOperationSlots(ThreadState* ts) {
  ts->slot_count = g_operation_table.TakeSlots(ts->slot_cache, kSlotBatch);
  return ts->slot_count;
}

void DrainOperationSlots(ThreadState* ts) {
  ts->slot_count -= kSlotBatch;
  g_operation_table.ReturnSlots(ts->slot_cache + ts->slot_count, kSlotBatch);
}

void IndexRequest(ThreadState* ts, uint64_t request, mpidbg_operation_record* rec,
                  mpidbg_operation_record* companion) {
  CloseOperationRecord(rec);
  if (companion != nullptr) CloseOperationRecord(companion);
  Index(ts, request, rec, companion);
}

mpidbg_operation_record* OpenOwnedOperationRecord(ThreadState* ts, uint64_t request, uint32_t flags,
                                     OwnedOperationSlot* slot) {
  FlightHandleReused(request);
  core::RequestIndex::Entry* e = g_requests.FindOrSlot(request);
  if (e != nullptr && e->key == 0) {
    slot->entry = e;  // not indexed: a new record goes here
  } else if (e != nullptr && e->companion == 0) {
    mpidbg_operation_record* old = RequestAt(e->record);
    if ((old->hdr.flags & MPIDBG_REC_FREED) == 0) {
      // Stays live (and counted in live_count) throughout; only its seq window opens.
      g_operation_table.OpenRecord(&old->hdr, flags);
      slot->reused = true;
      return old;
    }
  }
  // Otherwise (a freed record or a pair under the handle, no memory) Index sorts it out.
  return OpenOperationRecord(ts, flags);
}

void FinishOwnedOperationRecord(ThreadState* ts, uint64_t request, mpidbg_operation_record* rec,
                          const OwnedOperationSlot& slot) {
  if (slot.reused) {
    core::EndRecordWrite(&rec->hdr);
    return;
  }
  if (slot.entry == nullptr) {
    IndexRequest(ts, request, rec, nullptr);
    return;
  }
  CloseOperationRecord(rec);
  g_requests.Claim(static_cast<core::RequestIndex::Entry*>(slot.entry), request, AddressOf(rec), 0);
}

void TrackCarriedRequest(ThreadState* ts, const mpidbg_operation_record& body) {
  mpidbg_operation_record* rec = TakeSlotFor(ts);
  if (rec == nullptr) return;
  NoteCommInOperations(body.comm_job_id);
  g_operation_table.OpenRecord(&rec->hdr, 0);
  constexpr size_t kBody = offsetof(mpidbg_operation_record, request);
  memcpy(reinterpret_cast<char*>(rec) + kBody, reinterpret_cast<const char*>(&body) + kBody,
         sizeof body - kBody);
  Index(ts, body.request, rec, nullptr);
}

void DisplaceRequestRecord(ThreadState* ts, uint64_t request) {
  core::RequestIndex::Entry* e = g_requests.FindMutable(request);
  if (e == nullptr) return;
  mpidbg_operation_record* drop[2] = {nullptr, nullptr};
  DisplacedPair(*e, drop);
  g_requests.RemoveEntry(e);
  if (drop[0] != nullptr) DropRecord(ts, drop[0]);
  if (drop[1] != nullptr) DropRecord(ts, drop[1]);
}

void ReleaseThreadRequests(ThreadState* ts) {
  for (mpidbg_operation_record*& op : ts->blocking_requests) {
    if (op == nullptr) continue;
    if (op->hdr.kind != MPIDBG_KIND_FREE) g_operation_table.VacateBeside(&op->hdr);  // at exit
    g_operation_table.ReturnSlot(&op->hdr);
    op = nullptr;
  }
  g_operation_table.ReturnSlots(ts->slot_cache, ts->slot_count);
  ts->slot_count = 0;
}

uint64_t RequestBytes() {
  // In a flight ring: its entry and its slot of the direct-mapped table (a second
  // pending request of the same slot is carried out of the ring).
  if (g_flight_capacity != 0) return sizeof(mpidbg_flight_entry) + sizeof(mpidbg_flight_entry*);
  // The index doubles when half full, so at least a quarter of its entries are in use.
  return sizeof(mpidbg_operation_record) + 4 * sizeof(core::RequestIndex::Entry);
}

}  // namespace mpidbg::rt
