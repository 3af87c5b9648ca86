// thread_state.h — per-thread call state and its record.
//
// HOT PATH. Every MPI call goes through CallScope. Rules for this file and
// thread_state.cc: no lock, no heap allocation, no system call (the thread's first MPI
// call and scratch growth are in thread_setup.cc); PMPI_* only, never MPI_*.
//
// Only the outermost MPI call of a thread touches its record (an MPI library or a user
// callback calling MPI from inside MPI nests scopes).
//
// What a thread is doing is kept twice: in its record (for debuggers: call, arguments,
// entry time, written inside the record's sequence window) and in the live words of the
// ThreadState (records.h, mpidbg_thread_live), which mpidbg_thread_mpi_state() reads from
// a signal handler. State and call are set as the wrapper is entered, before any hook
// runs, and cleared as it returns. Calls that return by themselves, the Wait family, and
// below MPI_THREAD_MULTIPLE the blocking sends and receives whose envelope is a flight
// entry, write only the live words (CallScope::Publish).
//
// "Blocked" is decided from above PMPI, per call, by what the call may do: a call that
// can only return once another process has acted (blocking point-to-point, the Wait
// family, blocking collectives, MPI_Init/Finalize, ...) is BLOCKED for its whole
// duration; one that returns by itself (nonblocking posts, Test, Iprobe, queries) is
// IN_MPI. The class of each call is the state column of the gen/*.def tables. See
// mpidbg/doc/hot_path.md.
#ifndef MPIDBG_RT_THREAD_STATE_H
#define MPIDBG_RT_THREAD_STATE_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "core/clock.h"
#include "core/inline.h"
#include "core/record_write.h"
#include "mpidbg/records.h"
#include "rt/comms/comm_registry.h"
#include "rt/hot/datatype_info.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

// Free request slots a thread keeps for its own requests, refilled and drained in batches so
// the request table's lock is taken once per kSlotBatch requests, not per request. The cache
// holds more than a batch beyond the largest window of requests a program typically
// keeps in flight (64 or so), so a steady post/complete cycle never touches the lock.
constexpr uint32_t kSlotCacheSize = 256;
constexpr uint32_t kSlotBatch = 64;

// What completion needs of a request's record. Under MPI_THREAD_MULTIPLE it is copied
// before the call under the request registry's lock: once MPI has completed a request another
// thread may get the same handle, and the record's slot, before this thread's Post hook
// runs (hooks_completion.h).
struct SavedRequest {
  uint64_t comm_handle;
  uint64_t comm_job_id;
  int64_t bytes;
  int32_t direction;  // 0 when the request has no record
  int32_t call;
  int32_t peer;
  int32_t peer_world;
  int32_t tag;
  int32_t count_as;   // filled by hooks_completion.cc
};

// The arguments of the call that last filled a blocking op slot, and what was derived
// from them (hooks_p2p.h, PostBlocking). While a call's arguments are the same, the
// slot already holds its envelope but for post serial and time. Only calls whose
// envelope depends on nothing else are remembered: a predefined datatype (a derived
// one's handle may be freed and reused), a communicator still known under the same
// job id, no message handle.
//
// The 32-bit arguments are compared in pairs packed into registers (MemoKey): compared
// one by one against a struct the compiler had spilled, two 32-bit stores read back as
// one 64-bit load stall the pipeline (no store forwarding) on every call.
constexpr uint64_t MemoKey(int32_t high, int32_t low) {
  return uint64_t{static_cast<uint32_t>(high)} << 32 | static_cast<uint32_t>(low);
}

// A count as the memos compare it: the count itself when it fits 32 bits (always, for
// the int-count calls: the compiler drops the test), else kNoMemoCount, which no memo
// holds — an MPI-4 large count (MPI_Send_c, ...) beyond 32 bits is never reused.
constexpr int32_t kNoMemoCount = INT32_MIN;
constexpr int32_t MemoCount(int64_t count) {
  return static_cast<int32_t>(count) == count ? static_cast<int32_t>(count) : kNoMemoCount;
}

