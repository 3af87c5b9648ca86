// main.cc — `mpidbg COMMAND ...`: dispatch to the commands.
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/plugin_host/plugin_locator.h"

#ifndef MPIDBG_VERSION
#define MPIDBG_VERSION "unknown"
#endif

namespace {

constexpr const char* kHelp =
    "usage: mpidbg COMMAND [options]\n"
    "\n"
    "MPI debugging for stock MPI builds, on live processes and core files.\n"
    "\n"
    "commands:\n"
    "  snapshot TARGET   everything known about one process\n"
    "  queues TARGET     communicators and their message queues\n"
    "  threads TARGET    what each thread is doing in MPI\n"
    "  handle TARGET ... one MPI handle (communicator, datatype, request, ...) decoded\n"
    "  handles TARGET    every MPI object the process holds or freed, and where it was made\n"
    "  job ...           the whole job: per-rank state, wait-for graph, deadlock\n"
    "  collect ...       this node's ranks of a job as one record for job --nodes\n"
    "  matrix ...        who sent how much to whom (communication matrices, heat map)\n"
    "  profile ...       where the job spends its time: outside MPI, working, blocked\n"
    "  release ...       ask running ranks' runtime to drop the freed handles it keeps\n"
    "  leaks FILE        the MPI objects and requests a job never freed (run --leaks)\n"
    "  gdb-script        path of the gdb extension's loader script (gdb -ix)\n"
    "  run ...           run an MPI program with the mpidbg runtime\n"
    "\n"
    "TARGET: --pid PID | --core FILE [--exe FILE]; also [--plugin PATH] [--json]\n"
    "`mpidbg COMMAND --help` describes one command.\n"
    "\n"
    "exit status: 0 done; 1 no MPI debugging support in the target; 2 bad usage;\n"
    "3 the target cannot be read; 4 (job, matrix, profile) the answer covers only part\n"
    "of the job.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace mpidbg::cli;
  if (argc < 2) {
    std::cerr << kHelp;
    return 2;
  }
  std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kHelp;
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    // The plugin this command would load: an installation (or a .deb unpacked
    // anywhere) shows it uses its own, not a build tree's.
    const std::optional<std::string> plugin = mpidbg::host::LocateOwnPlugin();
    std::cout << "mpidbg " << MPIDBG_VERSION << "\n"
              << "plugin: " << (plugin ? *plugin : std::string("not found")) << "\n";
    return 0;
  }
  std::vector<std::string> args = SplitArgs(argc, argv, 2);
  if (cmd == "snapshot") return SnapshotCommand(args);
  if (cmd == "queues") return QueuesCommand(args);
  if (cmd == "threads") return ThreadsCommand(args);
  if (cmd == "job") return JobCommand(args);
  if (cmd == "collect") return CollectCommand(args);
  if (cmd == "gdb-script") return GdbScriptCommand(args);
  if (cmd == "handle") return HandleCommand(args);
  if (cmd == "handles") return HandlesCommand(args);
  if (cmd == "matrix") return MatrixCommand(args);
  if (cmd == "profile") return ProfileCommand(args);
  if (cmd == "release") return ReleaseCommand(args);
  if (cmd == "leaks") return LeaksCommand(args);
  // `run` receives its own argv: argv[0] is "run".
  if (cmd == "run") return RunCommand(argc - 1, argv + 1);
  std::cerr << "mpidbg: unknown command '" << cmd << "'\n" << kHelp;
  return 2;
}
