/*
 * probe_helper.c — lets a Fortran program see what the runtime recorded about its own
 * MPI calls. Linked into the Fortran probes (its interface: probe_helper.inc); reads the
 * runtime's exported root the way a debugger would and never calls MPI.
 *
 *   tp_rt_begin()              remember this thread's MPI call count
 *   tp_rt_end(name)            print "call <name> seen=S wrapped=W calls=N": N is how
 *                              many MPI calls the runtime counted on this thread since
 *                              tp_rt_begin (a call recorded twice, by a Fortran and a
 *                              C wrapper, shows as 2), S is 1 when N > 0, W is 1 when
 *                              the runtime defines the C function <name> (so a C
 *                              program calling it is seen)
 *   tp_rt_state()              print the process state the runtime recorded and how
 *                              many operation and communicator records it holds
 *   tp_rt_live(name)           print how many operation records are live after the
 *                              completion call <name> (0 when the runtime retired
 *                              every request the call completed)
 *   tp_rt_pause(), tp_rt_resume()
 *                              mpidbg_pause_recording() / mpidbg_resume_recording() of
 *                              the runtime, looked up by name (nothing without it)
 *   tp_rt_pending(tag)         print "pending tag T: N", the requests under tag T a
 *                              debugger finds pending: operation records neither freed
 *                              nor at rest, and POSTED entries of every flight ring
 *   tp_rt_watch(name)          start a thread that watches this thread (its record with
 *                              its live words, as a debugger shows it) until it shows
 *                              the call <name> as BLOCKED (at most 10 s)
 *   tp_rt_watched()            stop it and print "watched <name> state=S op=O
 *                              requests=R count=C": the state it last saw during <name>
 *                              (none if the thread never showed the call), whether a
 *                              blocking operation was named, the request count,
 *                              the collective count argument
 *   tp_rt_delay(ms)            sleep (the late peer of a watched call)
 *   tp_rt_received(tag)        print "received tag T from 1: N", the receives from rank 1
 *                              with tag T the runtime's traffic counters hold (counted from
 *                              statuses: right only if the runtime read the Fortran
 *                              status, or used its own in place of MPI_STATUS_IGNORE)
 *   tp_rt_findex(what, f)      print whether a live record of kind `what` (1 comm,
 *                              2 datatype, 3 group, 4 communicator made by
 *                              MPI_Comm_idup) carries Fortran index f
 *
 * Only the process the launcher calls rank 0 prints (the rank comes from the launcher's
 * environment, so the MPI_Init probe can print before MPI can be asked). Every line
 * goes to standard output with a "probe: " prefix, flushed at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpidbg/call_ids.h"
#include "mpidbg/records.h"

static const mpidbg_root* root(void) {
  const mpidbg_root* r = (const mpidbg_root*)dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL);
  return r != NULL && r->magic == MPIDBG_ROOT_MAGIC ? r : NULL;
}

/* Calls `visit` on every in-use slot of a table; stops when it returns nonzero. */
static int walk(const mpidbg_table* t, int (*visit)(const mpidbg_record_header*, const void*),
                const void* arg) {
  uint64_t addr = __atomic_load_n(&t->first_slab, __ATOMIC_ACQUIRE);
  for (uint32_t n = 0; addr != 0 && n < t->slab_count; ++n) {
    const mpidbg_slab* slab = (const mpidbg_slab*)(uintptr_t)addr;
    if (slab->magic != MPIDBG_SLAB_MAGIC) return 0;
    const char* first = (const char*)slab + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      const mpidbg_record_header* h =
          (const mpidbg_record_header*)(first + (uint64_t)i * slab->record_size);
      if (h->kind == t->kind && visit(h, arg)) return 1;
    }
    addr = __atomic_load_n(&slab->next, __ATOMIC_ACQUIRE);
  }
  return 0;
}

static uint64_t g_calls;

static int sum_own_calls(const mpidbg_record_header* h, const void* arg) {
  (void)arg;
  const mpidbg_thread_record* t = (const mpidbg_thread_record*)h;
  /* Calls that publish only the thread's live words count there (records.h). */
  const mpidbg_thread_live* live = (const mpidbg_thread_live*)(uintptr_t)t->live;
  if (t->tid == (uint64_t)gettid()) g_calls = live != NULL ? live->calls : t->calls;
  return 0;
}

static uint64_t own_calls(void) {
  const mpidbg_root* r = root();
  g_calls = 0;
  if (r != NULL) walk(&r->threads, sum_own_calls, NULL);
  return g_calls;
}

static uint64_t g_begin;

/* True on the process the launcher started as rank 0 (Hydra: PMI_RANK; Open MPI:
 * OMPI_COMM_WORLD_RANK; PMIx launchers: PMIX_RANK). */
static int reporter(void) {
  const char* vars[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
    const char* v = getenv(vars[i]);
    if (v != NULL) return atoi(v) == 0;
  }
  return 1;
}

void tp_rt_begin(void) { g_begin = own_calls(); }

