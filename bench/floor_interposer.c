/*
 * floor_interposer — the least a recording PMPI layer can do, one layer at a time.
 *
 * This is a measuring stick, not the runtime: `scripts/bench --floor` (run_floor.py)
 * LD_PRELOADs it into bench/mpi_bench in place of libmpidbg_rt_<flavour>.so to show what
 * each layer of recording costs by itself on the machine at hand, so the runtime's ratios
 * can be read against a lower bound. Nothing here is published: there is no root, no
 * registry of threads, no request index a plugin could walk, and no debugger reads any
 * of it. Its stores are kept only because the thread's data is an exported symbol the
 * compiler must assume someone reads.
 *
 * One source, built with -DMPIDBG_FLOOR_LAYERS=<bitmask> into one library per set of
 * layers (bench/CMakeLists.txt: pass 0, state 1, args 1|2, clock 1|2|4, records 1|2|8,
 * all 15, flight 17, lean 145, join 401, objects 33, log 113). It wraps only what mpi_bench calls in
 * its timed loops — MPI_Send, MPI_Recv, MPI_Isend, MPI_Irecv, MPI_Waitall, and with the
 * objects bit its churn's object calls — and every other MPI function goes straight to the
 * MPI. With no bit set the wrappers only call PMPI: the price of interposing at all.
 *
 *   1 state    What a debugger needs to say where a stopped thread is: a nesting flag
 *              (a call MPI makes into MPI, or a signal handler's, passes straight
 *              through), the call's id, its state (in MPI, or blocked in a blocking
 *              call) and its call site (__builtin_return_address(0)), set on entry and
 *              cleared on return. Initial-exec TLS, the cheapest per-thread storage a
 *              preloaded library has; compiler (signal) fences order the stores as a
 *              reader interrupting this thread (a signal handler, a ptrace stop) needs:
 *              state is set last and cleared first, so a non-zero state always comes
 *              with its call and site.
 *   2 args     The call's raw arguments (buf, count, datatype, peer, tag, comm), not
 *              decoded, in the thread's record inside a sequence window (seq made odd,
 *              fields written, seq made even: a reader that sees seq odd or changed
 *              retries), plus a per-thread call counter.
 *   4 clock    One clock_gettime(CLOCK_REALTIME_COARSE) per outermost call, the clock
 *              the runtime reads today, stored as the thread's entry time (inside the
 *              window when args is on).
 *   8 records  What makes requests and unexpected traffic knowable. Per request one
 *              envelope entry (handle, buf, datatype, comm, count, peer, tag, call,
 *              serial) in a per-thread ring of 256, found again by handle through a
 *              per-thread index (linear probing, at most half full, erased without
 *              tombstones); a handle MPI hands out again while its entry is live (the
 *              handle both MPIs share among sends that complete at once) rewrites that
 *              entry. MPI_Waitall resolves its handles to entries before PMPI_Waitall
 *              (which overwrites them) and vacates the entries after it, for any count:
 *              each entry matches once, so the list it keeps cannot outgrow the ring.
 *              And a per-(comm, peer, tag) counter of messages sent and received, in a
 *              small per-thread table behind a one-entry most-recently-used cache;
 *              receives are counted from their status when the caller asked for one,
 *              else from the arguments (the posted peer and tag). Messages only: bytes
 *              would need each datatype's size.
 *
 *  16 flight    The flight recorder, in place of args and records: what a call must leave
 *              behind for a stop or a core to reconstruct pending requests and traffic,
 *              everything else derived by the reader. Per post (a nonblocking request,
 *              or a blocking send or receive, before it enters MPI) one 64-byte entry
 *              appended to a per-thread ring of 1024: handle and envelope, a time stamp
 *              loaded from a word a clock thread would keep, its position stored last —
 *              the entry is also the call's arguments a stop finds (the thread's last
 *              entry). A request's entry is found at completion through a direct-
 *              mapped table by handle (MPICH's index bits with its class bits folded
 *              on; Open MPI's address mixed; after a collision, a walk back over the
 *              unfolded entries) and marked done with the status's source and tag.
 *              Messages are counted per peer rank in flat arrays (sends when posted,
 *              receives when done): no key to find. Before the ring overwrites its
 *              oldest 512 entries, a request among them still pending is carried into
 *              a table of its own (found by handle), so none is lost however long it
 *              waits. A reader derives the rest: pending requests are the carried ones
 *              and the ring's unfolded posts not done; the (comm, peer, tag) view of
 *              unreceived messages comes from the per-peer counts and the ring's
 *              envelopes.
 *
 *  32 objects  The object calls mpi_bench's churn makes — MPI_Type_vector, MPI_Type_commit,
 *              MPI_Type_free, MPI_Comm_dup, MPI_Comm_free — are wrapped too, with the
 *              state layer's entry and exit (without this bit they go straight to MPI).
 *  64 log       Objects recorded as a log of their constructor calls, in place of a record
 *              per object: a constructor appends one entry to a process-wide ring of 4096
 *              (the runtime's orphan budget) — the new handle, its input (a type's old
 *              type, a communicator's parent, whose members a reader takes), the call, a
 *              type's integers and its size, extent and true extent asked of MPI (a
 *              reader cannot derive a struct's padding), a time stamp from the clock
 *              thread's word and a serial, its position stored last. The entry is found
 *              again by handle through a direct-mapped table (a walk back over the ring
 *              when another handle took the slot): MPI_Type_commit flags it, a free marks
 *              it freed — an orphan where it stands until the ring comes round, when a
 *              live entry is carried into a table of its own first. No lifetime rules,
 *              no shared orphan budget, no handle map a plugin can use.
 *
 * 128 lean    With flight: the least a call can leave for a reader that joins posts and
 *              completions itself. A post appends its entry and nothing else (no direct
 *              table, no count); a Waitall copies its handles into a per-thread log of
 *              completions before the call and stores its position after it (no
 *              look-up, nothing marked); a blocking receive's entry is marked done. The
 *              ring comes round without a fold: what a reader needs to carry pending
 *              requests past it (a join of the posts about to be overwritten with the
 *              completions since) and the per-peer counts are left out, so this is the
 *              floor of recording each call, below any design that keeps what it
 *              records.
 *
 * 256 join    With lean: what lean leaves out, done as the ring comes round instead of on
 *              the calls. Before the ring overwrites its oldest 512 entries they are
 *              joined with the completion log in order — an entry whose handle is the
 *              next completed one is done, a completion of a request carried earlier
 *              completes that one, anything else is carried (found by handle) — and
 *              counted per peer. Cheap only where requests complete in the order they
 *              were posted (mpi_bench's Waitall does); a design that relies on it must
 *              join otherwise too. So this is what the least design that still keeps
 *              every pending request findable and counts messages could cost here.
 *
 * Everything is plain loads and stores (one thread at a time in MPI, as below
 * MPI_THREAD_MULTIPLE), and nothing grows: more than 256 requests in flight on a thread
 * forget the oldest, a 65th (comm, peer, tag) on a thread is counted as overflow — as a
 * floor may and the runtime may not. What the runtime does beyond this (records a plugin
 * can find and read, generations, the send log, growth, MPI_THREAD_MULTIPLE, every other
 * MPI function) is its own cost.
 *
 * A set with the state layer also exports the runtime's mpidbg_pause_recording() and
 * mpidbg_resume_recording(): mpi_bench then pairs each batch with one paused, so a set's
 * paired ratio is what its recording costs within one process, read beside the
 * runtime's (run_floor.py's paired_ratio).
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifndef MPIDBG_FLOOR_LAYERS
#define MPIDBG_FLOOR_LAYERS 0
#endif
#define FLOOR_STATE ((MPIDBG_FLOOR_LAYERS & 1) != 0)
#define FLOOR_ARGS ((MPIDBG_FLOOR_LAYERS & 2) != 0)
#define FLOOR_CLOCK ((MPIDBG_FLOOR_LAYERS & 4) != 0)
#define FLOOR_RECORDS ((MPIDBG_FLOOR_LAYERS & 8) != 0)
#define FLOOR_FLIGHT ((MPIDBG_FLOOR_LAYERS & 16) != 0)
#define FLOOR_OBJECTS ((MPIDBG_FLOOR_LAYERS & 32) != 0)
#define FLOOR_LOG ((MPIDBG_FLOOR_LAYERS & 64) != 0)
#define FLOOR_LEAN ((MPIDBG_FLOOR_LAYERS & 128) != 0)
#define FLOOR_JOIN ((MPIDBG_FLOOR_LAYERS & 256) != 0)

#define FLOOR_INLINE static inline __attribute__((always_inline))
#define FLOOR_COLD static __attribute__((noinline, cold))
#define FLOOR_EXPORT __attribute__((visibility("default")))
#define FLOOR_SIGNAL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

#define kMissing 0x80000000u /* floor_index_find: not found */

