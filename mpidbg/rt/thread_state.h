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
// entry time, written inside the record's sequence window) and in two words of the
// ThreadState that mpidbg_thread_mpi_state() reads from a signal handler. The words
// are set as the wrapper is entered, before any hook runs, and cleared as it returns.
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
#include "core/record_write.h"
#include "mpidbg/records.h"
#include "rt/comm_registry.h"
#include "rt/datatype_info.h"
#include "rt/registry.h"

namespace mpidbg::rt {

// Free op slots a thread keeps for its own requests, refilled and drained in batches so
// the op table's lock is taken once per kSlotBatch requests, not per request.
constexpr uint32_t kSlotCacheSize = 64;
constexpr uint32_t kSlotBatch = 32;

// What completion needs of a request's record, copied before the call under the op
// registry's lock: once MPI has completed a request another thread may get the same
// handle, and the record's slot, before this thread's Post hook runs.
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

struct ThreadState {
  mpidbg_thread_record* rec = nullptr;
  uint64_t tid = 0;
  int depth = 0;
  // Read by mpidbg_thread_mpi_state() (possibly from a signal handler on this thread):
  // enum mpidbg_thread_state and enum mpidbg_call_id of the outermost call.
  int32_t signal_state = MPIDBG_THREAD_NOT_IN_MPI;
  int32_t signal_call = MPIDBG_CALL_NONE;
  // CLOCK_REALTIME (coarse) at entry of the current outermost call.
  int64_t entry_time_ns = 0;
  // Op slots reserved for this thread's blocking calls (send and receive of a
  // Sendrecv); taken on first use, FREE between calls.
  mpidbg_op_record* blocking_ops[2] = {nullptr, nullptr};
  // Free op slots (kind FREE) for requests.
  mpidbg_record_header* slot_cache[kSlotCacheSize] = {};
  uint32_t slot_count = 0;
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
  // The communicator this thread used last (op_registry.cc, ViewOf), valid while the
  // communicator table has not changed since (g_comm_table.changes()).
  uint64_t comm_key = 0;
  uint64_t comm_changes = ~uint64_t{0};
  CommView comm_view;
  // Status used in place of MPI_STATUS_IGNORE when the runtime needs the status.
  MPI_Status own_status[2];
  // Completion-call scratch: request handles, op records and what counting needs of
  // them before the call, and statuses used in place of MPI_STATUSES_IGNORE.
  uint64_t* saved_handles = nullptr;
  mpidbg_op_record** saved_ops = nullptr;
  SavedRequest* saved_requests = nullptr;
  MPI_Status* statuses = nullptr;
  int saved_capacity = 0;
};

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

// What the current call adds to the thread record beyond call and state.
struct CallDetail {
  uint64_t comm_handle = 0;
  uint64_t comm_job_id = 0;
  uint64_t op = 0;
  uint64_t requests = 0;
  int32_t request_count = 0;
  int64_t count = 0;
  uint64_t datatype = 0;
  int32_t root = -1;
  char datatype_name[32] = {};
};

// The two words a signal handler reads: on entry the call before the state, on exit the
// state before the call, so a handler that sees "in MPI" also sees the call. Both are
// written by the thread itself; a compiler fence is all the ordering a handler on the
// same thread needs.
inline void SetSignalState(ThreadState* ts, int32_t state, int32_t call) {
  if (state != MPIDBG_THREAD_NOT_IN_MPI) {
    __atomic_store_n(&ts->signal_call, call, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&ts->signal_state, state, __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&ts->signal_state, state, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&ts->signal_call, call, __ATOMIC_RELAXED);
  }
}

// Defined inline: every wrapper runs these, and a call into another object per step
// costs more than the steps.
class CallScope {
 public:
  CallScope(int32_t call, int32_t state) : ts_(CurrentThread()), call_(call), state_(state) {
    if (ts_ == nullptr) return;
    outer_ = ++ts_->depth == 1;
    if (!outer_) return;
    SetSignalState(ts_, state, call);
    ts_->entry_time_ns = core::CoarseRealtimeNs();
  }
  ~CallScope() {
    if (ts_ == nullptr) return;
    --ts_->depth;
    if (!outer_) return;
    SetSignalState(ts_, MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE);
    if (published_) Unpublish();
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // False for nested calls (and if thread state could not be allocated): the wrapper
  // then calls PMPI without recording anything.
  bool outermost() const { return outer_; }
  int32_t call() const { return call_; }
  ThreadState* thread() const { return ts_; }
  CallDetail& detail() { return detail_; }
  void SetComm(const CommView& comm) {
    detail_.comm_handle = comm.handle;
    detail_.comm_job_id = comm.job_id;
  }
  // CLOCK_REALTIME (coarse) at entry, for records the call creates.
  int64_t entry_time_ns() const { return ts_->entry_time_ns; }

  // Writes call, state, entry time and detail into the thread record.
  void Publish() {
    if (!outer_) return;
    mpidbg_thread_record* rec = ts_->rec;
    // Outside MPI the record holds the reset values; most calls (point-to-point, Wait)
    // leave the collective fields at them, so those are written only when set.
    rich_ = detail_.requests != 0 || detail_.request_count != 0 || detail_.count != 0 ||
            detail_.datatype != 0 || detail_.root != -1 || detail_.datatype_name[0] != '\0';
    core::BeginRecordWrite(&rec->hdr);
    rec->entry_time_ns = ts_->entry_time_ns;
    rec->comm_handle = detail_.comm_handle;
    rec->comm_job_id = detail_.comm_job_id;
    rec->op = detail_.op;
    if (rich_) {
      rec->requests = detail_.requests;
      rec->request_count = detail_.request_count;
      rec->count = detail_.count;
      rec->datatype = detail_.datatype;
      rec->root = detail_.root;
      memcpy(rec->datatype_name, detail_.datatype_name, sizeof rec->datatype_name);
    }
    rec->call = call_;
    rec->state = state_;
    rec->calls += 1;
    core::EndRecordWrite(&rec->hdr);
    // One generation step for the thread record and any op record the Pre hook opened.
    g_thread_table.BumpGenerationHot();
    published_ = true;
  }

 private:
  // The thread record back to "not in MPI"; one generation step that also covers the
  // op and request records the Post hook changed.
  void Unpublish() {
    mpidbg_thread_record* rec = ts_->rec;
    core::BeginRecordWrite(&rec->hdr);
    rec->state = MPIDBG_THREAD_NOT_IN_MPI;
    rec->call = MPIDBG_CALL_NONE;
    rec->comm_handle = 0;
    rec->comm_job_id = 0;
    rec->op = 0;
    if (rich_) {
      rec->requests = 0;
      rec->request_count = 0;
      rec->count = 0;
      rec->datatype = 0;
      rec->root = -1;
      memset(rec->datatype_name, 0, sizeof rec->datatype_name);
    }
    core::EndRecordWrite(&rec->hdr);
    g_thread_table.BumpGenerationHot();
  }

  ThreadState* ts_;
  int32_t call_;
  int32_t state_;
  bool outer_ = false;
  bool published_ = false;
  bool rich_ = false;
  CallDetail detail_;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_THREAD_STATE_H