/* 1 when the C function `name` resolves into the runtime library. A probe label may
 * add ":what" to the function's name (MPI_Waitall:STATUSES_IGNORE). */
static int wrapped(const char* label) {
  char name[64];
  size_t n = strcspn(label, ":");
  if (n >= sizeof name) return 0;
  memcpy(name, label, n);
  name[n] = '\0';
  const mpidbg_root* r = root();
  void* fn = dlsym(RTLD_DEFAULT, name);
  Dl_info fi, ri;
  if (r == NULL || fn == NULL || !dladdr(fn, &fi) || !dladdr(r, &ri)) return 0;
  return fi.dli_fbase == ri.dli_fbase;
}

void tp_rt_end(const char* name) {
  uint64_t now = own_calls();
  if (!reporter()) return;
  printf("probe: call %s seen=%d wrapped=%d calls=%llu\n", name, now > g_begin, wrapped(name),
         (unsigned long long)(now - g_begin));
  fflush(stdout);
}

void tp_rt_state(void) {
  if (!reporter()) return;
  const mpidbg_root* r = root();
  const char* state = r == NULL ? "no runtime"
                      : r->process_state == MPIDBG_PROCESS_RUNNING   ? "running"
                      : r->process_state == MPIDBG_PROCESS_FINALIZED ? "finalized"
                                                                     : "before init";
  printf("probe: runtime state %s\n", state);
  /* Informational: operations the runtime still shows as pending (a request whose
   * posting call was seen but whose completion was not stays here). */
  if (r != NULL) {
    printf("probe: live operation records %u, communicator records %u\n", r->operations.live_count,
           r->comms.live_count);
  }
  fflush(stdout);
}

void tp_rt_live(const char* name) {
  if (!reporter()) return;
  const mpidbg_root* r = root();
  printf("probe: live after %s %u\n", name, r != NULL ? r->operations.live_count : 0u);
  fflush(stdout);
}

static void toggle(const char* name) {
  int (*fn)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, name);
  if (fn != NULL) fn();
}

void tp_rt_pause(void) { toggle("mpidbg_pause_recording"); }
void tp_rt_resume(void) { toggle("mpidbg_resume_recording"); }

static int g_pending;

static int count_pending_record(const mpidbg_record_header* h, const void* arg) {
  const mpidbg_operation_record* op = (const mpidbg_operation_record*)h;
  const uint32_t at_rest = MPIDBG_REC_FREED | MPIDBG_OPERATION_INACTIVE;
  g_pending += op->tag == *(const int*)arg && (op->hdr.flags & at_rest) == 0;
  return 0;
}

/* A ring's entry at position p holds post p only while its seq is 2 * (p + 1) (records.h). */
static int count_pending_entries(const mpidbg_record_header* h, const void* arg) {
  const mpidbg_thread_record* t = (const mpidbg_thread_record*)h;
  const mpidbg_flight_entry* entries = (const mpidbg_flight_entry*)(uintptr_t)t->flight_entries;
  const uint64_t head = t->flight_head, capacity = t->flight_capacity;
  if (entries == NULL || capacity == 0) return 0;
  for (uint64_t p = head > capacity ? head - capacity : 0; p < head; ++p) {
    const mpidbg_flight_entry* e = &entries[p % capacity];
    if (e->seq == (uint32_t)(2 * (p + 1)) && e->state == MPIDBG_FLIGHT_POSTED && e->request != 0) {
      g_pending += e->tag == *(const int*)arg;
    }
  }
  return 0;
}

void tp_rt_pending(int tag) {
  if (!reporter()) return;
  const mpidbg_root* r = root();
  g_pending = 0;
  if (r != NULL) {
    walk(&r->operations, count_pending_record, &tag);
    walk(&r->threads, count_pending_entries, &tag);
  }
  printf("probe: pending tag %d: %d\n", tag, g_pending);
  fflush(stdout);
}

/* The call ids by name, from the contract's list. */
static int call_id(const char* name) {
  static const struct {
    const char* name;
    int id;
  } ids[] = {
#define TP_X(n, id, cls) {#n, id},
      MPIDBG_CALL_LIST(TP_X)
#undef TP_X
  };
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
    if (strcmp(ids[i].name, name) == 0) return ids[i].id;
  }
  return -1;
}

static struct {
  pthread_t thread;
  int running;
  uint64_t tid;  /* the watched thread */
  int call;
  char name[64];
  int stop;      /* atomic */
  int state, op, requests;
  long long count;
} g_watch;

static int watched_record(const mpidbg_record_header* h, const void* arg) {
  const mpidbg_thread_record* t = (const mpidbg_thread_record*)h;
  if (t->tid != g_watch.tid) return 0;
  *(const mpidbg_thread_record**)arg = t;
  return 1;
}

/* The thread as a debugger shows it: its record with its live words merged in, as many
 * bytes of them as the record says (records.h, mpidbg_thread_live). */
