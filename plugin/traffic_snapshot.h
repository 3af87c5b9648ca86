// traffic_snapshot.h — the runtime's traffic counters and send log, decoded.
//
// Counters change on every message without moving the root's generation, so they are
// not part of the cached RuntimeSnapshot: a host asks for them when it wants them and
// gets a fresh read. Only complete entries are kept: counter entries marked READY,
// send-log slots whose sequence counter says they hold the send expected there, and
// whole entries of the flight rings (layout 2), which log the sends posted into them
// (ring_sends.h).
#ifndef MPIDBG_PLUGIN_TRAFFIC_SNAPSHOT_H
#define MPIDBG_PLUGIN_TRAFFIC_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/records.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

struct TrafficLimits {
  uint32_t max_entries = 1u << 20;      // counter slots
  uint32_t max_log = 1u << 20;          // send-log slots
  uint32_t max_entry_size = 1u << 12;   // bytes per slot as the runtime wrote it
};

struct TrafficSnapshot {
  mpidbg_traffic header{};
  Vec<mpidbg_traffic_entry> entries;  // READY entries, in slot order
  // Logged sends still in the send log or a flight ring, oldest first: the log's in its
  // order, the rings' among them by time_ns (posting time).
  Vec<mpidbg_send_log_entry> sends;
  uint32_t torn = 0;                  // log slots skipped as mid-write
  SnapshotStats rings;                // what the thread walk and ring reads skipped
};

// Reads the traffic block at root.traffic, and the sends in the flight rings of the
// threads at root.threads under `ring_limits` (one byte budget for the walk and the
// rings). kErrNoTraffic when the runtime has no traffic block (older runtime, before
// MPI_Init, or disabled) or a damaged one; damaged rings are skipped and counted.
int decode_traffic(TargetReader& reader, const mpidbg_root& root, const TrafficLimits& limits,
                   const SnapshotLimits& ring_limits, TrafficSnapshot* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_TRAFFIC_SNAPSHOT_H
