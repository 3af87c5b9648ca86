// operation_info.h — one operation record as an mpidbg_operation_info.
#ifndef MPIDBG_EXTENSIONS_OPERATION_INFO_H
#define MPIDBG_EXTENSIONS_OPERATION_INFO_H

#include "mpidbg/mpidbg_ext.h"
#include "plugin/runtime_snapshot.h"

namespace mpidbg::extensions {

// Fills every field of `out` (size = sizeof). The communicator's name comes from the
// snapshot's record for the operation's communicator, when there is one.
void fill_operation_info(const plugin::RuntimeSnapshot& snap, const plugin::OperationEntry& op,
                         mpidbg_operation_info* out);

// "MPI_Recv" for a known call id, "" for none, "MPI call <id>" for an unknown one.
void call_display_name(int call, char* out, size_t size);

}  // namespace mpidbg::extensions

#endif  // MPIDBG_EXTENSIONS_OPERATION_INFO_H