enum {
  kCallSend = 1,
  kCallRecv,
  kCallIsend,
  kCallIrecv,
  kCallWaitall,
  kCallTypeVector,
  kCallTypeCommit,
  kCallTypeFree,
  kCallCommDup,
  kCallCommFree
};
enum { kStateOutside = 0, kStateInMpi = 1, kStateBlocked = 2 };
enum {
  kRingSize = 256,    /* request entries per thread (a power of two) */
  kIndexBits = 9,     /* handle -> ring slot index: 512 cells, at most half in use */
  kIndexSize = 1 << kIndexBits,
  kCounterSize = 64,  /* (comm, peer, tag) counters per thread (a power of two) */
  kFlightSize = 1024, /* flight ring entries per thread (a power of two) */
  kFlightFold = kFlightSize / 2, /* entries folded at a time */
  kDirectSize = 1024, /* handle -> flight ring position + 1 */
  kCarrySize = 1024,  /* carried (still pending after their fold) requests */
  kPeers = 4096,      /* per-peer message counters, by rank (a power of two) */
  kObjectRing = 4096, /* object log entries (a power of two): the orphan budget */
  kObjectDirect = 1024, /* handle -> object log position + 1 */
  kObjectCarry = 256, /* live objects carried out of the log as it comes round */
  kCompletionSize = 4096, /* lean: completed handles logged per thread (a power of two) */
};

/* One flight ring entry: 64 bytes. */
typedef struct {
  uint64_t handle; /* the request; 0 for a blocking call */
  const void* buf;
  MPI_Datatype datatype;
  MPI_Comm comm;
  int32_t count, peer, tag;
  uint16_t call;
  uint16_t done;          /* set at completion, with the status's source and tag */
  int32_t source, got_tag; /* from the status; the posted peer and tag without one */
  uint32_t position;      /* ring position + 1, stored last */
  int64_t time_ns;
} flight_entry;

typedef struct {
  MPI_Request handle;
  const void* buf;
  MPI_Datatype datatype;
  MPI_Comm comm;
  int count, peer, tag;
  int call; /* kCallIsend / kCallIrecv; 0: vacant; negated: claimed by a Waitall */
  uint64_t serial;
} floor_entry;

typedef struct {
  MPI_Comm comm;
  int peer, tag;
  int used;
  uint64_t sent, received;
} floor_counter;

