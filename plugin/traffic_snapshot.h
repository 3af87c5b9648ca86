// traffic_snapshot.h — the runtime's traffic counters and send log, decoded.
//
// Counters change on every message without moving the root's generation, so they are
// not part of the cached RuntimeSnapshot: a host asks for them when it wants them and
// gets a fresh read. Only complete entries are kept: counter entries marked READY and
// send-log slots whose sequence counter is even and unchanged by a re-read.
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
  Vec<mpidbg_send_log_entry> sends;   // logged sends still in the ring, oldest first
  uint32_t torn = 0;                  // log slots skipped as mid-write
};

// Reads the traffic block at root.traffic. kErrNoTraffic when the runtime has none
// (older runtime, before MPI_Init, or disabled).
int decode_traffic(TargetReader& reader, const mpidbg_root& root, const TrafficLimits& limits,
                   TrafficSnapshot* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_TRAFFIC_SNAPSHOT_H
