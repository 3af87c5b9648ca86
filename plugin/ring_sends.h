// ring_sends.h — the sends a layout-2 runtime logs in its threads' flight rings instead
// of its send log (records.h, "Flight rings" and "Traffic").
//
// A nonblocking send posted into a flight ring is counted in the traffic counters but
// never written to the send log: its ring entry is its log entry, whatever the entry's
// state (POSTED, DONE, CARRIED), for as long as the ring keeps it. Without these sends an
// outstanding MPI_Isend would look like a message that left the log, its envelope lost.
//
// The thread table and the rings are target memory: they are read under the bounds of
// a snapshot (TableWalker, read_flight_entries), with their own byte budget, and what
// is damaged is skipped and counted in `stats`.
#ifndef MPIDBG_PLUGIN_RING_SENDS_H
#define MPIDBG_PLUGIN_RING_SENDS_H

#include "mpidbg/records.h"
#include "plugin/debugger_memory.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

// Appends to `out` a send-log entry for every whole SEND entry with an ordinal in the
// flight rings of the runtime at `root`, ring by ring in ring order; seq is the entry's
// (even: whole). Nothing for a layout-1 runtime, which has no rings. mqs_ok (also when
// damage left things out), or kErrNoMemory.
int read_ring_sends(TargetReader& reader, const mpidbg_root& root, const SnapshotLimits& limits,
                    SnapshotStats* stats, Vec<mpidbg_send_log_entry>* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_RING_SENDS_H