typedef struct {
  uint32_t slot, position;
} floor_waited;

typedef struct {
  /* state */
  int nested;
  int paused; /* mpidbg_pause_recording() calls not yet resumed */
  int call;
  int state;
  const void* site;
  /* args */
  uint32_t seq;
  uint64_t calls;
  const void* buf;
  MPI_Datatype datatype;
  MPI_Comm comm;
  int count, peer, tag;
  /* clock */
  int64_t entry_ns;
  /* records */
  uint32_t head;
  uint64_t serial;
  floor_counter* recent;
  uint64_t counter_overflow;
  uint16_t index[kIndexSize];
  floor_entry ring[kRingSize];
  floor_waited waited[kRingSize];
  floor_counter counters[kCounterSize];
  /* flight */
  uint32_t flight_head;   /* entries appended */
  uint32_t flight_folded; /* entries folded into counters and the carried table */
  uint32_t carried_count;
  uint32_t displaced;     /* live entries whose direct slot a later post took */
  flight_entry flight[kFlightSize];
  uint32_t direct[kDirectSize];
  flight_entry carried[kCarrySize];
  uint32_t flight_waited[kRingSize];
  uint64_t peer_sent[kPeers];     /* messages sent to each rank */
  uint64_t peer_received[kPeers]; /* messages received from each rank */
  /* lean */
  uint32_t completion_head; /* handles logged */
  uint32_t completion_joined; /* join: completions matched so far */
  uint64_t completions[kCompletionSize];
} floor_thread_data;

/* The word a clock thread would keep current (the runtime's tick keeper): loaded, never
 * written here. */
FLOOR_EXPORT volatile int64_t mpidbg_floor_tick_ns;

/* Exported so that the compiler keeps every store (see the top). */
FLOOR_EXPORT __thread floor_thread_data mpidbg_floor_thread
    __attribute__((tls_model("initial-exec")));
#define T mpidbg_floor_thread

/* ---- state ---------------------------------------------------------------------- */

FLOOR_INLINE void floor_enter(int call, int state, const void* site) {
  if (!FLOOR_STATE) return;
  T.nested = 1;
  FLOOR_SIGNAL_FENCE();
  T.call = call;
  T.site = site;
  FLOOR_SIGNAL_FENCE();
  T.state = state;
}

FLOOR_INLINE void floor_leave(void) {
  if (!FLOOR_STATE) return;
  T.state = kStateOutside;
  FLOOR_SIGNAL_FENCE();
  T.call = 0;
  T.site = NULL;
  FLOOR_SIGNAL_FENCE();
  T.nested = 0;
}

/* True when this call is inside another wrapped call, or recording is paused: it goes
 * straight to PMPI. */
FLOOR_INLINE int floor_nested(void) { return FLOOR_STATE && T.nested; }

#if FLOOR_STATE
/* The runtime's pause and resume (runtime_api.h), so that mpi_bench pairs each batch with
 * a paused one under a floor set as under the runtime: a pause holds the nesting flag
 * up, and every wrapper then passes its call straight to PMPI, as the runtime's do. A
 * set without the state layer has no flag to hold and does not offer them (mpi_bench
 * then does not pair). */
FLOOR_EXPORT int mpidbg_pause_recording(void) {
  if (T.paused++ == 0) T.nested = 1;
  return T.paused;
}

FLOOR_EXPORT int mpidbg_resume_recording(void) {
  if (T.paused == 0) return -1;
  if (--T.paused == 0) T.nested = 0;
  return T.paused;
}
#endif

/* ---- args and clock ------------------------------------------------------------- */

FLOOR_INLINE int64_t floor_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

FLOOR_INLINE void floor_args(const void* buf, int count, MPI_Datatype datatype, int peer,
                             int tag, MPI_Comm comm) {
  int64_t now = 0;
  if (FLOOR_CLOCK) now = floor_now_ns();
  if (!FLOOR_ARGS) {
    if (FLOOR_CLOCK) T.entry_ns = now;
    return;
  }
  uint32_t seq = T.seq;
  T.seq = seq + 1; /* odd: being written */
  FLOOR_SIGNAL_FENCE();
  T.buf = buf;
  T.count = count;
  T.datatype = datatype;
  T.peer = peer;
  T.tag = tag;
  T.comm = comm;
  if (FLOOR_CLOCK) T.entry_ns = now;
  T.calls++;
  FLOOR_SIGNAL_FENCE();
  T.seq = seq + 2; /* even: complete */
}

/* ---- records: traffic counters -------------------------------------------------- */

FLOOR_COLD floor_counter* floor_counter_find(MPI_Comm comm, int peer, int tag) {
  uint64_t key = ((uint64_t)(uintptr_t)comm * 0x9E3779B97F4A7C15ull) ^
                 ((uint64_t)(uint32_t)peer << 20) ^ (uint32_t)tag;
  key *= 0xC2B2AE3D27D4EB4Full;
  uint32_t first = (uint32_t)(key >> 58) & (kCounterSize - 1);
  for (uint32_t i = 0; i < kCounterSize; ++i) {
    floor_counter* c = &T.counters[(first + i) & (kCounterSize - 1)];
    if (!c->used) {
      c->used = 1;
      c->comm = comm;
      c->peer = peer;
      c->tag = tag;
      c->sent = c->received = 0;
      return T.recent = c;
    }
    if (c->comm == comm && c->peer == peer && c->tag == tag) return T.recent = c;
  }
  return NULL; /* table full: counted as overflow */
}

FLOOR_INLINE floor_counter* floor_counter_for(MPI_Comm comm, int peer, int tag) {
  floor_counter* c = T.recent;
  if (c != NULL && c->peer == peer && c->tag == tag && c->comm == comm) return c;
  return floor_counter_find(comm, peer, tag);
}

