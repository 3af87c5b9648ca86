// record_names.h — the words the host's outputs use for the contract's enum values,
// spelled once for every reader and renderer (docs/OUTPUT.md).
#ifndef MPIDBG_HOST_UTIL_RECORD_NAMES_H
#define MPIDBG_HOST_UTIL_RECORD_NAMES_H

#include <cstdint>

#include "mpidbg/records.h"

namespace mpidbg::host {

// A send's mode (enum mpidbg_send_mode): "standard", "synchronous", "buffered",
// "ready"; nullptr for MPIDBG_MODE_NONE (receives) and unknown values.
inline const char* SendModeName(int32_t mode) {
  switch (mode) {
    case MPIDBG_MODE_STANDARD:
      return "standard";
    case MPIDBG_MODE_SYNCHRONOUS:
      return "synchronous";
    case MPIDBG_MODE_BUFFERED:
      return "buffered";
    case MPIDBG_MODE_READY:
      return "ready";
    default:
      return nullptr;
  }
}

}  // namespace mpidbg::host

#endif  // MPIDBG_HOST_UTIL_RECORD_NAMES_H
