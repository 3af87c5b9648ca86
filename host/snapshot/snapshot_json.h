// snapshot_json.h — model::ProcessSnapshot <-> the "mpidbg.snapshot/1" document of
// OUTPUT.md. Keys there are a contract; this writer adds keys, never renames:
//   process: state, plugin; thread: blocked, call_class, waited, waited_unknown, comm,
//   comm_name, root; communicator: predefined, creator; OP: direction, comm,
//   comm_name, post_serial.
// A blocked thread is written "state": "in_mpi" with "blocked": true.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

constexpr const char* kSnapshotSchema = "mpidbg.snapshot/1";

nlohmann::json SnapshotToJson(const model::ProcessSnapshot& snap);
// Parses a document written by SnapshotToJson (or a compatible writer). Missing
// optional keys take the model's defaults; a wrong schema or type is an error.
Result<model::ProcessSnapshot> SnapshotFromJson(const nlohmann::json& doc);

nlohmann::json RankToJson(const model::Rank& rank);
nlohmann::json TagToJson(const model::Tag& tag);
nlohmann::json OperationToJson(const model::Operation& op);

}  // namespace mpidbg::host