FLOOR_INLINE void floor_count_send(MPI_Comm comm, int peer, int tag) {
  if (!FLOOR_RECORDS || peer == MPI_PROC_NULL) return;
  floor_counter* c = floor_counter_for(comm, peer, tag);
  if (c != NULL)
    c->sent++;
  else
    T.counter_overflow++;
}

FLOOR_INLINE void floor_count_recv(MPI_Comm comm, int peer, int tag) {
  if (!FLOOR_RECORDS || peer == MPI_PROC_NULL) return;
  floor_counter* c = floor_counter_for(comm, peer, tag);
  if (c != NULL)
    c->received++;
  else
    T.counter_overflow++;
}

/* ---- records: request entries --------------------------------------------------- */

/* The index: open addressing with linear probing over ring slots + 1 (0: empty), one cell
 * per live entry; at most kRingSize live in kIndexSize cells, so a probe always ends. */
FLOOR_INLINE uint32_t floor_home(MPI_Request handle) {
  return (uint32_t)(((uint64_t)(uintptr_t)handle * 0x9E3779B97F4A7C15ull) >>
                    (64 - kIndexBits));
}

/* The cell of a live handle, or the empty cell that ends its probe (ORed with kMissing). */
FLOOR_INLINE uint32_t floor_index_find(MPI_Request handle) {
  for (uint32_t i = floor_home(handle);; i = (i + 1) & (kIndexSize - 1)) {
    uint32_t v = T.index[i];
    if (v == 0) return i | kMissing;
    if (T.ring[v - 1].handle == handle) return i;
  }
}

/* Empties a cell, moving later cells of the same run back (no tombstones). */
FLOOR_INLINE void floor_index_erase(uint32_t i) {
  for (uint32_t j = (i + 1) & (kIndexSize - 1);; j = (j + 1) & (kIndexSize - 1)) {
    uint32_t v = T.index[j];
    if (v == 0) break;
    uint32_t home = floor_home(T.ring[v - 1].handle);
    if (((j - home) & (kIndexSize - 1)) >= ((j - i) & (kIndexSize - 1))) {
      T.index[i] = (uint16_t)v;
      i = j;
    }
  }
  T.index[i] = 0;
}

/* A new handle while the next ring slot is still live: more than kRingSize requests in
 * flight on this thread. The oldest is forgotten (a floor may; the runtime may not). */
FLOOR_COLD void floor_forget(floor_entry* e) {
  uint32_t cell = floor_index_find(e->handle);
  if (!(cell & kMissing)) floor_index_erase(cell);
  e->call = 0;
}

FLOOR_INLINE void floor_post(MPI_Request handle, const void* buf, int count,
                             MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                             int call) {
  if (!FLOOR_RECORDS) return;
  floor_entry* e;
  uint32_t cell = floor_index_find(handle);
  if (!(cell & kMissing)) {
    /* A handle that is still live here is one MPI hands out again (both MPIs share one
     * handle among sends that complete at once): its entry is rewritten in place. */
    e = &T.ring[T.index[cell] - 1];
  } else {
    uint32_t slot = T.head++ & (kRingSize - 1);
    e = &T.ring[slot];
    if (e->call != 0) {
      floor_forget(e);
      cell = floor_index_find(handle); /* the erase may have moved cells */
    }
    e->handle = handle;
    T.index[cell & ~kMissing] = (uint16_t)(slot + 1);
  }
  e->buf = buf;
  e->datatype = datatype;
  e->comm = comm;
  e->count = count;
  e->peer = peer;
  e->tag = tag;
  e->call = call;
  e->serial = ++T.serial;
}

/* Vacates a completed request's entry. */
FLOOR_INLINE void floor_vacate(floor_entry* e) {
  uint32_t cell = floor_index_find(e->handle);
  if (!(cell & kMissing)) floor_index_erase(cell);
  e->call = 0;
}

/* Before PMPI_Waitall (which overwrites the handles): which ring entries its handles
 * are, and where they sit in the array. A matched entry is claimed (its call negated)
 * so that a handle repeated in the array matches once: at most kRingSize are kept,
 * whatever the count. */
FLOOR_INLINE uint32_t floor_waitall_before(int count, const MPI_Request* requests) {
  uint32_t kept = 0;
  for (int i = 0; i < count && kept < kRingSize; ++i) {
    uint32_t cell = floor_index_find(requests[i]);
    if (cell & kMissing) continue;
    uint32_t slot = T.index[cell] - 1u;
    floor_entry* e = &T.ring[slot];
    if (e->call <= 0) continue;
    e->call = -e->call;
    T.waited[kept].slot = slot;
    T.waited[kept].position = (uint32_t)i;
    ++kept;
  }
  return kept;
}

/* After a PMPI_Waitall that failed: with statuses, each request's own error says whether
 * it completed (MPI_ERR_PENDING: still live); without them nothing is known, so the
 * entries stay live. */
FLOOR_COLD void floor_waitall_failed(int rc, uint32_t kept, const MPI_Status* statuses) {
  const int known = rc == MPI_ERR_IN_STATUS && statuses != MPI_STATUSES_IGNORE;
  for (uint32_t k = 0; k < kept; ++k) {
    floor_entry* e = &T.ring[T.waited[k].slot];
    const MPI_Status* s = known ? &statuses[T.waited[k].position] : NULL;
    if (s == NULL || s->MPI_ERROR == MPI_ERR_PENDING) {
      e->call = -e->call;
      continue;
    }
    if (s->MPI_ERROR == MPI_SUCCESS && e->call == -kCallIrecv)
      floor_count_recv(e->comm, s->MPI_SOURCE, s->MPI_TAG);
    floor_vacate(e);
  }
}

