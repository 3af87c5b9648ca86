// traffic.h — what makes unexpected messages knowable: per (communicator, peer, tag)
// counts of sends posted and receives completed, and a bounded log of recent sends
// (records.h, mpidbg_traffic). With every rank's counts a host knows how many messages
// from A to B are outstanding, and MPI's non-overtaking rule says which: the last ones
// in A's send log for that (communicator, B, tag). See mpidbg/doc/hot_path.md.
//
// HOT PATH: no lock, no allocation, no system call. The counter table is open
// addressing over a fixed array allocated at MPI_Init; an entry is claimed lock-free
// (EMPTY -> CLAIMED by compare-and-swap, filled, then READY) and never moves or goes
// away, so each thread caches the entries it used last. Counters are plain adds below
// MPI_THREAD_MULTIPLE and relaxed atomic adds under it.
#ifndef MPIDBG_RT_TRAFFIC_H
#define MPIDBG_RT_TRAFFIC_H

#include <mpi.h>
#include <stdint.h>

#include "core/concurrency.h"
#include "core/normalise.h"
#include "mpidbg/records.h"
#include "rt/monitor/monitor.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// The envelope of a send, as counted and logged (the values its op record holds).
struct SendEnvelope {
  uint64_t comm_job_id;
  uint64_t datatype;  // handle widened, 0 for MPI_DATATYPE_NULL
  int64_t count;
  int64_t bytes;
  int64_t time_ns;
  int32_t peer;       // normalised
  int32_t peer_world;
  int32_t tag;        // normalised
  int32_t call;
  int32_t mode;
};

// The same, from an op record (persistent starts).
inline SendEnvelope EnvelopeOf(const mpidbg_operation_record& op) {
  return SendEnvelope{op.comm_job_id, op.datatype, op.count, op.bytes, op.post_time_ns,
                      op.peer,        op.peer_world, op.tag, op.call, op.mode};
}

// How to find the world rank of a receive's actual source, needed only the first time
// a (communicator, source, tag) is seen: the posted source and its world rank, and the
// communicator (as a view, or by handle when only the op record is at hand).
struct SourceHint {
  int32_t peer = MPIDBG_RANK_UNKNOWN;
  int32_t peer_world = MPIDBG_RANK_UNKNOWN;
  const CommView* comm = nullptr;
  uint64_t comm_handle = 0;
};

// What a status says about a received message.
struct ReceivedMessage {
  int32_t source = MPIDBG_RANK_UNKNOWN;  // normalised
  int32_t tag = MPIDBG_TAG_ANY;          // normalised
  int64_t bytes = 0;
};

// State the inline send and receive paths read (traffic.cc owns it; set at MPI_Init
// before `entries`, which is published last).
struct TrafficHot {
  mpidbg_traffic_entry* entries;  // nullptr until MPI_Init, or when switched off
  mpidbg_send_log_entry* log;     // nullptr when there is no send log
  uint64_t* log_head;             // mpidbg_traffic.log_head
  uint32_t log_mask;              // log_capacity - 1
  bool cancel_requested;          // MPI_Cancel was called at least once
};
extern TrafficHot g_traffic_hot;

