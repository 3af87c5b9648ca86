// fresh_block.h — how mpidbg_monitor_read and mpidbg_profile_read start: the runtime's
// block decoded anew, or, when the target cannot be read, the last decode forgotten.
#pragma once

#include "mpidbg/mqs_interface.h"
#include "plugin/session.h"
#include "plugin/errors.h"

namespace mpidbg::extensions {

// Reads the root of `process` afresh and decodes one of its blocks with `replace` (which
// drops the old decode itself when it fails). When the root cannot be read, `drop`
// forgets the last decode: the getters answer from the last read only, and a failed one
// leaves them nothing. mqs_no_information when the runtime keeps no such block; on
// mqs_ok `*ps` holds the new decode.
inline int read_block_afresh(mqs_process* process,
                             int (*replace)(plugin::ProcessSession*, const mpidbg_root&),
                             void (*drop)(plugin::ProcessSession*), plugin::ProcessSession** ps) {
  *ps = nullptr;
  mpidbg_root root;
  int rc = plugin::read_current_root(process, ps, &root);
  if (rc != mqs_ok) {
    if (*ps != nullptr) drop(*ps);
    return rc;
  }
  rc = replace(*ps, root);
  return rc == plugin::kErrNoMetadata ? mqs_no_information : rc;
}

}  // namespace mpidbg::extensions