// The arguments a memo was made from, all but the buffer (hooks_p2p.h, MemoKeyMatches,
// SetMemoKey); every memo below has one.
struct RequestMemoKey {
  uint64_t count_call = MemoKey(0, MPIDBG_CALL_NONE);  // call NONE: nothing reusable
  uint64_t peer_tag = 0;  // as passed (the library's encoding)
  uint64_t datatype = 0;
  uint64_t comm = 0;
  uint64_t job_id = 0;
};

struct BlockingMemo {
  RequestMemoKey key;
  uint64_t buf = 0;  // the slot's record names the buffer too
  // Derived.
  int64_t bytes = 0;
  int32_t norm_peer = 0;
  int32_t peer_world = 0;
  int32_t norm_tag = 0;
};

// The same for operation records (hooks_p2p.h, PostOperationRecord): a copy of the last record
// the thread filled for a send (0) and a receive (1), with the arguments it came from but
// the buffer. A call with the same arguments copies it and sets buffer, request, post
// serial and time. Nonblocking and persistent requests (MPI_*_init) have a pair each,
// kept apart since programs make both in one loop.
struct RequestMemo {
  RequestMemoKey key;
  mpidbg_operation_record record = {};
};

// The same for flight ring entries (hooks_p2p.h, PostFlightEntry): the described part of
// an entry the thread posted for a nonblocking send (0) and receive (1), a blocking send
// (2) and receive (3) — kept apart, since programs alternate them — with the arguments
// it came from but the buffer, and for a send its traffic counters (entries never move
// once READY; nullptr when the send was not counted). Each of the four keeps
// kFlightMemoWays envelopes: a post compares the first inline, and on a miss the others
// out of line (hooks_p2p.cc, RecallFlightMemo); an envelope described anew goes in the
// first, whose old envelope moves over the oldest of the others. A halo exchange
// alternates a few envelopes (its swaps' peers, tags and counts): with one memo each of
// its posts would describe its envelope again; a loop of one envelope pays nothing.
constexpr uint32_t kFlightMemoWays = 4;
struct FlightMemo {
  RequestMemoKey key;
  mpidbg_flight_entry entry = {};
  mpidbg_traffic_entry* traffic = nullptr;
};

// Requests pending at a pause that a paused thread's completion calls still record
// (rt/hot/pause_drain.h): the most noted by handle; beyond it, every completion call.
constexpr int kPauseDrainMax = 32;
constexpr int kPauseDrainEvery = -1;

