// snapshot_schema.h — the schema name of the "mpidbg.snapshot/1" document, which its
// writer (snapshot_json) puts in every document and its parser (snapshot_parse)
// requires.
#pragma once

namespace mpidbg::host {

constexpr const char* kSnapshotSchema = "mpidbg.snapshot/1";

}  // namespace mpidbg::host
