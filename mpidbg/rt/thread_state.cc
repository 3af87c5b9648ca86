// thread_state.cc — see thread_state.h (same hot-path rules).
#include "rt/thread_state.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "core/clock.h"
#include "core/record_write.h"
#include "rt/comm_registry.h"
#include "rt/registry.h"

namespace mpidbg::rt {
namespace {

// initial-exec: a plain %fs-relative load instead of a __tls_get_addr call. Fine for a
// library that is linked or preloaded; glibc's static TLS surplus covers a late dlopen.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state = nullptr;

pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
pthread_key_t g_key;

// Runs at thread exit: the thread's records go away with it.
void ThreadExit(void* p) {
  auto* ts = static_cast<ThreadState*>(p);
  t_state = nullptr;
  for (mpidbg_op_record*& op : ts->blocking_ops) {
    if (op == nullptr) continue;
    if (op->hdr.kind != MPIDBG_KIND_FREE) g_op_table.Clear(&op->hdr);
    g_op_table.ReturnSlot(&op->hdr);
  }
  if (ts->rec != nullptr) g_thread_table.Release(&ts->rec->hdr);
  free(ts->saved_handles);
  free(ts->saved_ops);
  free(ts);
}

void MakeKey() { pthread_key_create(&g_key, ThreadExit); }

ThreadState* CreateThreadState() {
  void* mem = malloc(sizeof(ThreadState));
  if (mem == nullptr) return nullptr;
  auto* ts = new (mem) ThreadState();
  ts->tid = core::KernelThreadId();
  auto* hdr = g_thread_table.Create(0);
  if (hdr == nullptr) {
    free(ts);
    return nullptr;
  }
  ts->rec = reinterpret_cast<mpidbg_thread_record*>(hdr);
  ts->rec->tid = ts->tid;
  ts->rec->state = MPIDBG_THREAD_NOT_IN_MPI;
  ts->rec->call = MPIDBG_CALL_NONE;
  ts->rec->root = -1;
  g_thread_table.EndCreate(hdr);
  pthread_once(&g_key_once, MakeKey);
  pthread_setspecific(g_key, ts);
  t_state = ts;
  return ts;
}

}  // namespace

ThreadState* CurrentThread() {
  ThreadState* ts = t_state;
  return ts != nullptr ? ts : CreateThreadState();
}

bool ReserveScratch(ThreadState* ts, int n) {
  if (n <= ts->saved_capacity) return true;
  int capacity = ts->saved_capacity == 0 ? 16 : ts->saved_capacity;
  while (capacity < n) capacity *= 2;
  auto* handles = static_cast<uint64_t*>(realloc(ts->saved_handles, sizeof(uint64_t) * capacity));
  if (handles == nullptr) return false;
  ts->saved_handles = handles;
  auto* ops = static_cast<mpidbg_op_record**>(realloc(ts->saved_ops, sizeof(void*) * capacity));
  if (ops == nullptr) return false;
  ts->saved_ops = ops;
  ts->saved_capacity = capacity;
  return true;
}

CallScope::CallScope(int32_t call, int32_t state)
    : ts_(CurrentThread()), call_(call), state_(state) {
  if (ts_ == nullptr) return;
  outer_ = ++ts_->depth == 1;
}

void CallScope::SetComm(const CommView& comm) {
  detail_.comm_handle = comm.handle;
  detail_.comm_job_id = comm.job_id;
}

void CallScope::Publish() {
  if (!outer_) return;
  mpidbg_thread_record* rec = ts_->rec;
  g_thread_table.BeginUpdate(&rec->hdr);
  rec->entry_time_ns = core::RealtimeNs();
  rec->comm_handle = detail_.comm_handle;
  rec->comm_job_id = detail_.comm_job_id;
  rec->op = detail_.op;
  rec->requests = detail_.requests;
  rec->request_count = detail_.request_count;
  rec->count = detail_.count;
  rec->datatype = detail_.datatype;
  rec->root = detail_.root;
  memcpy(rec->datatype_name, detail_.datatype_name, sizeof rec->datatype_name);
  rec->call = call_;
  rec->state = state_;
  rec->calls += 1;
  g_thread_table.EndUpdate(&rec->hdr);
  published_ = true;
}

CallScope::~CallScope() {
  if (ts_ == nullptr) return;
  --ts_->depth;
  if (!outer_ || !published_) return;
  mpidbg_thread_record* rec = ts_->rec;
  g_thread_table.BeginUpdate(&rec->hdr);
  rec->state = MPIDBG_THREAD_NOT_IN_MPI;
  rec->call = MPIDBG_CALL_NONE;
  rec->comm_handle = 0;
  rec->comm_job_id = 0;
  rec->op = 0;
  rec->requests = 0;
  rec->request_count = 0;
  rec->count = 0;
  rec->datatype = 0;
  rec->root = -1;
  memset(rec->datatype_name, 0, sizeof rec->datatype_name);
  g_thread_table.EndUpdate(&rec->hdr);
}

}  // namespace mpidbg::rt
