// operation_registry.h — operation records: requests (nonblocking, persistent, nonblocking
// collectives, and the requests of other areas: RMA, file I/O, generalized) keyed by
// request handle, and the envelopes of blocking calls in progress.
//
// HOT PATH (every point-to-point call). No heap allocation once warm, no system call.
// operation records come from a per-thread cache of request slots (refilled and drained in
// batches under the request table's lock) and are indexed by handle in a RequestIndex (grows
// only). The index takes a spinlock only under MPI_THREAD_MULTIPLE (core/concurrency.h).
// Blocking calls use request slots reserved per thread and take no lock at all.
//
// MPI_Request_free on an active request keeps its record as an orphan (marked FREED,
// free_serial from root.free_counter) in the shared orphan list. The runtime cannot see
// when MPI finishes such a request; it marks the record RELEASED when MPI hands the same
// request handle out again (MPI reuses a handle only once it has freed the request).
// Until then, or until the orphan budget evicts it, the record stays FREED only.
#ifndef MPIDBG_RT_REQUEST_REGISTRY_H
#define MPIDBG_RT_REQUEST_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "core/request_index.h"
#include "mpidbg/records.h"
#include "rt/hot/datatype_info.h"

namespace mpidbg::rt {

struct CommView;
struct SavedRequest;
struct ThreadState;

// The caller's description of an operation; MPI-specific values are normalised here.
struct OperationDescription {
  int32_t call = MPIDBG_CALL_NONE;
  int32_t direction = MPIDBG_OPERATION_SEND;
  int32_t mode = MPIDBG_MODE_NONE;
  int32_t status = MPIDBG_OPERATION_PENDING;
  const void* buffer = nullptr;
  int64_t count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int32_t peer = MPIDBG_RANK_UNKNOWN;  // already normalised
  int32_t tag = MPIDBG_TAG_ANY;        // already normalised
  const CommView* comm = nullptr;      // nullptr when the call has no communicator
  // Requests of other origins (records.h, appended op fields).
  uint64_t object = 0;        // window (RMA) or file (file I/O) handle
  int64_t file_offset = -1;   // explicit offset of *_at file I/O
  int64_t target_disp = 0;    // RMA target displacement
  uint64_t extra_state = 0;   // generalized requests
  uint64_t query_fn = 0;      // generalized requests
  int64_t bytes = -1;         // when >= 0, used instead of count * datatype size
  // Known when the message was matched before posting (MPI_Mrecv/Imrecv).
  int32_t actual_source = MPIDBG_RANK_UNKNOWN;
  int32_t actual_tag = MPIDBG_TAG_ANY;
  // The peer's world rank when the caller knows it (else computed from comm).
  int32_t peer_world = MPIDBG_RANK_UNKNOWN;
  // The datatype's size and name when the caller has them (else looked up).
  const DatatypeInfo* type = nullptr;
};

// Fills every field of `rec` after the header from `d` (request 0). Takes the next
// post serial and the calling thread's entry time as posting time.
void FillOperationRecord(mpidbg_operation_record* rec, const OperationDescription& d, uint64_t tid);

// --- requests ---
// Records a request; persistent ones start INACTIVE. A stale record for the same handle
// (a request that completed without the runtime seeing it) is released; a freed one
// (see above) is marked RELEASED.
void TrackRequest(uint64_t request, const OperationDescription& d, uint32_t flags, uint64_t tid);
// A request with two records: `main` (reported by completion; for MPI_Isendrecv its
// receive half) and `companion` (the send half). Both go when the request completes.
void TrackRequestPair(uint64_t request, const OperationDescription& main,
                      const OperationDescription& companion, uint64_t tid);
// The record of a request, or nullptr (freed requests are not found).
mpidbg_operation_record* FindOperationRecord(uint64_t request);
// Requests a completion still has to collect: recorded, not freed, and not a persistent
// request at rest (MPIDBG_OPERATION_INACTIVE). For a pause (rt/hot/pause_drain.h): the
// handles of those the thread `tid` posted (or started), the first `max` into `out`, and
// how many there are; whether one request is such.
int PendingOperationRequests(uint64_t tid, uint64_t* out, int max);
bool OperationRequestPending(uint64_t request);
// Looks up n requests under one lock acquisition.
void FindOperationRecords(const uint64_t* requests, int n, mpidbg_operation_record** out);
// The same, also copying what completion needs of each record while the lock is held
// (saved[i].direction is 0 where a request has no record).
void FindOperationRecordsSaved(const uint64_t* requests, int n, mpidbg_operation_record** out,
                         SavedRequest* saved);
// The same with companions (nullptr where a request has none).
void FindOperationRecordPairs(const uint64_t* requests, int n, mpidbg_operation_record** out,
                        mpidbg_operation_record** companions);
// A persistent request (its record, FindOperationRecord) was started, where the start
// is not a flight ring entry (hooks_p2p.cc, PostStart): active, a new post serial and
// time. No generation step (the calling scope's covers it).
void StartOperationRecord(mpidbg_operation_record* rec, uint64_t tid);
// A POSTED start entry of a persistent request (records.h, MPIDBG_FLIGHT_START) of the
// thread `tid`, carried: the request's record takes it as started (its post serial and
// time). False when the request has no record to take it (the caller then carries the
// entry into a record of its own).
bool CarryStartIntoRecord(const mpidbg_flight_entry& e, uint64_t tid);
// A request completed: a persistent one goes INACTIVE, others are released (with their
// companion). Only if the handle still maps to `expected` (a handle may be reused as
// soon as MPI frees it). No generation step (the calling scope's covers it).
void RetireRequest(uint64_t request, mpidbg_operation_record* expected);
// MPI_Request_free: an inactive persistent request's record goes away; an active
// request's record (and companion) becomes a FREED orphan. In two steps around
// PMPI_Request_free, because MPI may hand the handle out again (to another thread) as
// soon as it has freed the request: the records are marked before the call, and
// orphaned or dropped after it, by pointer, never by looking the handle up again.
struct FreeTicket {
  mpidbg_operation_record* rec = nullptr;
  mpidbg_operation_record* companion = nullptr;
  bool orphan = false;  // active: kept as orphans; else dropped
};
void PrepareRequestFree(uint64_t request, FreeTicket* ticket);
void FinishRequestFree(uint64_t request, const FreeTicket& ticket, bool freed);
// Both steps at once, for a request nobody else can get the handle of meanwhile.
void FreeRequest(uint64_t request);

// --- per-message forms for hooks that fill op records themselves ---
// rt/hot/operation_slots.h opens records (OpenOperationRecord, OpenBlockingRecord); the caller writes every
// field of the body. IndexRequest closes a operation record (and its optional companion,
// opened the same way) and indexes it under `request`. No generation step: the calling
// scope's publication covers it (operation_slots.h).
void IndexRequest(ThreadState* ts, uint64_t request, mpidbg_operation_record* rec,
                  mpidbg_operation_record* companion);

// The same below MPI_THREAD_MULTIPLE, where no other thread can touch the index or a
// record while this one is in MPI. When the index still holds a live record under
// `request` (its request completed unseen: MPI handed the handle out again, as both MPIs
// do for a small send that completed at once, with one shared handle), that record is
// reopened and rewritten in place instead of being dropped for a new one (slot->reused).
// The caller writes every field, then FinishOwnedOperationRecord closes it (and indexes a new
// one, in the entry the lookup found free: one probe either way). nullptr if memory ran
// out.
struct OwnedOperationSlot {
  void* entry = nullptr;  // the index entry to claim for a new record, if known
  bool reused = false;
};
mpidbg_operation_record* OpenOwnedOperationRecord(ThreadState* ts, uint64_t request, uint32_t flags,
                                     OwnedOperationSlot* slot);
void FinishOwnedOperationRecord(ThreadState* ts, uint64_t request, mpidbg_operation_record* rec,
                          const OwnedOperationSlot& slot);

// Completion below MPI_THREAD_MULTIPLE, where no other thread can touch the index or a
// record while this one is in MPI: looks `request` up once, counts it as a received
// message if it is one (completed with `status`, nullptr if unknown; rt/hot/completion_count.h)
// and retires it as RetireRequest does.
void RetireOwnedRequest(ThreadState* ts, uint64_t request, const MPI_Status* status);

// --- requests carried out of a flight ring (rt/hot/flight_ring.h) ---
// A new operation record with `body`'s fields (after the header), indexed under
// body.request. Below MPI_THREAD_MULTIPLE only.
void TrackCarriedRequest(ThreadState* ts, const mpidbg_operation_record& body);
// The request index maps request handles to op records (operation_registry.cc). A flight
// post below MPI_THREAD_MULTIPLE looks at it only while it holds anything.
extern core::RequestIndex g_requests;
// MPI handed `request` out for a request posted into a flight ring: a record the index
// holds under it is stale (its request completed unseen) and goes, or, if freed, is
// marked RELEASED. Below MPI_THREAD_MULTIPLE only.
void DisplaceRequestRecord(ThreadState* ts, uint64_t request);

// Thread exit: the thread's reserved and cached request slots go back to the table.
void ReleaseThreadRequests(ThreadState* ts);

// Bytes of runtime memory per live request: its op record plus its share of the
// request index at the index's highest load (published as root.request_bytes).
uint64_t RequestBytes();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_REQUEST_REGISTRY_H