FLOOR_INLINE void floor_waitall_after(int rc, uint32_t kept, const MPI_Status* statuses) {
  if (rc != MPI_SUCCESS) {
    floor_waitall_failed(rc, kept, statuses);
    return;
  }
  for (uint32_t k = 0; k < kept; ++k) {
    floor_entry* e = &T.ring[T.waited[k].slot];
    if (e->call == -kCallIrecv) {
      if (statuses != MPI_STATUSES_IGNORE) {
        const MPI_Status* s = &statuses[T.waited[k].position];
        floor_count_recv(e->comm, s->MPI_SOURCE, s->MPI_TAG);
      } else {
        floor_count_recv(e->comm, e->peer, e->tag);
      }
    }
    floor_vacate(e);
  }
}

/* ---- flight: the ring ------------------------------------------------------------ */

FLOOR_INLINE uint32_t flight_direct_slot(uint64_t handle) {
  /* MPICH's handle carries its object's index in its low bits and its kind and
   * allocation class in bits 26-31 (requests come from several): those are folded onto
   * the index, so one class's live requests never share a slot. Open MPI's is an
   * address: folded the same way, then its low bits spread. */
  uint64_t x = handle ^ (handle >> 21) ^ (handle >> 42);
  return (uint32_t)((x ^ (x >> 7)) & (kDirectSize - 1));
}

/* The carried table: open addressing by handle, erased without tombstones. */
FLOOR_INLINE uint32_t flight_carry_home(uint64_t handle) {
  return (uint32_t)((handle * 0x9E3779B97F4A7C15ull) >> 54) & (kCarrySize - 1);
}

FLOOR_COLD void flight_carry(const flight_entry* e) {
  if (T.carried_count >= kCarrySize / 2) return; /* a floor may drop; the runtime grows */
  for (uint32_t i = flight_carry_home(e->handle);; i = (i + 1) & (kCarrySize - 1)) {
    if (T.carried[i].position == 0) {
      T.carried[i] = *e;
      ++T.carried_count;
      return;
    }
  }
}

FLOOR_COLD flight_entry* flight_carried_find(uint64_t handle) {
  if (T.carried_count == 0) return NULL;
  for (uint32_t i = flight_carry_home(handle);; i = (i + 1) & (kCarrySize - 1)) {
    flight_entry* c = &T.carried[i];
    if (c->position == 0) return NULL;
    if (c->handle == handle && !c->done) return c;
  }
}

FLOOR_COLD void flight_carried_erase(flight_entry* c) {
  uint32_t i = (uint32_t)(c - T.carried);
  for (uint32_t j = (i + 1) & (kCarrySize - 1);; j = (j + 1) & (kCarrySize - 1)) {
    if (T.carried[j].position == 0) break;
    uint32_t home = flight_carry_home(T.carried[j].handle);
    if (((j - home) & (kCarrySize - 1)) >= ((j - i) & (kCarrySize - 1))) {
      T.carried[i] = T.carried[j];
      i = j;
    }
  }
  T.carried[i].position = 0;
  --T.carried_count;
}

/* The per-peer counters: a flat array by rank, no key to find. */
FLOOR_INLINE void flight_count_send(int peer) {
  if (peer != MPI_PROC_NULL) T.peer_sent[(uint32_t)peer & (kPeers - 1)]++;
}
FLOOR_INLINE void flight_count_receive(const flight_entry* e) {
  if (e->source != MPI_PROC_NULL) T.peer_received[(uint32_t)e->source & (kPeers - 1)]++;
}

/* Before the ring overwrites its oldest kFlightFold entries: a request among them still
 * pending is carried. Nothing else needs doing: the counters were kept on the calls. */
FLOOR_COLD void flight_fold(void) {
  for (uint32_t n = 0; n < kFlightFold; ++n) {
    flight_entry* e = &T.flight[(T.flight_folded + n) & (kFlightSize - 1)];
    if (e->handle != 0 && !e->done) {
      flight_carry(e);
      uint32_t* d = &T.direct[flight_direct_slot(e->handle)];
      if (*d == e->position)
        *d = 0;
      else if (T.displaced != 0)
        --T.displaced; /* a displaced one: now found in the carried table */
    }
  }
  T.flight_folded += kFlightFold;
}

/* join: the oldest kFlightFold entries joined with the completion log in order (see the
 * top), counted per peer, the pending ones carried. */
FLOOR_COLD void flight_join(void) {
  uint32_t c = T.completion_joined;
  for (uint32_t n = 0; n < kFlightFold; ++n) {
    flight_entry* e = &T.flight[(T.flight_folded + n) & (kFlightSize - 1)];
    if (e->call == kCallIsend || e->call == kCallSend)
      T.peer_sent[(uint32_t)e->peer & (kPeers - 1)]++;
    else
      T.peer_received[(uint32_t)e->peer & (kPeers - 1)]++;
    if (e->handle == 0) continue; /* a blocking call's: done when it returned */
    for (;;) {
      if (c == T.completion_head) { /* nothing completed after it: pending */
        flight_carry(e);
        break;
      }
      const uint64_t h = T.completions[c & (kCompletionSize - 1)];
      if (h == e->handle) {
        ++c;
        break;
      }
      flight_entry* carried = T.carried_count != 0 ? flight_carried_find(h) : NULL;
      if (carried == NULL) { /* completes a later post: this one is pending */
        flight_carry(e);
        break;
      }
      flight_carried_erase(carried);
      ++c;
    }
  }
  T.completion_joined = c;
  T.flight_folded += kFlightFold;
}

