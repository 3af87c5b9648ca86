// read_handle.h — one MPI handle of a live process or core, decoded through the handle
// interface of the DLL that serves the target: the whole path of `mpidbg handle`.
#pragma once

#include <string>

#include "host/handle/handle_reading.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct HandleRequest {
  TargetSpec target;
  std::string kind;         // comm, request, datatype, group, op, errhandler, info, win,
                            // file, message, status; "" to infer it from --expr's type
  std::string value;        // the handle as typed (hex or decimal), "" with `expr`
  std::string expr;         // a global variable holding the handle: NAME or NAME[INDEX]
  bool fortran = false;     // the value is a Fortran handle: convert with *_f2c first
  int max_map_entries = 0;  // datatype type map limit, 0 for the DLL's default
};

// The handle kinds `mpidbg handle` accepts, in the order of the usage text.
const char* const* HandleKindNames();
bool IsHandleKind(const std::string& kind);

// The handle and what the query resolved to (handle_json.h makes the document of it).
// Errors: usage (bad value, unknown variable, kind mismatch, a handle the process does
// not know), no support (no runtime, a DLL without the handle interface), unreadable
// target.
Result<HandleReading> ReadHandle(const HandleRequest& request);

}  // namespace mpidbg::host
