// thread_setup.cc — the cold half of thread state: a thread's first MPI call (its
// record, its kernel thread id, its profiling timer), growth of its completion scratch,
// its exit, and the thread record's fields only some calls set.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "core/clock.h"
#include "rt/hot/flight_ring.h"
#include "rt/hot/operation_registry.h"
#include "rt/profile/profile.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
pthread_key_t g_key;

// Runs at thread exit: the thread's records and cached slots go back to their tables.
void ThreadExit(void* p) {
  auto* ts = static_cast<ThreadState*>(p);
  ProfileThreadExit();  // first: no tick may sample a thread being taken apart
  t_state = nullptr;
  ReleaseThreadRequests(ts);
  // A ring with a request still pending stays, with the record through which readers
  // find it (the request may yet be completed by another thread), until the next thread
  // that opens a ring carries the request into an operation record and takes the ring
  // over; another goes to that thread at once.
  const bool keep_record = FlightRingHoldsPending(ts);
  if (ts->rec != nullptr && keep_record) {
    g_thread_table.BeginUpdate(&ts->rec->hdr);
    ts->rec->live = 0;  // the words go with the thread's state, freed below
    g_thread_table.EndUpdate(&ts->rec->hdr);
  }
  if (ts->rec != nullptr && !keep_record) g_thread_table.Release(&ts->rec->hdr);
  GiveBackFlightRing(ts, keep_record);
  free(ts->saved_handles);
  free(ts->saved_records);
  free(ts->saved_requests);
  free(ts->statuses);
  ts->~ThreadState();
  free(ts);
}

void MakeKey() { pthread_key_create(&g_key, ThreadExit); }

}  // namespace

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
  ts->rec->live = reinterpret_cast<uintptr_t>(&ts->live);
  ts->rec->live_size = sizeof(mpidbg_thread_live);
  g_thread_table.EndCreate(hdr);
  pthread_once(&g_key_once, MakeKey);
  pthread_setspecific(g_key, ts);
  t_state = ts;
  // A thread other than MPI_Init's is sampled from its first MPI call on (when
  // MPIDBG_PROFILE is on and MPI is initialised; a no-op otherwise).
  ProfileThreadStart();
  return ts;
}

void PublishRichDetail(mpidbg_thread_record* rec, CallDetail d) {
  rec->requests = d.requests;
  rec->request_count = d.request_count;
  rec->count = d.count;
  rec->datatype = d.datatype;
  rec->root = d.root;
  memcpy(rec->datatype_name, d.datatype_name, sizeof rec->datatype_name);
}

void ResetRichDetail(mpidbg_thread_record* rec) {
  rec->requests = 0;
  rec->request_count = 0;
  rec->count = 0;
  rec->datatype = 0;
  rec->root = -1;
  memset(rec->datatype_name, 0, sizeof rec->datatype_name);
}

bool GrowScratch(ThreadState* ts, int n) {
  if (n <= ts->saved_capacity) return true;
  int capacity = ts->saved_capacity == 0 ? 16 : ts->saved_capacity;
  while (capacity < n) capacity *= 2;
  const size_t c = static_cast<size_t>(capacity);
  auto* handles = static_cast<uint64_t*>(realloc(ts->saved_handles, sizeof(uint64_t) * c));
  if (handles == nullptr) return false;
  ts->saved_handles = handles;
  auto* ops = static_cast<mpidbg_operation_record**>(realloc(ts->saved_records, sizeof(void*) * c));
  if (ops == nullptr) return false;
  ts->saved_records = ops;
  auto* requests =
      static_cast<SavedRequest*>(realloc(ts->saved_requests, sizeof(SavedRequest) * c));
  if (requests == nullptr) return false;
  ts->saved_requests = requests;
  auto* statuses = static_cast<MPI_Status*>(realloc(ts->statuses, sizeof(MPI_Status) * c));
  if (statuses == nullptr) return false;
  ts->statuses = statuses;
  ts->saved_capacity = capacity;
  return true;
}

}  // namespace mpidbg::rt