FLOOR_INLINE flight_entry* flight_append(uint64_t handle, const void* buf, int count,
                                         MPI_Datatype datatype, int peer, int tag,
                                         MPI_Comm comm, int call) {
  const uint32_t position = T.flight_head;
  if (position - T.flight_folded == kFlightSize) {
    if (FLOOR_JOIN)
      flight_join();
    else if (FLOOR_LEAN)
      T.flight_folded += kFlightFold; /* no fold: see the top */
    else
      flight_fold();
  }
  flight_entry* e = &T.flight[position & (kFlightSize - 1)];
  e->position = 0; /* being written */
  FLOOR_SIGNAL_FENCE();
  e->handle = handle;
  e->buf = buf;
  e->datatype = datatype;
  e->comm = comm;
  e->count = count;
  e->peer = peer;
  e->tag = tag;
  e->call = (uint16_t)call;
  e->done = 0;
  e->time_ns = mpidbg_floor_tick_ns;
  FLOOR_SIGNAL_FENCE();
  e->position = position + 1;
  T.flight_head = position + 1;
  return e;
}

FLOOR_INLINE void flight_done(flight_entry* e, const MPI_Status* s) {
  e->source = s != NULL ? s->MPI_SOURCE : e->peer;
  e->got_tag = s != NULL ? s->MPI_TAG : e->tag;
  FLOOR_SIGNAL_FENCE();
  e->done = 1;
  if (!FLOOR_LEAN && (e->call == kCallIrecv || e->call == kCallRecv)) flight_count_receive(e);
}

FLOOR_INLINE void flight_post(MPI_Request request, const void* buf, int count,
                              MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                              int call) {
  if (!FLOOR_FLIGHT) return;
  const uint64_t handle = (uint64_t)(uintptr_t)request;
  if (FLOOR_LEAN) {
    flight_append(handle, buf, count, datatype, peer, tag, comm, call);
    return;
  }
  uint32_t* d = &T.direct[flight_direct_slot(handle)];
  if (*d != 0) {
    /* MPI handing out a handle whose entry is still live and not done means that
     * request completed unseen (both MPIs share one handle among sends that complete at
     * once): it is done, as the posted envelope says. */
    flight_entry* old = &T.flight[(*d - 1) & (kFlightSize - 1)];
    if (old->position == *d && !old->done) {
      if (old->handle == handle)
        flight_done(old, NULL);
      else
        ++T.displaced; /* its completion walks the ring to find it */
    }
  }
  flight_entry* e = flight_append(handle, buf, count, datatype, peer, tag, comm, call);
  *d = e->position;
  if (call == kCallIsend) flight_count_send(peer);
}

/* A blocking call's entry, appended before it enters MPI: the envelope a stop finds
 * for a thread blocked in it (the thread's last entry), and for a send, counted (a send
 * stuck in MPI is counted). A receive is marked done once MPI returns. */
FLOOR_INLINE flight_entry* flight_blocking(const void* buf, int count, MPI_Datatype datatype,
                                           int peer, int tag, MPI_Comm comm, int call) {
  if (!FLOOR_FLIGHT) return NULL;
  flight_entry* e = flight_append(0, buf, count, datatype, peer, tag, comm, call);
  if (call == kCallSend) {
    e->source = peer;
    e->got_tag = tag;
    e->done = 1;
    if (!FLOOR_LEAN) flight_count_send(peer);
  }
  return e;
}

/* The entry of a live request (ring position + 1 in flight_waited), 0 if unknown. */
FLOOR_INLINE uint32_t flight_find(uint64_t handle) {
  uint32_t p = T.direct[flight_direct_slot(handle)];
  if (p != 0) {
    const flight_entry* e = &T.flight[(p - 1) & (kFlightSize - 1)];
    if (e->position == p && e->handle == handle && !e->done) return p;
  }
  return 0;
}


/* A request the direct table did not find: its direct slot was taken by a later request
 * (still in the ring's unfolded part, found by a walk back), or it was folded while
 * pending (its carried copy is completed, counted and dropped). */

FLOOR_COLD void flight_done_carried(uint64_t handle, const MPI_Status* s) {
  for (uint32_t p = T.flight_head; T.displaced != 0 && p != T.flight_folded; --p) {
    flight_entry* e = &T.flight[(p - 1) & (kFlightSize - 1)];
    if (e->handle == handle && !e->done) {
      flight_done(e, s);
      --T.displaced;
      return;
    }
  }
  flight_entry* c = flight_carried_find(handle);
  if (c == NULL) return;
  flight_done(c, s);
  flight_carried_erase(c);
}

/* ---- objects: a log of constructor calls ----------------------------------------- */

/* One object log entry. */
typedef struct {
  uint64_t handle;  /* the new object, widened */
  uint64_t input;   /* a type's old type, a communicator's parent */
  int64_t size, lb, extent, true_lb, true_extent; /* a type's, asked of MPI */
  int64_t time_ns;
  uint64_t serial;      /* creation order */
  uint64_t free_serial; /* 0 while live */
  int32_t ints[3];      /* MPI_Type_vector: count, blocklength, stride */
  uint16_t call;
  uint16_t committed;
  uint32_t position; /* ring position + 1, stored last */
} object_entry;

typedef struct {
  uint32_t head; /* entries appended */
  uint64_t serial, free_serial;
  uint32_t carried_count;
  uint64_t carried_overflow;
  uint32_t direct[kObjectDirect];
  object_entry ring[kObjectRing];
  object_entry carried[kObjectCarry];
} object_log;

