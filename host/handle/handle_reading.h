// handle_reading.h — what `mpidbg handle` learnt from one process: the process, the
// query as it was resolved (kind, value, the variable it came from) and the handle's
// object, rendered by the describer while the DLL's result was alive. The reader fills
// it; handle_json makes the "mpidbg.handle/1" document of it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mpidbg::host {

struct HandleReading {
  // The process.
  int64_t pid = 0;
  int world_rank = -1;  // -1 when the target does not run the runtime
  std::string source;   // "live" | "core"
  std::string plugin;   // the DLL that answered

  // The query.
  std::string kind;                 // as given, or from the variable's type
  std::string expr;                 // the variable read, "" when a value was given
  bool fortran = false;             // `value` is a Fortran handle
  uint64_t value = 0;               // as given or read from the variable
  std::optional<uint64_t> address;  // the variable's address (with `expr`)
  std::string type_name;            // the variable's type, "" if unknown (with `expr`)
  std::optional<uint64_t> c_value;  // the C handle of a Fortran one (with `fortran`)

  // The handle's object (handle_describer.h).
  nlohmann::json handle;
};

}  // namespace mpidbg::host
