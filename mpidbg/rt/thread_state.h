// thread_state.h — per-thread call state and its record.
//
// HOT PATH. Every MPI call goes through CallScope. Rules for this file and
// thread_state.cc: no lock, no heap allocation, no system call except on a thread's
// first MPI call (record allocation, gettid) and when a scratch buffer must grow;
// PMPI_* only, never MPI_*.
//
// Only the outermost MPI call of a thread touches its record (an MPI library or a user
// callback calling MPI from inside MPI nests scopes).
#ifndef MPIDBG_RT_THREAD_STATE_H
#define MPIDBG_RT_THREAD_STATE_H

#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct CommView;

struct ThreadState {
  mpidbg_thread_record* rec = nullptr;
  uint64_t tid = 0;
  int depth = 0;
  // Op slots reserved for this thread's blocking calls (send and receive of a
  // Sendrecv); taken on first use, kept FREE between calls.
  mpidbg_op_record* blocking_ops[2] = {nullptr, nullptr};
  // Completion-call scratch: request handles and op records before the call.
  uint64_t* saved_handles = nullptr;
  mpidbg_op_record** saved_ops = nullptr;
  int saved_capacity = 0;
};

// This thread's state, created on first use; nullptr only if memory ran out.
ThreadState* CurrentThread();

// Makes the completion scratch hold at least n entries; false if memory ran out.
bool ReserveScratch(ThreadState* ts, int n);

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

class CallScope {
 public:
  CallScope(int32_t call, int32_t state);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // False for nested calls (and if thread state could not be allocated): the wrapper
  // then calls PMPI without recording anything.
  bool outermost() const { return outer_; }
  int32_t call() const { return call_; }
  ThreadState* thread() const { return ts_; }
  CallDetail& detail() { return detail_; }
  void SetComm(const CommView& comm);

  // Writes call, state, entry time and detail into the thread record.
  void Publish();

 private:
  ThreadState* ts_;
  int32_t call_;
  int32_t state_;
  bool outer_ = false;
  bool published_ = false;
  CallDetail detail_;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_THREAD_STATE_H