/* Exported so that the compiler keeps every store (see the top). One per process: below
 * MPI_THREAD_MULTIPLE one thread at a time makes and frees objects. */
FLOOR_EXPORT object_log mpidbg_floor_objects;
#define O mpidbg_floor_objects

FLOOR_INLINE uint64_t object_key(const void* handle, size_t size) {
  uint64_t h = 0;
  __builtin_memcpy(&h, handle, size < sizeof h ? size : sizeof h);
  return h;
}

FLOOR_INLINE uint32_t object_direct_slot(uint64_t handle) {
  return (uint32_t)((handle * 0x9E3779B97F4A7C15ull) >> 54) & (kObjectDirect - 1);
}

/* A live entry the ring is about to reuse goes to the carried table first (a floor may
 * count what does not fit; the runtime may not). */
FLOOR_COLD void object_carry(const object_entry* e) {
  if (O.carried_count < kObjectCarry) {
    O.carried[O.carried_count++] = *e;
  } else {
    ++O.carried_overflow;
  }
}

FLOOR_INLINE object_entry* object_append(uint64_t handle, uint64_t input, int call) {
  const uint32_t p = O.head + 1;
  object_entry* e = &O.ring[O.head & (kObjectRing - 1)];
  if (e->position != 0 && e->free_serial == 0) object_carry(e);
  e->position = 0;
  FLOOR_SIGNAL_FENCE();
  e->handle = handle;
  e->input = input;
  e->time_ns = mpidbg_floor_tick_ns;
  e->serial = ++O.serial;
  e->free_serial = 0;
  e->call = (uint16_t)call;
  e->committed = 0;
  O.head = p;
  O.direct[object_direct_slot(handle)] = p;
  return e;
}

FLOOR_INLINE void object_publish(object_entry* e, uint32_t position) {
  FLOOR_SIGNAL_FENCE();
  e->position = position;
}

/* Whether `e` holds ring position p (its position + 1) of `handle`, not yet freed. */
FLOOR_INLINE int object_live_at(const object_entry* e, uint32_t p, uint64_t handle) {
  return e->position == p && e->handle == handle && e->free_serial == 0;
}

/* The live entry of `handle`, or NULL: its direct slot, else a walk back over the ring
 * (another handle took the slot), else the carried table. */
FLOOR_COLD object_entry* object_walk(uint64_t handle) {
  for (uint32_t n = 0, p = O.head; n < kObjectRing && p != 0; ++n, --p) {
    object_entry* e = &O.ring[(p - 1) & (kObjectRing - 1)];
    if (object_live_at(e, p, handle)) return e;
  }
  for (uint32_t i = 0; i < O.carried_count; ++i) {
    object_entry* e = &O.carried[i];
    if (e->handle == handle && e->free_serial == 0) return e;
  }
  return NULL;
}

FLOOR_INLINE object_entry* object_find(uint64_t handle) {
  const uint32_t p = O.direct[object_direct_slot(handle)];
  if (p != 0) {
    object_entry* e = &O.ring[(p - 1) & (kObjectRing - 1)];
    if (object_live_at(e, p, handle)) return e;
  }
  return object_walk(handle);
}

FLOOR_INLINE void object_log_type(MPI_Datatype type, MPI_Datatype old, int count,
                                  int blocklength, int stride) {
  if (!FLOOR_LOG) return;
  object_entry* e = object_append(object_key(&type, sizeof type),
                                  object_key(&old, sizeof old), kCallTypeVector);
  e->ints[0] = count;
  e->ints[1] = blocklength;
  e->ints[2] = stride;
  MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_size_x(type, &size);
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  e->size = size;
  e->lb = lb;
  e->extent = extent;
  e->true_lb = true_lb;
  e->true_extent = true_extent;
  object_publish(e, O.head);
}

FLOOR_INLINE void object_log_comm(MPI_Comm comm, MPI_Comm parent) {
  if (!FLOOR_LOG) return;
  object_entry* e = object_append(object_key(&comm, sizeof comm),
                                  object_key(&parent, sizeof parent), kCallCommDup);
  object_publish(e, O.head);
}

FLOOR_INLINE void object_log_commit(uint64_t handle) {
  if (!FLOOR_LOG) return;
  object_entry* e = object_find(handle);
  if (e != NULL) e->committed = 1;
}

/* An orphan where it stands: the direct slot keeps pointing at it, harmlessly (a lookup
 * checks free_serial). */
FLOOR_INLINE void object_log_free(uint64_t handle) {
  if (!FLOOR_LOG) return;
  object_entry* e = object_find(handle);
  if (e != NULL) e->free_serial = ++O.free_serial;
}

/* ---- the wrappers --------------------------------------------------------------- */

