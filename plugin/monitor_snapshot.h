// monitor_snapshot.h — the runtime's communication monitoring (records.h, mpidbg_monitor),
// decoded.
//
// The counters change with every message without moving the root's generation, so a
// host asks for them when it wants them and gets a fresh read (mpidbg_monitor_read).
//
// Current values are accumulated - baseline. A reset copies accumulated to baseline with
// `reset_seq` odd; a read that saw reset_seq odd, or changed between the header and the
// end of the arrays, is taken again (MonitorLimits::torn_retries times). When every
// attempt was torn the snapshot keeps the accumulated counters (each a monotonic 64-bit
// word: never torn) and marks the current ones unavailable (`current_valid` false).
//
// Peers: only those with a non-zero accumulated counter are kept (a peer not kept has
// all counters 0), so memory follows the peers this process talks to, not world_size.
#ifndef MPIDBG_PLUGIN_MONITOR_SNAPSHOT_H
#define MPIDBG_PLUGIN_MONITOR_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/records.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

struct MonitorLimits {
  int32_t max_world_size = 1 << 22;     // elements of each peer array
  uint32_t max_files = 1u << 16;        // elements of each file array
  int32_t max_mpit_peers = 1 << 22;     // elements of the MPI_T peer array
  uint32_t max_block_size = 1u << 16;   // bytes of the block as written
  uint32_t max_element_size = 1u << 14; // bytes of one peer or file element as written
  uint32_t max_buckets = 1024;          // histogram buckets as written
  int torn_retries = 3;                 // re-reads while a reset is in progress
};

// One peer: accumulated and baseline counters (baseline zero when !current_valid).
struct MonitorPeer {
  int32_t world_rank;
  int32_t reserved;
  mpidbg_monitor_peer accumulated;
  mpidbg_monitor_peer baseline;
};

// One file entry marked READY, in slot order.
struct MonitorFile {
  uint32_t slot;
  uint32_t reserved;
  mpidbg_monitor_file accumulated;  // name included
  mpidbg_monitor_file baseline;
};

struct MonitorMpitPeer {
  int32_t world_rank;
  int32_t reserved;
  mpidbg_monitor_mpit_peer counters;
};

struct MonitorSnapshot {
  mpidbg_monitor header{};     // host order; arrays' addresses as the runtime wrote them
  bool current_valid = false;  // false: a reset was in progress on every attempt
  Vec<MonitorPeer> peers;      // non-zero peers, by world rank
  Vec<MonitorFile> files;      // READY files, in slot order
  Vec<MonitorMpitPeer> mpit_peers;  // non-zero MPI_T peers, by world rank (state READ only)

  // The peer's entry, or nullptr when it has no counters (all zero).
  const MonitorPeer* find_peer(int32_t world_rank) const;
  const MonitorMpitPeer* find_mpit_peer(int32_t world_rank) const;
};

// Reads the block at `block` (root.monitor). kErrNoMetadata when `block` is 0;
// kErrMetadataDamaged (with a detail) when sizes or counts are implausible; the reader's
// error when an array cannot be read.
int decode_monitor(TargetReader& reader, TargetAddr block, const MonitorLimits& limits,
                   MonitorSnapshot* out);

// Counter-wise a - b, never below 0 (the "current" view).
mpidbg_monitor_peer monitor_peer_minus(const mpidbg_monitor_peer& a, const mpidbg_monitor_peer& b);
mpidbg_monitor_coll monitor_coll_minus(const mpidbg_monitor_coll& a, const mpidbg_monitor_coll& b);
mpidbg_monitor_file monitor_file_minus(const mpidbg_monitor_file& a, const mpidbg_monitor_file& b);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_MONITOR_SNAPSHOT_H
