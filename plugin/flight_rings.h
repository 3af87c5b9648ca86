// flight_rings.h — reading the per-thread flight rings of a layout-2 runtime (records.h,
// mpidbg_flight_entry), and the pending requests they hold.
//
// Below MPI_THREAD_MULTIPLE the runtime opens no operation record for MPI_Isend,
// MPI_Irecv and their kin: each thread appends an entry to a ring of its own. A reader
// that knows only the operation table would miss those requests, so the snapshot
// derives an OperationEntry from every entry still POSTED, filled as records.h says an
// operation record of the same request would be. The same rings are the send log of the
// sends posted into them (ring_sends.h): both read them through read_flight_entries.
//
// The rings' geometry (address, capacity, entry size, head) is target memory: it is
// checked before it sizes a read, the bytes read come out of the snapshot's byte budget,
// and a ring that fails a check or a read is skipped and counted (rings_damaged).
#ifndef MPIDBG_PLUGIN_FLIGHT_RINGS_H
#define MPIDBG_PLUGIN_FLIGHT_RINGS_H

#include "plugin/debugger_memory.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

// A whole entry of a ring: the post it holds, as of the read.
struct FlightEntry {
  mpidbg_flight_entry entry;
  uint64_t tid;     // of the thread whose ring holds it
  TargetAddr addr;  // the entry in the ring
};

// Which whole entries a reader wants (e.g. the POSTED ones).
using FlightFilter = bool (*)(const mpidbg_flight_entry& entry);

// Appends to `out` every whole entry of the threads' rings that `keep` accepts, ring by
// ring in ring order. Damage is logged and counted in walker.stats(), and a damaged ring
// adds nothing; the walker's byte budget bounds the reads. mqs_ok, or kErrNoMemory.
int read_flight_entries(TargetReader& reader, const SnapshotLimits& limits, TableWalker& walker,
                        const Vec<ThreadEntry>& threads, FlightFilter keep,
                        Vec<FlightEntry>* out);

// Appends to `out` the operations of every POSTED entry of the threads' rings, in ring
// order (the caller sorts). Damage is logged and counted in walker.stats(); the walker's
// byte budget bounds the reads. mqs_ok, or kErrNoMemory.
int read_flight_rings(TargetReader& reader, const SnapshotLimits& limits, TableWalker& walker,
                      const Vec<ThreadEntry>& threads, Vec<OperationEntry>* out);

// Appends the `flight` operations to `operations`, except those whose post_serial an
// operation record already has: the runtime carried that request into a record before
// it marked the entry (a process stopped between the two stores), and the record wins.
// A persistent request's start (records.h, MPIDBG_FLIGHT_START) is applied to the
// request's inactive record instead, when there is one (mpidbg_operation_apply_start).
// mqs_ok, or kErrNoMemory.
int merge_flight_ops(const Vec<OperationEntry>& flight, Vec<OperationEntry>* operations);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_FLIGHT_RINGS_H
