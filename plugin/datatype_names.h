// datatype_names.h — datatype names for operations the runtime did not name.
//
// An operation record carries the datatype's name as the runtime wrote it; a flight ring
// entry (records.h, mpidbg_flight_entry) carries only the handle. The name then comes
// from the datatype table's record of that handle, chosen as a handle query would choose
// it (ObjectSnapshot::find_datatype): the table is walked only when an operation needs it.
#ifndef MPIDBG_PLUGIN_DATATYPE_NAMES_H
#define MPIDBG_PLUGIN_DATATYPE_NAMES_H

#include <cstddef>

#include "mpidbg/records.h"
#include "plugin/runtime_snapshot.h"

namespace mpidbg::plugin {

// Fills datatype_name (truncated, NUL-terminated) of each of ops[0..count) that has a
// datatype and no name yet, from root.datatypes; handles compare on their low
// root.handle_size bytes. A datatype without a record keeps the empty name.
// mqs_ok, or kErrNoMemory.
int name_datatypes(TableWalker& walker, const mpidbg_root& root, OperationEntry* ops,
                   size_t count);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_DATATYPE_NAMES_H
