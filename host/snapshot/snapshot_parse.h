// snapshot_parse.h — the "mpidbg.snapshot/1" document (snapshot_json.h writes it) back
// into a model::ProcessSnapshot: the wire format from the isolated DLL child and the
// documents of `mpidbg job --snapshots DIR`.
#pragma once

#include <nlohmann/json.hpp>

#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

// Parses a document written by SnapshotToJson (or a compatible writer). Missing
// optional keys take the model's defaults; a wrong schema or type is an error.
Result<model::ProcessSnapshot> SnapshotFromJson(const nlohmann::json& doc);

}  // namespace mpidbg::host
