// comm_names.h — how a communicator is named for people.
#ifndef MPIDBG_PLUGIN_COMM_NAMES_H
#define MPIDBG_PLUGIN_COMM_NAMES_H

#include <cstddef>

#include "mpidbg/records.h"

namespace mpidbg::plugin {

// The name set with MPI_Comm_set_name; else MPI_COMM_WORLD / MPI_COMM_SELF recognised by
// handle; else "comm 0x<handle> from <creating call>". With `mark_freed`, a communicator
// the application freed gets " (freed)" appended. Always NUL-terminated within `size`.
void comm_display_name(const mpidbg_comm_record& comm, const mpidbg_root& root, bool mark_freed,
                       char* out, size_t size);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_COMM_NAMES_H
