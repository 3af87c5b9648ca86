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
#include "rt/registry.h"
#include "rt/thread_state.h"

namespace mpidbg::rt {

// Counts a send as posted (blocking, nonblocking, persistent start, a Sendrecv's send
// half) and logs it, from its op record's envelope: comm_job_id, peer, peer_world, tag,
// call, mode, bytes, datatype, count. Nothing for MPI_PROC_NULL or an unknown peer.
void CountSend(ThreadState* ts, const mpidbg_op_record& op);

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

// State the inline receive path reads (traffic.cc owns it).
struct TrafficHot {
  mpidbg_traffic_entry* entries;  // nullptr until MPI_Init, or when switched off
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
inline bool ReadStatus(const MPI_Status& status, ReceivedMessage* out) {
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

inline uint32_t TrafficCacheSlot(int32_t peer, int32_t tag) {
  return static_cast<uint32_t>(peer * 5 + tag) & (ThreadState::kTrafficCacheSize - 1);
}

inline bool TrafficMatches(const mpidbg_traffic_entry* e, uint64_t job_id, int32_t peer,
                           int32_t tag) {
  return e->comm_job_id == job_id && e->peer == peer && e->tag == tag;
}

// The entry of a receive's key, created if new, and put in the thread's cache.
mpidbg_traffic_entry* ReceiveEntry(ThreadState* ts, uint64_t job_id, int32_t source,
                                   int32_t tag, const SourceHint& hint);

// Counts a completed receive whose envelope is known (nothing when `m.source` is not a
// rank).
inline void CountReceived(ThreadState* ts, uint64_t job_id, const ReceivedMessage& m,
                          const SourceHint& hint) {
  if (g_traffic_hot.entries == nullptr || m.source < 0) return;
  mpidbg_traffic_entry* e = ts->receive_entries[TrafficCacheSlot(m.source, m.tag)];
  if (e == nullptr || !TrafficMatches(e, job_id, m.source, m.tag)) {
    e = ReceiveEntry(ts, job_id, m.source, m.tag, hint);
    if (e == nullptr) return;
  }
  core::CounterAdd(&e->receives, uint64_t{1});
  core::CounterAdd(&e->receive_bytes, static_cast<uint64_t>(m.bytes));
}

// Counts a completed receive from its status: under the status's actual source and
// tag. Nothing for MPI_PROC_NULL, or for a cancelled receive.
inline void CountReceive(ThreadState* ts, uint64_t job_id, const MPI_Status& status,
                         const SourceHint& hint) {
  ReceivedMessage m;
  if (g_traffic_hot.entries != nullptr && ReadStatus(status, &m)) {
    CountReceived(ts, job_id, m, hint);
  }
}

// MPI_Cancel was called at least once: from then on statuses are checked for the
// cancelled bit (before, no receive can have been cancelled).
void NoteCancelRequested();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_TRAFFIC_H
