// job_inputs.h — the snapshots a job analysis starts from: one per live process or
// core (an unreadable one kept as a placeholder), or the documents in a directory.
#pragma once

#include <string>
#include <vector>

#include "host/model/snapshot.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

// A target that cannot be read becomes a snapshot with process.state "unreadable",
// its pid and source, why (process.error, process.error_kind) and a line on stderr;
// the others are read normally. There is one snapshot per target, in their order.
// `failures` (optional) receives the Status of each target that could not be read.
std::vector<model::ProcessSnapshot> ReadJobTargets(const std::vector<TargetSpec>& targets,
                                                   std::vector<Status>* failures = nullptr);

// Every *.json file of `dir` (sorted by name) parsed as a snapshot document.
Result<std::vector<model::ProcessSnapshot>> ReadSnapshotDirectory(const std::string& dir);

// `why`: the failure, kept in process.error and process.error_kind.
model::ProcessSnapshot UnreadableSnapshot(const TargetSpec& spec, int64_t pid,
                                          const Status& why = Status::Ok());

}  // namespace mpidbg::host
