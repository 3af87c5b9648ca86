// snapshot_json.h — model::ProcessSnapshot as the "mpidbg.snapshot/1" document of
// OUTPUT.md (snapshot_parse.h reads it back). Keys there are a contract; this writer
// adds keys, never renames:
//   process: state, plugin; thread: blocked, call_class, waited, waited_unknown, comm,
//   comm_name, root; communicator: predefined, creator; OP: direction, comm,
//   comm_name, post_serial.
// A blocked thread is written "state": "in_mpi" with "blocked": true.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "host/model/snapshot.h"
#include "host/snapshot/snapshot_schema.h"

namespace mpidbg::host {

nlohmann::json SnapshotToJson(const model::ProcessSnapshot& snap);

nlohmann::json RankToJson(const model::Rank& rank);
nlohmann::json TagToJson(const model::Tag& tag);
nlohmann::json OperationToJson(const model::Operation& op);

}  // namespace mpidbg::host
