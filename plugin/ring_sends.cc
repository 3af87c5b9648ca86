// ring_sends.cc — see ring_sends.h.
#include "plugin/ring_sends.h"

#include "plugin/errors.h"
#include "plugin/flight_rings.h"

namespace mpidbg::plugin {
namespace {

// Ordinal 0 is a send the counters could not count (their table was full): no flow
// knows it, so it is left out as the send log's reader leaves such entries out.
bool is_logged_send(const mpidbg_flight_entry& e) {
  return e.direction == MPIDBG_OPERATION_SEND && e.ordinal != 0;
}

// The send-log entry records.h makes of a ring's send.
mpidbg_send_log_entry logged_send_of(const mpidbg_flight_entry& e) {
  mpidbg_send_log_entry l{};
  l.seq = e.seq;
  l.call = e.call;
  l.comm_job_id = e.comm_job_id;
  l.ordinal = e.ordinal;
  l.bytes = e.bytes;
  l.time_ns = e.post_time_ns;
  l.datatype = e.datatype;
  l.count = e.count;
  l.peer = e.peer;
  l.peer_world = e.peer_world;
  l.tag = e.tag;
  l.mode = e.mode;
  return l;
}

}  // namespace

int read_ring_sends(TargetReader& reader, const mpidbg_root& root, const SnapshotLimits& limits,
                    SnapshotStats* stats, Vec<mpidbg_send_log_entry>* out) {
  // Rings came with layout 2: an older runtime's thread table is not walked at all.
  if (root.layout_version < 2) return mqs_ok;
  TableWalker walker(reader, limits, *stats);
  Vec<ThreadEntry> threads;
  int rc = walk_threads(walker, root.threads, &threads);
  if (rc != mqs_ok) return rc;
  Vec<FlightEntry> sends;
  rc = read_flight_entries(reader, limits, walker, threads, is_logged_send, &sends);
  if (rc != mqs_ok) return rc;
  if (!out->reserve(out->size() + sends.size())) return kErrNoMemory;
  for (const FlightEntry& f : sends) out->push_back(logged_send_of(f.entry));
  return mqs_ok;
}

}  // namespace mpidbg::plugin
