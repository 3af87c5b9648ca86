// job_inputs.h — the snapshots a job analysis starts from: one per live process or
// core (an unreadable one kept as a placeholder), or the documents in a directory.
#pragma once

#include <string>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/job/job_analysis.h"
#include "host/model/snapshot.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

// A target that cannot be read becomes a snapshot with process.state "unreadable",
// its pid and source, why (process.error, process.error_kind) and, with `report`, a
// line on stderr; the others are read normally. There is one snapshot per target, in
// their order. `failures` (optional) receives the Status of each target that could not
// be read, in order; `not_mpi` (optional) one flag per target: true for a target that
// is no MPI process at all (Status::not_mpi), which a job leaves out (LeaveOutNonMpi).
std::vector<model::ProcessSnapshot> ReadJobTargets(const std::vector<TargetSpec>& targets,
                                                   std::vector<Status>* failures = nullptr,
                                                   std::vector<bool>* not_mpi = nullptr,
                                                   bool report = true);

// Takes the targets flagged in `not_mpi` (ReadJobTargets) out of `targets` and their
// snapshots out of `snaps` (one per target, in order), and returns them, in order.
std::vector<job::LeftOutProcess> LeaveOutNonMpi(const std::vector<bool>& not_mpi,
                                                std::vector<TargetSpec>* targets,
                                                std::vector<model::ProcessSnapshot>* snaps);

// Every *.json file of `dir` (sorted by name) parsed as a snapshot document.
Result<std::vector<model::ProcessSnapshot>> ReadSnapshotDirectory(const std::string& dir);

// The ranks of node records ("mpidbg.node/1", `mpidbg collect`), one file per node, "-"
// for standard input, read one after the other and line by line: the snapshots of all
// nodes, and in `nodes` what each record said and how far it could be read (a record
// cut short, garbage or of another schema keeps the ranks read before the fault and
// says why; a file that cannot be opened reads as no rank with that reason).
std::vector<model::ProcessSnapshot> ReadNodeRecords(const std::vector<std::string>& files,
                                                    std::vector<NodeRecordSummary>* nodes);

// `why`: the failure, kept in process.error and process.error_kind.
model::ProcessSnapshot UnreadableSnapshot(const TargetSpec& spec, int64_t pid,
                                          const Status& why = Status::Ok());

}  // namespace mpidbg::host