FLOOR_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm) {
  if (floor_nested()) return PMPI_Send(buf, count, datatype, dest, tag, comm);
  floor_enter(kCallSend, kStateBlocked, __builtin_return_address(0));
  floor_args(buf, count, datatype, dest, tag, comm);
  floor_count_send(comm, dest, tag);
  flight_blocking(buf, count, datatype, dest, tag, comm, kCallSend);
  int rc = PMPI_Send(buf, count, datatype, dest, tag, comm);
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Status* status) {
  if (floor_nested()) return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  floor_enter(kCallRecv, kStateBlocked, __builtin_return_address(0));
  floor_args(buf, count, datatype, source, tag, comm);
  flight_entry* blocking = flight_blocking(buf, count, datatype, source, tag, comm, kCallRecv);
  int rc = PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  if (FLOOR_RECORDS && rc == MPI_SUCCESS) {
    if (status != MPI_STATUS_IGNORE)
      floor_count_recv(comm, status->MPI_SOURCE, status->MPI_TAG);
    else
      floor_count_recv(comm, source, tag);
  }
  if (FLOOR_FLIGHT && rc == MPI_SUCCESS)
    flight_done(blocking, status != MPI_STATUS_IGNORE ? status : NULL);
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request* request) {
  if (floor_nested()) return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  floor_enter(kCallIsend, kStateInMpi, __builtin_return_address(0));
  floor_args(buf, count, datatype, dest, tag, comm);
  floor_count_send(comm, dest, tag);
  int rc = PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  if (rc == MPI_SUCCESS) {
    floor_post(*request, buf, count, datatype, dest, tag, comm, kCallIsend);
    flight_post(*request, buf, count, datatype, dest, tag, comm, kCallIsend);
  }
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Request* request) {
  if (floor_nested()) return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  floor_enter(kCallIrecv, kStateInMpi, __builtin_return_address(0));
  floor_args(buf, count, datatype, source, tag, comm);
  int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  if (rc == MPI_SUCCESS) {
    floor_post(*request, buf, count, datatype, source, tag, comm, kCallIrecv);
    flight_post(*request, buf, count, datatype, source, tag, comm, kCallIrecv);
  }
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status* statuses) {
  if (floor_nested()) return PMPI_Waitall(count, requests, statuses);
  floor_enter(kCallWaitall, kStateBlocked, __builtin_return_address(0));
  /* The arguments as they are: the request array as buf, no datatype, peer or comm. */
  floor_args(requests, count, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_NULL);
  uint32_t kept = 0;
  if (FLOOR_RECORDS) kept = floor_waitall_before(count, requests);
  /* flight: each handle's ring position before the call overwrites the handles (a
   * handle the ring does not hold is kept as itself, for the carried table). */
  uint64_t* unknown = NULL;
  uint64_t unknown_handles[kRingSize];
  if (FLOOR_LEAN) {
    /* lean: the handles as they are, before MPI overwrites them; their position after. */
    const uint32_t head = T.completion_head;
    for (int i = 0; i < count; ++i)
      T.completions[(head + (uint32_t)i) & (kCompletionSize - 1)] = (uint64_t)(uintptr_t)requests[i];
    const int rc = PMPI_Waitall(count, requests, statuses);
    FLOOR_SIGNAL_FENCE();
    if (rc == MPI_SUCCESS) T.completion_head = head + (uint32_t)count;
    floor_leave();
    return rc;
  }
  const int flight_count_kept = FLOOR_FLIGHT ? (count < kRingSize ? count : kRingSize) : 0;
  for (int i = 0; i < flight_count_kept; ++i) {
    const uint64_t h = (uint64_t)(uintptr_t)requests[i];
    T.flight_waited[i] = flight_find(h);
    if (T.flight_waited[i] == 0) {
      unknown = unknown_handles;
      unknown_handles[i] = h;
    }
  }
  int rc = PMPI_Waitall(count, requests, statuses);
  if (FLOOR_RECORDS) floor_waitall_after(rc, kept, statuses);
  if (FLOOR_FLIGHT && rc == MPI_SUCCESS) {
    const int known = statuses != MPI_STATUSES_IGNORE;
    for (int i = 0; i < flight_count_kept; ++i) {
      const uint32_t p = T.flight_waited[i];
      const MPI_Status* st = known ? &statuses[i] : NULL;
      if (p != 0) {
        flight_done(&T.flight[(p - 1) & (kFlightSize - 1)], st);
      } else if (unknown != NULL && unknown[i] != (uint64_t)(uintptr_t)MPI_REQUEST_NULL) {
        flight_done_carried(unknown[i], st);
      }
    }
  }
  floor_leave();
  return rc;
}

#if FLOOR_OBJECTS
FLOOR_EXPORT int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) {
  if (floor_nested()) return PMPI_Type_vector(count, blocklength, stride, oldtype, newtype);
  floor_enter(kCallTypeVector, kStateInMpi, __builtin_return_address(0));
  int rc = PMPI_Type_vector(count, blocklength, stride, oldtype, newtype);
  if (rc == MPI_SUCCESS) object_log_type(*newtype, oldtype, count, blocklength, stride);
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Type_commit(MPI_Datatype* type) {
  if (floor_nested()) return PMPI_Type_commit(type);
  floor_enter(kCallTypeCommit, kStateInMpi, __builtin_return_address(0));
  int rc = PMPI_Type_commit(type);
  if (rc == MPI_SUCCESS) object_log_commit(object_key(type, sizeof *type));
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Type_free(MPI_Datatype* type) {
  if (floor_nested()) return PMPI_Type_free(type);
  floor_enter(kCallTypeFree, kStateInMpi, __builtin_return_address(0));
  const uint64_t handle = object_key(type, sizeof *type);
  int rc = PMPI_Type_free(type);
  if (rc == MPI_SUCCESS) object_log_free(handle);
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (floor_nested()) return PMPI_Comm_dup(comm, newcomm);
  floor_enter(kCallCommDup, kStateBlocked, __builtin_return_address(0));
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (rc == MPI_SUCCESS) object_log_comm(*newcomm, comm);
  floor_leave();
  return rc;
}

FLOOR_EXPORT int MPI_Comm_free(MPI_Comm* comm) {
  if (floor_nested()) return PMPI_Comm_free(comm);
  floor_enter(kCallCommFree, kStateInMpi, __builtin_return_address(0));
  const uint64_t handle = object_key(comm, sizeof *comm);
  int rc = PMPI_Comm_free(comm);
  if (rc == MPI_SUCCESS) object_log_free(handle);
  floor_leave();
  return rc;
}
#endif
