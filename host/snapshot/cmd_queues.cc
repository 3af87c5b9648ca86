// cmd_queues.cc — `mpidbg queues`: communicators and their message queues.
#include "host/cli/commands.h"
#include "host/snapshot/process_command.h"
#include "host/snapshot/snapshot_text.h"

namespace mpidbg::cli {

int QueuesCommand(const std::vector<std::string>& args) {
  return RunProcessCommand(
      "queues",
      "Shows communicators with their pending sends, pending receives and unexpected messages.",
      args, [](const model::ProcessSnapshot& s) {
        return host::ProcessHeaderText(s) + "\n" + host::QueuesText(s);
      });
}

}  // namespace mpidbg::cli
