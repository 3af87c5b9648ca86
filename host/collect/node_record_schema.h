// node_record_schema.h — the names of the "mpidbg.node/1" record both sides check: the
// schema its writer (node_record_writer) puts in the header line and its parser
// (node_record_parser) requires there, and what its rank lines may carry.
#pragma once

namespace mpidbg::host {

constexpr const char* kNodeRecordSchema = "mpidbg.node/1";

// The header's "content": the key each rank line holds its rank under. A record
// without one holds snapshots (for `job`); `collect --content monitor|profile` writes
// the runtime's communication counters (for `matrix`) or MPI-state samples (for
// `profile`) instead, the header's object of that name holding the job-wide facts.
constexpr const char* kNodeContentSnapshot = "snapshot";
constexpr const char* kNodeContentMonitor = "monitor";
constexpr const char* kNodeContentProfile = "profile";

}  // namespace mpidbg::host
