// cmd_gdb_script.cc — `mpidbg gdb-script`: where the gdb extension's loader script is,
// for `gdb -ix "$(mpidbg gdb-script)"` when gdb does not auto-load it.
#include <limits.h>
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "host/cli/commands.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg gdb-script\n"
    "  Prints the path of the gdb extension's loader script (mpi commands and MPI handle\n"
    "  printers), e.g. for: gdb -ix \"$(mpidbg gdb-script)\" -p PID\n"
    "  (-ix: loaded before gdb attaches, so gdb runs the runtime's own auto-load script\n"
    "  without a warning)\n";

std::string ExecutableDir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  const std::string path(buf, static_cast<size_t>(n));
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The installed script (relative to the running command) first: a build tree may
// still exist beside an installation, and the installed command belongs with its own.
std::vector<std::string> Candidates() {
  std::vector<std::string> out;
#ifdef MPIDBG_GDB_SCRIPT_INSTALL_REL
  const std::string dir = ExecutableDir();
  if (!dir.empty()) out.push_back(dir + "/" MPIDBG_GDB_SCRIPT_INSTALL_REL);
#endif
#ifdef MPIDBG_GDB_SCRIPT_BUILD_PATH
  out.emplace_back(MPIDBG_GDB_SCRIPT_BUILD_PATH);
#endif
  return out;
}

}  // namespace

int GdbScriptCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    const bool help = args[0] == "--help" || args[0] == "-h";
    (help ? std::cout : std::cerr) << kUsage;
    return help ? 0 : 2;
  }
  std::string tried;
  for (const std::string& path : Candidates()) {
    if (access(path.c_str(), R_OK) == 0) {
      char resolved[PATH_MAX];
      std::cout << (realpath(path.c_str(), resolved) != nullptr ? resolved : path) << "\n";
      return 0;
    }
    tried += (tried.empty() ? "" : ", ") + path;
  }
  std::cerr << "mpidbg: the gdb extension's loader script was not found (looked at "
            << (tried.empty() ? "no location" : tried) << ")\n";
  return 1;
}

}  // namespace mpidbg::cli
