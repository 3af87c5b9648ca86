// errors.h — the plugin's own result codes and their messages.
//
// One table: every code the plugin returns beyond mqs_ok / mqs_no_information /
// mqs_end_of_list is listed here with its message, which mqs_dll_error_string hands to
// the debugger. Some messages carry a detail of the last failure (an address, a version
// number); that detail is recorded right where the failure happens.
#ifndef MPIDBG_PLUGIN_ERRORS_H
#define MPIDBG_PLUGIN_ERRORS_H

#include "mpidbg/mqs_interface.h"
#include "mpidbg/records.h"

namespace mpidbg::plugin {

// X(enumerator, message). Codes are assigned in order from mqs_first_user_code; append
// only, so a code keeps its meaning across plugin versions.
#define MPIDBG_PLUGIN_ERROR_LIST(X)                                                              \
  X(kErrNoRuntime, "no mpidbg runtime in this process: symbol " MPIDBG_ROOT_SYMBOL               \
                   " not found")                                                                 \
  X(kErrBadMagic, "runtime root has a bad magic (not an mpidbg runtime, or memory is corrupt)") \
  X(kErrBadRootSize, "runtime root has an implausible size")                                    \
  X(kErrLayoutVersion, "runtime layout version is not understood by this plugin")              \
  X(kErrReadFailed, "target read failed")                                                       \
  X(kErrOutOfOrder, "called out of order")                                                      \
  X(kErrNoCurrentComm, "no current communicator")                                               \
  X(kErrPastEnd, "iterator past end")                                                           \
  X(kErrNoMemory, "out of memory in the debugger's allocator")                                  \
  X(kErrBadArgument, "bad argument")                                                            \
  X(kErrNoCallbacks, "the debugger has not provided the callbacks this call needs")            \
  X(kErrGroupUnavailable, "the communicator's group cannot be read")                            \
  X(kErrNoSuchThread, "thread index out of range")                                              \
  X(kErrNoSuchRequest, "request index out of range")                                           \
  X(kErrNoTraffic, "the runtime records no traffic counters in this process")                   \
  X(kErrNoSuchEntry, "index out of range (traffic, send log, monitoring or sampling entry)")    \
  X(kErrNoMetadata, "the runtime has recorded no such metadata in this process")                \
  X(kErrMetadataDamaged, "the runtime's metadata is damaged or being rewritten")

enum PluginError : int {
  kErrFirst_ = mqs_first_user_code - 1,
#define MPIDBG_X_ERROR_ENUM(name, text) name,
  MPIDBG_PLUGIN_ERROR_LIST(MPIDBG_X_ERROR_ENUM)
#undef MPIDBG_X_ERROR_ENUM
  kErrEnd_
};

// Records a detailed message for `code` (printf-style), shown instead of the table text
// until the next detail for the same code.
void set_error_detail(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));

// The message for any code (mqs_* results included); never null. The text stays valid
// until the next call for the same code.
const char* error_message(int code);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_ERRORS_H
