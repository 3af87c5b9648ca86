// cmd_snapshot.cc — `mpidbg snapshot`: everything known about one process.
#include "host/cli/commands.h"
#include "host/snapshot/process_command.h"
#include "host/snapshot/snapshot_text.h"

namespace mpidbg::cli {

int SnapshotCommand(const std::vector<std::string>& args) {
  return RunProcessCommand("snapshot", "Shows the process, its threads and its message queues.",
                           args, host::SnapshotText, /*want_mpit=*/true);
}

}  // namespace mpidbg::cli