// The byte count and the cancelled bit of a status. Both MPIs' mpi.h declare the
// fields that hold them; reading them saves two calls into the library per receive.
#if defined(MPICH_NUMVERSION)
inline int64_t StatusBytes(const MPI_Status& st) {
  return static_cast<int64_t>(
      static_cast<uint32_t>(st.count_lo) |
      (uint64_t{static_cast<uint32_t>(st.count_hi_and_cancelled) >> 1} << 32));
}
inline bool StatusCancelled(const MPI_Status& st) { return (st.count_hi_and_cancelled & 1) != 0; }
#elif defined(OPEN_MPI)
inline int64_t StatusBytes(const MPI_Status& st) { return static_cast<int64_t>(st._ucount); }
inline bool StatusCancelled(const MPI_Status& st) { return st._cancelled != 0; }
#else
inline int64_t StatusBytes(const MPI_Status& st) {
  MPI_Count bytes = 0;
  if (PMPI_Get_elements_x(&st, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0) bytes = 0;
  return bytes;
}
inline bool StatusCancelled(const MPI_Status& st) {
  int cancelled = 0;
  return PMPI_Test_cancelled(&st, &cancelled) == MPI_SUCCESS && cancelled != 0;
}
#endif

// False when there is nothing to count: the source is MPI_PROC_NULL (or not a rank) or
// the operation was cancelled (looked at only once MPI_Cancel has been called: before,
// no receive can have been cancelled).
MPIDBG_ALWAYS_INLINE bool ReadStatus(const MPI_Status& status, ReceivedMessage* out) {
  out->source = core::NormaliseRank(status.MPI_SOURCE, kEncodings);
  if (out->source < 0) return false;
  if (__atomic_load_n(&g_traffic_hot.cancel_requested, __ATOMIC_RELAXED) &&
      StatusCancelled(status)) {
    return false;
  }
  out->tag = core::NormaliseTag(status.MPI_TAG, kEncodings);
  out->bytes = StatusBytes(status);
  return true;
}

MPIDBG_ALWAYS_INLINE uint32_t TrafficCacheSlot(int32_t peer, int32_t tag) {
  return static_cast<uint32_t>(peer * 5 + tag) & (ThreadState::kTrafficCacheSize - 1);
}

MPIDBG_ALWAYS_INLINE bool TrafficMatches(const mpidbg_traffic_entry* e, uint64_t job_id,
                                          int32_t peer, int32_t tag) {
  return e->comm_job_id == job_id && e->peer == peer && e->tag == tag;
}

// The entry of a receive's key, created if new, and put in the thread's cache.
mpidbg_traffic_entry* ReceiveEntry(ThreadState* ts, uint64_t job_id, int32_t source,
                                   int32_t tag, const SourceHint& hint);
// The same for a send's key (nullptr, counted as dropped, when the table is full).
mpidbg_traffic_entry* SendEntry(ThreadState* ts, const SendEnvelope& s);

// One message more, of `bytes`, in a counter pair; returns the new message count.
MPIDBG_ALWAYS_INLINE uint64_t AddMessage(uint64_t* messages, uint64_t* total, uint64_t bytes,
                                         bool concurrent) {
  if (concurrent) {
    __atomic_fetch_add(total, bytes, __ATOMIC_RELAXED);
    return __atomic_add_fetch(messages, 1, __ATOMIC_RELAXED);
  }
  const uint64_t n = __atomic_load_n(messages, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(messages, n, __ATOMIC_RELAXED);
  __atomic_store_n(total, __atomic_load_n(total, __ATOMIC_RELAXED) + bytes, __ATOMIC_RELAXED);
  return n;
}

// Logs send number n of the process with its ordinal: slot n % log_capacity, seq 2n+1
// while it is written and 2n+2 once it is there, so a reader can tell which send a slot
// holds. Under MPI_THREAD_MULTIPLE a writer that finds the slot mid-write (a writer a
// whole ring behind) leaves it to that writer.
MPIDBG_ALWAYS_INLINE void LogSend(const SendEnvelope& s, uint64_t ordinal, bool concurrent) {
  mpidbg_send_log_entry* const log = g_traffic_hot.log;
  if (log == nullptr) return;
  const uint64_t n = core::CounterAdd(g_traffic_hot.log_head, uint64_t{1}, concurrent) - 1;
  mpidbg_send_log_entry* slot = &log[n & g_traffic_hot.log_mask];
  const uint32_t writing = static_cast<uint32_t>(2 * n + 1);
  if (concurrent) {
    uint32_t current = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);
    if ((current & 1u) != 0 ||
        !__atomic_compare_exchange_n(&slot->seq, &current, writing, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED)) {
      return;
    }
  } else {
    __atomic_store_n(&slot->seq, writing, __ATOMIC_RELAXED);
  }
  __atomic_thread_fence(__ATOMIC_RELEASE);
  slot->call = s.call;
  slot->comm_job_id = s.comm_job_id;
  slot->ordinal = ordinal;
  slot->bytes = s.bytes;
  slot->time_ns = s.time_ns;
  slot->datatype = s.datatype;
  slot->count = s.count;
  slot->peer = s.peer;
  slot->peer_world = s.peer_world;
  slot->tag = s.tag;
  slot->mode = s.mode;
  __atomic_store_n(&slot->seq, writing + 1, __ATOMIC_RELEASE);
}

// Counts a send as posted (blocking, nonblocking, persistent start, a Sendrecv's send
// half) and logs it. Nothing for MPI_PROC_NULL or an unknown peer. Inline: it runs for
// every send; only a key the thread's cache misses goes out of line.
MPIDBG_ALWAYS_INLINE void CountSend(ThreadState* ts, const SendEnvelope& s) {
  if (s.peer < 0) return;
  // Monitoring (rt/monitor/monitor.h) counts here too, whether or not the traffic table is on.
  if (MonitorOn()) MonitorSend(s.peer_world, s.bytes);
  if (g_traffic_hot.entries == nullptr) return;
  mpidbg_traffic_entry* e = ts->send_entries[TrafficCacheSlot(s.peer, s.tag)];
  if (__builtin_expect(e == nullptr || !TrafficMatches(e, s.comm_job_id, s.peer, s.tag), 0)) {
    e = SendEntry(ts, s);
  }
  const bool concurrent = core::Concurrent();
  uint64_t ordinal = 0;
  if (e != nullptr) {
    ordinal = AddMessage(&e->sends, &e->send_bytes, static_cast<uint64_t>(s.bytes), concurrent);
  }
  LogSend(s, ordinal, concurrent);
}

// The same for a send posted into a flight ring, which is its log entry (records.h):
// counted, not logged; returns its ordinal (0 when not counted). Below
// MPI_THREAD_MULTIPLE only (plain adds). `used`, when given, gets the traffic entry
// counted into (nullptr when none).
MPIDBG_ALWAYS_INLINE uint64_t CountRingSend(ThreadState* ts, const SendEnvelope& s,
                                            mpidbg_traffic_entry** used = nullptr) {
  if (s.peer < 0) return 0;
  if (MonitorOn()) MonitorSend(s.peer_world, s.bytes);
  if (g_traffic_hot.entries == nullptr) return 0;
  mpidbg_traffic_entry* e = ts->send_entries[TrafficCacheSlot(s.peer, s.tag)];
  if (__builtin_expect(e == nullptr || !TrafficMatches(e, s.comm_job_id, s.peer, s.tag), 0)) {
    e = SendEntry(ts, s);
    if (e == nullptr) return 0;
  }
  if (used != nullptr) *used = e;
  return AddMessage(&e->sends, &e->send_bytes, static_cast<uint64_t>(s.bytes), false);
}

// Counts a completed receive whose envelope is known (nothing when `m.source` is not a
// rank), in the traffic table and, while it is on, in monitoring (which takes the
// source's world rank from the traffic entry when there is one).
MPIDBG_ALWAYS_INLINE void CountReceived(ThreadState* ts, uint64_t job_id, const ReceivedMessage& m,
                          const SourceHint& hint) {
  if (m.source < 0) return;
  mpidbg_traffic_entry* e = nullptr;
  if (g_traffic_hot.entries != nullptr) {
    e = ts->receive_entries[TrafficCacheSlot(m.source, m.tag)];
    if (e == nullptr || !TrafficMatches(e, job_id, m.source, m.tag)) {
      e = ReceiveEntry(ts, job_id, m.source, m.tag, hint);
    }
    if (e != nullptr) {
      AddMessage(&e->receives, &e->receive_bytes, static_cast<uint64_t>(m.bytes),
                 core::Concurrent());
    }
  }
  if (MonitorOn()) {
    const int32_t world = e != nullptr             ? e->peer_world
                          : m.source == hint.peer ? hint.peer_world
                          : hint.comm != nullptr  ? PeerWorld(*hint.comm, m.source)
                                                  : MonitorSourceWorld(hint.comm_handle, job_id, m.source);
    MonitorReceive(world, m.bytes);
  }
}

// Counts a completed receive from its status: under the status's actual source and
// tag. Nothing for MPI_PROC_NULL, or for a cancelled receive.
MPIDBG_ALWAYS_INLINE void CountReceive(ThreadState* ts, uint64_t job_id, const MPI_Status& status,
                         const SourceHint& hint) {
  ReceivedMessage m;
  if ((g_traffic_hot.entries != nullptr || MonitorOn()) && ReadStatus(status, &m)) {
    CountReceived(ts, job_id, m, hint);
  }
}

// MPI_Cancel was called at least once: from then on statuses are checked for the
// cancelled bit (before, no receive can have been cancelled).
void NoteCancelRequested();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_TRAFFIC_H
