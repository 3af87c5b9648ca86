// node_record_schema.h — the schema name of the "mpidbg.node/1" record, which its
// writer (node_record_writer) puts in the header line and its parser
// (node_record_parser) requires there.
#pragma once

namespace mpidbg::host {

constexpr const char* kNodeRecordSchema = "mpidbg.node/1";

}  // namespace mpidbg::host