static mpidbg_thread_record thread_now(const mpidbg_thread_record* t) {
  mpidbg_thread_record out = *t;
  const uint32_t bytes = mpidbg_thread_live_bytes(t);
  if (bytes != 0) {
    mpidbg_thread_live live;
    memset(&live, 0, sizeof live);
    memcpy(&live, (const void*)(uintptr_t)t->live, bytes);
    mpidbg_thread_merge_live(t, &live, &out);
  }
  return out;
}

static void* watch(void* unused) {
  (void)unused;
  const mpidbg_root* r = root();
  for (int i = 0; i < 20000 && r != NULL && !__atomic_load_n(&g_watch.stop, __ATOMIC_ACQUIRE); ++i) {
    const mpidbg_thread_record* rec = NULL;
    walk(&r->threads, watched_record, (const void*)&rec);
    const mpidbg_thread_record t = rec != NULL ? thread_now(rec) : (mpidbg_thread_record){0};
    if (rec != NULL && t.call == g_watch.call) {
      g_watch.state = t.state;
      g_watch.op = t.op != 0;
      g_watch.requests = t.request_count;
      g_watch.count = (long long)t.count;
      /* A call the record publishes is there whole; a blocking send or receive that
       * writes only the live words names its envelope a moment after its state. */
      if (g_watch.state == MPIDBG_THREAD_BLOCKED &&
          (rec->state != MPIDBG_THREAD_NOT_IN_MPI || t.op != 0))
        break;
    }
    struct timespec ts = {0, 500000};
    nanosleep(&ts, NULL);
  }
  return NULL;
}

void tp_rt_watch(const char* name) {
  if (!reporter()) return;
  snprintf(g_watch.name, sizeof g_watch.name, "%s", name);
  g_watch.tid = (uint64_t)gettid();
  g_watch.call = call_id(name);
  g_watch.state = -1;
  g_watch.op = g_watch.requests = 0;
  g_watch.count = 0;
  __atomic_store_n(&g_watch.stop, 0, __ATOMIC_RELEASE);
  g_watch.running = pthread_create(&g_watch.thread, NULL, watch, NULL) == 0;
}

void tp_rt_watched(void) {
  if (!reporter()) return;
  __atomic_store_n(&g_watch.stop, 1, __ATOMIC_RELEASE);
  if (g_watch.running) pthread_join(g_watch.thread, NULL);
  const char* state = g_watch.state == MPIDBG_THREAD_BLOCKED ? "BLOCKED"
                      : g_watch.state == MPIDBG_THREAD_IN_MPI ? "IN_MPI"
                      : g_watch.state < 0                     ? "none"
                                                              : "other";
  printf("probe: watched %s state=%s op=%d requests=%d count=%lld\n", g_watch.name, state,
         g_watch.op, g_watch.requests, g_watch.count);
  fflush(stdout);
}

void tp_rt_delay(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

void tp_rt_received(int tag) {
  if (!reporter()) return;
  const mpidbg_root* r = root();
  uint64_t n = 0;
  const mpidbg_traffic* t = r != NULL ? (const mpidbg_traffic*)(uintptr_t)r->traffic : NULL;
  if (t != NULL && t->entries != 0 && t->entry_size == sizeof(mpidbg_traffic_entry)) {
    const mpidbg_traffic_entry* e = (const mpidbg_traffic_entry*)(uintptr_t)t->entries;
    for (uint32_t i = 0; i < t->capacity; ++i) {
      if (__atomic_load_n(&e[i].state, __ATOMIC_ACQUIRE) == MPIDBG_TRAFFIC_READY &&
          e[i].peer == 1 && e[i].tag == tag) {
        n += e[i].receives;
      }
    }
  }
  printf("probe: received tag %d from 1: %llu\n", tag, (unsigned long long)n);
  fflush(stdout);
}

static int comm_has_index(const mpidbg_record_header* h, const void* arg) {
  const mpidbg_comm_record* c = (const mpidbg_comm_record*)h;
  return (h->flags & MPIDBG_REC_FREED) == 0 && c->fortran_index == *(const int*)arg;
}

static int object_has_index(const mpidbg_record_header* h, const void* arg) {
  const mpidbg_object_head* o = (const mpidbg_object_head*)h;
  return (h->flags & MPIDBG_REC_FREED) == 0 && o->fortran_index == *(const int*)arg;
}

void tp_rt_findex(int what, int findex) {
  if (!reporter()) return;
  const mpidbg_root* r = root();
  int found = 0;
  const char* kind = what == 1 ? "comm" : what == 2 ? "datatype" : what == 3 ? "group" : "comm_idup";
  if (r != NULL) {
    if (what == 1 || what == 4) found = walk(&r->comms, comm_has_index, &findex);
    if (what == 2) found = walk(&r->datatypes, object_has_index, &findex);
    if (what == 3) found = walk(&r->groups, object_has_index, &findex);
  }
  printf("probe: f2c %s recorded=%d\n", kind, found);
  fflush(stdout);
}
