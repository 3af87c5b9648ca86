// traffic_check.h — reading the runtime's traffic counters, send log, op and message
// records from inside an MPI check program, the way a debugger would (rt_check.h).
#ifndef MPIDBG_TESTS_RUNTIME_TRAFFIC_CHECK_H
#define MPIDBG_TESTS_RUNTIME_TRAFFIC_CHECK_H

#include <mpi.h>
#include <stdint.h>

#include <algorithm>
#include <vector>

#include "mpidbg/records.h"
#include "rt_check.h"

namespace traffic {

using rtcheck::At;
using rtcheck::Root;

inline const mpidbg_traffic* Traffic() {
  const mpidbg_root* r = Root();
  if (r == nullptr || r->traffic == 0) return nullptr;
  return At<mpidbg_traffic>(r->traffic);
}

// Every READY counter entry.
inline std::vector<mpidbg_traffic_entry> Entries() {
  std::vector<mpidbg_traffic_entry> out;
  const mpidbg_traffic* t = Traffic();
  if (t == nullptr) return out;
  const auto* e = At<mpidbg_traffic_entry>(t->entries);
  for (uint32_t i = 0; i < t->capacity; ++i) {
    if (__atomic_load_n(&e[i].state, __ATOMIC_ACQUIRE) == MPIDBG_TRAFFIC_READY) out.push_back(e[i]);
  }
  return out;
}

struct Counts {
  uint64_t sends = 0, receives = 0, send_bytes = 0, receive_bytes = 0;
  int found = 0;       // entries with this key (must be 0 or 1)
  int32_t peer_world = MPIDBG_RANK_UNKNOWN;
};

inline Counts CountsOf(uint64_t job_id, int32_t peer, int32_t tag) {
  Counts c;
  for (const auto& e : Entries()) {
    if (e.comm_job_id != job_id || e.peer != peer || e.tag != tag) continue;
    ++c.found;
    c.sends = e.sends;
    c.receives = e.receives;
    c.send_bytes = e.send_bytes;
    c.receive_bytes = e.receive_bytes;
    c.peer_world = e.peer_world;
  }
  return c;
}

// Sends still in the log, oldest first, with slot seq validated as 2n+2 for send n.
// Every logged send: the send log's, then the SEND entries of the threads' flight rings
// (records.h).
inline std::vector<mpidbg_send_log_entry> LoggedSends() {
  std::vector<mpidbg_send_log_entry> out;
  const mpidbg_traffic* t = Traffic();
  if (t == nullptr) return out;
  if (t->log_capacity != 0) {
    const auto* ring = At<mpidbg_send_log_entry>(t->log);
    const uint64_t head = t->log_head;
    const uint64_t first = head > t->log_capacity ? head - t->log_capacity : 0;
    for (uint64_t n = first; n < head; ++n) {
      const mpidbg_send_log_entry& s = ring[n % t->log_capacity];
      if (s.seq == static_cast<uint32_t>(2 * n + 2)) out.push_back(s);
    }
  }
  for (const auto* th : rtcheck::Records<mpidbg_thread_record>(Root()->threads)) {
    rtcheck::ForEachWholeEntry(*th, [&](const mpidbg_flight_entry& e) {
      if (e.direction != MPIDBG_OPERATION_SEND || e.ordinal == 0) {
        return;  // not a send, or one not counted (MPI_PROC_NULL)
      }
      mpidbg_send_log_entry s{};
      s.seq = e.seq;
      s.call = e.call;
      s.comm_job_id = e.comm_job_id;
      s.ordinal = e.ordinal;
      s.bytes = e.bytes;
      s.time_ns = e.post_time_ns;
      s.datatype = e.datatype;
      s.count = e.count;
      s.peer = e.peer;
      s.peer_world = e.peer_world;
      s.tag = e.tag;
      s.mode = e.mode;
      out.push_back(s);
    });
  }
  return out;
}

// Logged sends to (job, peer, tag), oldest first.
inline std::vector<mpidbg_send_log_entry> LoggedSendsTo(uint64_t job_id, int32_t peer, int32_t tag) {
  std::vector<mpidbg_send_log_entry> out;
  for (const auto& s : LoggedSends()) {
    if (s.comm_job_id == job_id && s.peer == peer && s.tag == tag) out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(), [](const mpidbg_send_log_entry& a,
                                              const mpidbg_send_log_entry& b) {
    return a.ordinal < b.ordinal;  // one flow: its order of posting
  });
  return out;
}

inline uint64_t JobIdOf(MPI_Comm comm) {
  if (Root() == nullptr) return 0;
  const uint64_t id = rtcheck::CommJobId(rtcheck::U64(comm));
  RT_CHECK(id != 0 && "communicator has a record");
  return id;
}

// Op records of a request handle: live ones, or with `orphans` also those of freed
// requests that had the same handle value.
inline std::vector<const mpidbg_operation_record*> OpsOf(uint64_t request, bool orphans = false) {
  std::vector<const mpidbg_operation_record*> out;
  for (const auto* o : rtcheck::Operations()) {
    if (o->request != request || (o->hdr.flags & MPIDBG_OPERATION_BLOCKING) != 0) continue;
    if (!orphans && (o->hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    out.push_back(o);
  }
  return out;
}

}  // namespace traffic

#endif  // MPIDBG_TESTS_RUNTIME_TRAFFIC_CHECK_H
