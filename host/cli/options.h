// options.h — command-line parsing shared by the mpidbg commands.
#pragma once

#include <string>
#include <vector>

#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::cli {

// The arguments after the command name, with "--opt=value" split into two.
std::vector<std::string> SplitArgs(int argc, char** argv, int first);

struct ProcessOptions {
  host::TargetSpec target;
  bool json = false;
  bool help = false;
};

// `(--pid PID | --core FILE [--exe FILE]) [--plugin PATH] [--json]`.
host::Result<ProcessOptions> ParseProcessOptions(const std::vector<std::string>& args);

// Parses a decimal pid (> 0).
bool ParsePid(const std::string& text, int64_t* pid);

// Prints a failure: "mpidbg: message" on stderr and, with --json, one error document on
// stdout so that stdout always holds exactly one document. Returns the exit status.
int ReportFailure(const host::Status& status, bool json);

}  // namespace mpidbg::cli