struct ThreadState {
  mpidbg_thread_record* rec = nullptr;
  uint64_t tid = 0;
  // Nesting of MPI calls: only the outermost records. A paused thread
  // (mpidbg_pause_recording) counts its pauses in here too, so each of its calls is
  // nested and goes straight to MPI; `paused` says how many of the depth they are.
  int depth = 0;
  int paused = 0;
  // What the thread is doing in MPI (records.h, mpidbg_thread_live; the thread record's
  // `live` names it): state and call of the outermost call, read by
  // mpidbg_thread_mpi_state() (possibly from a signal handler on this thread) and by
  // debuggers; its site (the wrapper's __builtin_return_address(0), for the MPI-state
  // sampler's call sites, rt/profile/profile.h; meaningful only while the state is not
  // NOT_IN_MPI), entry time (CLOCK_REALTIME, coarse), communicator, a count of
  // outermost calls, and the flight entry of a blocking send or receive.
  mpidbg_thread_live live = {MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  // Request slots reserved for this thread's blocking calls: 0 for sends, 1 for receives and
  // probes (a Sendrecv uses both); taken on first use, FREE between calls. The body of
  // a FREE slot keeps what its last call wrote, which the next call with the same
  // arguments reuses (blocking_memo).
  mpidbg_operation_record* blocking_requests[2] = {nullptr, nullptr};
  BlockingMemo blocking_memo[2];
  RequestMemo request_memo[2];
  FlightMemo flight_memo[4][kFlightMemoWays];  // nonblocking send, receive; blocking send, receive
  uint8_t flight_memo_victim[4] = {};  // the way of the others written over last
  // Free request slots (kind FREE) for requests.
  mpidbg_record_header* slot_cache[kSlotCacheSize] = {};
  uint32_t slot_count = 0;
  // The thread's flight ring (rt/hot/flight_ring.h), made on its first post; head and
  // mask are the record's flight_head and flight_capacity - 1.
  mpidbg_flight_entry* flight = nullptr;
  uint64_t flight_head = 0;
  uint64_t flight_mask = 0;
  // Traffic entries this thread used last, by (peer, tag) bits (entries never move once
  // READY).
  static constexpr uint32_t kTrafficCacheSize = 8;
  mpidbg_traffic_entry* send_entries[kTrafficCacheSize] = {};
  mpidbg_traffic_entry* receive_entries[kTrafficCacheSize] = {};
  // The message an MPI_Mrecv/Imrecv consumes, as its probe matched it.
  CommView message_view;
  int32_t message_source = MPIDBG_RANK_UNKNOWN;
  int32_t message_source_world = MPIDBG_RANK_UNKNOWN;
  int32_t message_tag = MPIDBG_TAG_ANY;
  // Predefined datatypes this thread used last (datatype_info.cc).
  static constexpr uint32_t kTypeCacheSize = 8;
  struct TypeCacheEntry {
    uint64_t key = 0;
    DatatypeInfo info;
  } type_cache[kTypeCacheSize];
  DatatypeInfo type_scratch[2];  // the last two other datatypes described
  uint32_t type_scratch_next = 0;
  // The communicator this thread used last (operation_registry.cc, ViewOf), valid while the
  // communicator table has not changed since (g_comm_table.changes()).
  uint64_t comm_key = 0;
  uint64_t comm_changes = ~uint64_t{0};
  CommView comm_view;
  // Status used in place of MPI_STATUS_IGNORE when the runtime needs the status.
  MPI_Status own_status[2];
  // Completion-call scratch: request handles, op records and what counting needs of
  // them before the call, and statuses used in place of MPI_STATUSES_IGNORE.
  uint64_t* saved_handles = nullptr;
  mpidbg_operation_record** saved_records = nullptr;
  SavedRequest* saved_requests = nullptr;
  MPI_Status* statuses = nullptr;
  int saved_capacity = 0;
  // request_memo for persistent requests. Last: where it lies moves none of the fields
  // above, whose layout the per-message calls' timing was measured with (doc/hot_path.md).
  RequestMemo persistent_memo[2];
  // The requests pending when the thread paused that it has not collected since
  // (rt/hot/pause_drain.h): how many are noted (0 outside a pause, or with none pending
  // at it), or kPauseDrainEvery; their handles.
  int pause_drain = 0;
  uint64_t pause_drain_requests[kPauseDrainMax];
};

// A paused thread's completion call (rt/hot/pause_drain.cc, out of line): whether one of
// its `count` requests (C handles, or a Fortran binding's) is one the pause noted; and,
// after such a call ran recorded, the noted requests it collected dropped.
bool NamesPausePending(const ThreadState* ts, const MPI_Request* requests, int count);
bool NamesPausePendingFortran(const ThreadState* ts, const MPI_Fint* requests, int count);
void DropCollectedPausePending(ThreadState* ts);

// The slow half of CurrentThread (thread_setup.cc).
ThreadState* CreateThreadState();

// This thread's state or nullptr (set by CreateThreadState, cleared at thread exit).
// initial-exec: a plain %fs-relative load instead of a __tls_get_addr call, and safe in
// a signal handler. Fine for a library that is linked or preloaded; glibc's static TLS
// surplus covers a late dlopen.
extern __thread ThreadState* t_state __attribute__((tls_model("initial-exec")));

// This thread's state, created on first use; nullptr only if memory ran out.
inline ThreadState* CurrentThread() {
  ThreadState* ts = t_state;
  return ts != nullptr ? ts : CreateThreadState();
}

bool GrowScratch(ThreadState* ts, int n);  // thread_setup.cc
// Makes the completion scratch hold at least n entries; false if memory ran out.
inline bool ReserveScratch(ThreadState* ts, int n) {
  return n <= ts->saved_capacity || GrowScratch(ts, n);
}

// What the current call adds to the thread record beyond call and state. The first three
// fields are set for every call; the rest (a collective's or an I/O call's count and
// datatype, the request array of a Wait/Test) only once a hook asks for them
// (CallScope::detail, SetRequests), so most calls neither initialise nor publish them.
struct CallDetail {
  uint64_t comm_handle;
  uint64_t comm_job_id;
  uint64_t op;
  uint64_t requests;
  int32_t request_count;
  int64_t count;
  uint64_t datatype;
  int32_t root;
  char datatype_name[32];
};

// The two words a signal handler reads: on entry the call before the state, on exit the
// state before the call, so a handler that sees "in MPI" also sees the call (and the
// site, stored before the call). Both are written by the thread itself; a compiler
// fence is all the ordering a handler on the same thread needs.
MPIDBG_ALWAYS_INLINE void SetSignalState(ThreadState* ts, int32_t state, int32_t call) {
  if (state != MPIDBG_THREAD_NOT_IN_MPI) {
    __atomic_store_n(&ts->live.call, call, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&ts->live.state, state, __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&ts->live.state, state, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&ts->live.call, call, __ATOMIC_RELAXED);
  }
}

// The thread record's collective/I/O fields and their reset values (thread_setup.cc):
// out of line, since only the calls that set them pay for them. The detail goes by
// value: its address passed out of a wrapper would keep the whole scope in memory.
void PublishRichDetail(mpidbg_thread_record* rec, CallDetail d);
void ResetRichDetail(mpidbg_thread_record* rec);

// Where the program made the MPI call this thread is inside (the outermost wrapper's
// return address into its caller), 0 outside MPI: recorded as an object's create_pc so
// a debugger can name the creating line. Read on the calling thread only.
inline uint64_t CurrentCallSite() {
  const ThreadState* ts = t_state;
  return ts != nullptr && ts->depth > 0 ? ts->live.site : 0;
}

// What the hooks of most calls that publish nothing beyond their call need to know of
// it: the thread, the call's id, and whether it came through a Fortran binding. They
// take it by value, not the scope: a scope whose address no out-of-line hook gets stays
// in registers, and the compiler folds its publication for the call's fixed state (a
// category declares this with `facts`, gen/gen_wrappers.py). Hooks run in outermost
// calls only, so `thread` is never null.
struct CallFacts {
  ThreadState* thread;
  int32_t call;
  bool fortran;
};

// The communicator a call publishes in the live words: what the Pre hooks of a `facts
// comm` category return, and the wrapper hands to CallScope::SetComm. {0, 0}: none.
struct CallComm {
  uint64_t handle;
  uint64_t job_id;
};
inline CallComm CallCommOf(const CommView& v) { return CallComm{v.handle, v.job_id}; }

// Defined inline, and forced so: every wrapper runs these, and a call into another
// object per step would cost more than the steps (the compiler otherwise outlines them,
// being used by hundreds of wrappers).
class CallScope {
 public:
  // `site`: the wrapper's return address (where the application called MPI).
  MPIDBG_ALWAYS_INLINE CallScope(int32_t call, int32_t state, const void* site = nullptr)
      : call_(call), state_(state) {
    detail_.comm_handle = 0;
    detail_.comm_job_id = 0;
    detail_.op = 0;
    ThreadState* ts = t_state;
    if (__builtin_expect(ts == nullptr, 0)) ts = CreateThreadState();
    ts_ = ts;
    if (ts == nullptr) return;
    outer_ = ts->depth++ == 0;
    if (!outer_) return;
    Enter(ts, site);
  }
  MPIDBG_ALWAYS_INLINE ~CallScope() {
    if (ts_ == nullptr) return;
    ThreadState* const ts = core::Opaque(ts_);
    --ts->depth;
    if (!outer_) return;
    if (__builtin_expect(drained_, 0)) DropCollectedPausePending(ts);
    SetSignalState(ts, MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE);
    if (published_) {
      Unpublish();
    } else if (light_) {
      // Cleared while the state says NOT_IN_MPI, so the next call starts with none; one
      // generation step covers the records the call changed (a blocking call's flight
      // entry went DONE in its Post hook). A call that named no communicator left the
      // words 0 (the test folds away where the wrapper never names one).
      if ((detail_.comm_handle | detail_.comm_job_id) != 0) {
        __atomic_store_n(&ts->live.comm_handle, uint64_t{0}, __ATOMIC_RELAXED);
        __atomic_store_n(&ts->live.comm_job_id, uint64_t{0}, __ATOMIC_RELAXED);
      }
      if (extras_ != 0) {  // a Wait/Test call's requests (Publish): array first
        __atomic_store_n(&ts->live.requests, uint64_t{0}, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&ts->live.request_count, int32_t{0}, __ATOMIC_RELAXED);
      }
      if (live_op_) {
        __atomic_store_n(&ts->live.op, uint64_t{0}, __ATOMIC_RELAXED);
        g_thread_table.BumpGenerationPlain();  // only below MPI_THREAD_MULTIPLE
      } else {
        g_thread_table.BumpGenerationHot();
      }
    }
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // False for nested calls (and if thread state could not be allocated): the wrapper
  // then calls PMPI without recording anything.
  bool outermost() const { return outer_; }
  // A completion call of a paused thread, made outside any other MPI call, that names a
  // request pending when the thread paused (rt/hot/pause_drain.h): the scope becomes the
  // outermost one after all, and true; the wrapper then records the call. False for any
  // other call that is not outermost (the wrapper passes it straight to MPI). One load
  // and test unless the pause noted requests.
  MPIDBG_ALWAYS_INLINE bool RecordsWhilePaused(const void* site, const MPI_Request* requests,
                                               int count) {
    return PausedWithNotes() && Drain(site, NamesPausePending(ts_, requests, count));
  }
  // The same for a Fortran binding's request handles.
  MPIDBG_ALWAYS_INLINE bool RecordsWhilePausedFortran(const void* site, const MPI_Fint* requests,
                                                      int count) {
    return PausedWithNotes() && Drain(site, NamesPausePendingFortran(ts_, requests, count));
  }
  // MPI_Init, MPI_Init_thread and MPI_Finalize (categories declared `unpaused`,
  // gen/gen_wrappers.py): a pause never hides them, since the runtime sets itself up in
  // the one and writes its reports and its final state in the other. For a paused thread
  // outside any other MPI call the scope becomes the outermost one, and true.
  MPIDBG_ALWAYS_INLINE bool RecordsDespitePause(const void* site) {
    if (ts_ == nullptr || !PausedOutsideOtherCalls()) return false;
    BecomeOutermost(site);
    return true;
  }
  int32_t call() const { return call_; }
  ThreadState* thread() const { return ts_; }
  // Every field of the detail; the first use makes the call publish (and reset) the
  // rich fields too.
  CallDetail& detail() {
    if ((extras_ & kRich) == 0) {
      if ((extras_ & kRequests) == 0) {
        detail_.requests = 0;
        detail_.request_count = 0;
      }
      detail_.count = 0;
      detail_.datatype = 0;
      detail_.root = -1;
      memset(detail_.datatype_name, 0, sizeof detail_.datatype_name);
      extras_ |= kRich;
    }
    return detail_;
  }
  void SetComm(CallComm comm) {
    detail_.comm_handle = comm.handle;
    detail_.comm_job_id = comm.job_id;
  }
  void SetComm(const CommView& comm) { SetComm(CallCommOf(comm)); }
  // The op record of a blocking point-to-point call (published in the thread record).
  void SetOperationRecord(uint64_t op) { detail_.op = op; }
  // The flight entry of a blocking send or receive (below MPI_THREAD_MULTIPLE): named
  // in the live words only; the call does not publish the thread record.
  void SetFlightEntry(uint64_t entry) {
    detail_.op = entry;
    live_op_ = true;
  }
  // The request array of a Wait/Test call.
  void SetRequests(uint64_t requests, int32_t count) {
    detail_.requests = requests;
    detail_.request_count = count;
    extras_ |= kRequests;
  }
  // The call came through a Fortran binding (the generated Fortran wrappers say so):
  // handles it makes have a Fortran index already, which MPI_*_c2f only looks up.
  void MarkFortran() { fortran_ = true; }
  bool fortran() const { return fortran_; }
  CallFacts facts() const { return CallFacts{ts_, call_, fortran_}; }
  // CLOCK_REALTIME (coarse) at entry, for records the call creates.
  int64_t entry_time_ns() const { return ts_->live.entry_time_ns; }

  // Writes call, state, entry time and detail into the thread record, with one step of
  // root.generation that also covers the records the Pre hook changed. A call that
  // returns by itself and has no detail beyond its communicator and request array (state
  // IN_MPI: a nonblocking post, a query, a handle's creation, a Test-family call)
  // publishes only those in the live words (records.h, mpidbg_thread_live), and steps
  // the generation once, as it returns: a program that waits by testing polls millions
  // of times, and a record's write window on entry and exit cost a poll more than MPI's
  // own test did. So does a Wait-family call (blocked, with only its request array: a
  // halo exchange makes one per receive) and a blocking call whose envelope is a flight
  // entry (SetFlightEntry), which also names the entry in the live words. Both step the
  // generation now as well: a reader that cached its snapshot before the call must not
  // keep it while the thread waits in MPI.
  MPIDBG_ALWAYS_INLINE void Publish() {
    if (!outer_) return;
    if (live_op_ || ((extras_ & kRich) == 0 && detail_.op == 0 &&
                     (state_ == MPIDBG_THREAD_IN_MPI || extras_ == kRequests))) {
      ThreadState* const ts = core::Opaque(ts_);
      // The words are 0 between calls (every light call clears what it set as it
      // returns): a call without a communicator leaves them.
      if ((detail_.comm_handle | detail_.comm_job_id) != 0) {
        __atomic_store_n(&ts->live.comm_handle, detail_.comm_handle, __ATOMIC_RELAXED);
        __atomic_store_n(&ts->live.comm_job_id, detail_.comm_job_id, __ATOMIC_RELAXED);
      }
      if (extras_ != 0) {  // kRequests only: the rich detail goes in the record
        // The count before the array (and the array cleared first as the call returns):
        // a stop that sees an array sees its count.
        __atomic_store_n(&ts->live.request_count, detail_.request_count, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&ts->live.requests, detail_.requests, __ATOMIC_RELAXED);
      }
      light_ = true;
      if (live_op_) {
        // After the entry is whole (PublishFlightEntry): a stop that sees the op sees
        // its entry.
        __atomic_signal_fence(__ATOMIC_RELEASE);
        __atomic_store_n(&ts->live.op, detail_.op, __ATOMIC_RELAXED);
        g_thread_table.BumpGenerationPlain();  // only below MPI_THREAD_MULTIPLE
      } else if (state_ != MPIDBG_THREAD_IN_MPI) {
        g_thread_table.BumpGenerationHot();  // a Wait: after its request array
      }
      return;
    }
    mpidbg_thread_record* rec = ts_->rec;
    core::BeginRecordWrite(&rec->hdr);
    rec->entry_time_ns = ts_->live.entry_time_ns;
    rec->comm_handle = detail_.comm_handle;
    rec->comm_job_id = detail_.comm_job_id;
    rec->op = detail_.op;
    if (extras_ != 0) {
      if ((extras_ & kRich) != 0) {
        PublishRichDetail(rec, detail_);
      } else {
        rec->requests = detail_.requests;
        rec->request_count = detail_.request_count;
      }
    }
    rec->call = call_;
    rec->state = state_;
    rec->calls = ts_->live.calls;
    core::EndRecordWrite(&rec->hdr);
    g_thread_table.BumpGenerationHot();
    published_ = true;
  }

 private:
  enum : uint8_t { kRequests = 1, kRich = 2 };

  // The thread is paused, and this call is not nested in another MPI call (ts_ set).
  MPIDBG_ALWAYS_INLINE bool PausedOutsideOtherCalls() const {
    return ts_->paused != 0 && ts_->depth == ts_->paused + 1;
  }
  // The same, for a pause that noted requests (tested first: usually none).
  MPIDBG_ALWAYS_INLINE bool PausedWithNotes() const {
    return ts_ != nullptr && __builtin_expect(ts_->pause_drain != 0, 0) &&
           PausedOutsideOtherCalls();
  }
  // RecordsWhilePaused once it knows whether the call names a noted request.
  MPIDBG_ALWAYS_INLINE bool Drain(const void* site, bool names_noted) {
    if (!names_noted) return false;
    BecomeOutermost(site);
    drained_ = true;
    return true;
  }
  MPIDBG_ALWAYS_INLINE void BecomeOutermost(const void* site) {
    outer_ = true;
    Enter(ts_, site);
  }

  // An outermost call begins: its site, entry time and count, then call and state.
  MPIDBG_ALWAYS_INLINE void Enter(ThreadState* ts, const void* site) {
    // Before SetSignalState's fence, like the call: a reader or handler that sees the
    // new state sees this call's site, entry time and count.
    __atomic_store_n(&ts->live.site, reinterpret_cast<uintptr_t>(site), __ATOMIC_RELAXED);
    __atomic_store_n(&ts->live.entry_time_ns, core::CoarseRealtimeNs(), __ATOMIC_RELAXED);
    __atomic_store_n(&ts->live.calls, ts->live.calls + 1, __ATOMIC_RELAXED);
    SetSignalState(ts, state_, call_);
  }

  // The thread record back to "not in MPI" (fields zero, root -1); one generation step
  // that also covers the operation records the Post hook changed.
  MPIDBG_ALWAYS_INLINE void Unpublish() {
    mpidbg_thread_record* rec = ts_->rec;
    core::BeginRecordWrite(&rec->hdr);
    rec->state = MPIDBG_THREAD_NOT_IN_MPI;
    rec->call = MPIDBG_CALL_NONE;
    rec->comm_handle = 0;
    rec->comm_job_id = 0;
    rec->op = 0;
    if (extras_ != 0) {
      if ((extras_ & kRich) != 0) {
        ResetRichDetail(rec);
      } else {
        rec->requests = 0;
        rec->request_count = 0;
      }
    }
    core::EndRecordWrite(&rec->hdr);
    g_thread_table.BumpGenerationHot();
  }

  ThreadState* ts_;
  int32_t call_;
  int32_t state_;
  bool outer_ = false;
  bool published_ = false;
  bool light_ = false;
  bool live_op_ = false;  // SetFlightEntry: the op goes in the live words
  bool fortran_ = false;  // MarkFortran
  bool drained_ = false;  // RecordsWhilePaused
  uint8_t extras_ = 0;
  CallDetail detail_;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_THREAD_STATE_H
