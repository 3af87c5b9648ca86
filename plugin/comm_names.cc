#include "plugin/comm_names.h"

#include <cstdio>
#include <cstring>

#include "plugin/call_names.h"

namespace mpidbg::plugin {

void comm_display_name(const mpidbg_comm_record& comm, const mpidbg_root& root, bool mark_freed,
                       char* out, size_t size) {
  if (size == 0) return;
  const bool freed = mark_freed && (comm.hdr.flags & MPIDBG_REC_FREED) != 0;
  const char* suffix = freed ? " (freed)" : "";
  if (comm.name[0] != '\0') {
    // Keep the suffix visible even for a name that fills the field.
    const int room = static_cast<int>(size) - 1 - static_cast<int>(std::strlen(suffix));
    std::snprintf(out, size, "%.*s%s", room > 0 ? room : 0, comm.name, suffix);
    return;
  }
  if (comm.handle == root.comm_world_handle && root.comm_world_handle != 0) {
    std::snprintf(out, size, "MPI_COMM_WORLD%s", suffix);
    return;
  }
  if (comm.handle == root.comm_self_handle && root.comm_self_handle != 0) {
    std::snprintf(out, size, "MPI_COMM_SELF%s", suffix);
    return;
  }
  const char* creator = call_name(comm.creator);
  if (creator != nullptr) {
    std::snprintf(out, size, "comm 0x%llx from %s%s",
                  static_cast<unsigned long long>(comm.handle), creator, suffix);
  } else {
    std::snprintf(out, size, "comm 0x%llx%s", static_cast<unsigned long long>(comm.handle),
                  suffix);
  }
}

}  // namespace mpidbg::plugin
