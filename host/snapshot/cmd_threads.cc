// cmd_threads.cc — `mpidbg threads`: what each thread is doing in MPI.
#include "host/cli/commands.h"
#include "host/snapshot/process_command.h"
#include "host/snapshot/snapshot_text.h"

namespace mpidbg::cli {

int ThreadsCommand(const std::vector<std::string>& args) {
  return RunProcessCommand("threads", "Shows what each thread of the process is doing in MPI.",
                           args, [](const model::ProcessSnapshot& s) {
                             return host::ProcessHeaderText(s) + "\n" + host::ThreadsText(s);
                           });
}

}  // namespace mpidbg::cli
