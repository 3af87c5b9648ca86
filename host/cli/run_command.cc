// run_command.cc — `mpidbg run`: run an MPI job with every rank under the mpidbg
// runtime. The flavour comes from the program's MPI library (or --flavour); the
// launcher is exec'd in place so signals and the exit status are the job's own.
#include "cli/run_command.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "launch/launch_plan.h"
#include "launch/runtime_locations.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg run [--flavour mpich|openmpi] [--runtime LIB] [--dry-run] -- COMMAND...\n"
    "  Runs COMMAND (an MPI launcher such as mpiexec, or an MPI program) with every rank\n"
    "  under the mpidbg runtime, so `mpidbg snapshot|job` can explain its MPI state.\n";

std::string Quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t'\"\\$") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int RunCommand(int argc, char** argv) {
  launch::LaunchRequest request;
  bool dry_run = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--help" || arg == "-h") {
      fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--dry-run") {
      dry_run = true;
    } else if ((arg == "--flavour" || arg == "--flavor") && i + 1 < argc) {
      request.forced = launch::FlavourFromName(argv[++i]);
      if (request.forced == launch::Flavour::kUnknown) {
        fprintf(stderr, "mpidbg run: unknown flavour `%s` (mpich or openmpi)\n", argv[i]);
        return 2;
      }
    } else if (arg == "--runtime" && i + 1 < argc) {
      request.runtime_override = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      fprintf(stderr, "mpidbg run: unknown option `%s`\n%s", arg.c_str(), kUsage);
      return 2;
    } else {
      break;  // the command starts here
    }
  }
  for (; i < argc; ++i) request.command.emplace_back(argv[i]);
  if (request.command.empty()) {
    fputs(kUsage, stderr);
    return 2;
  }

  const launch::LaunchPlan plan =
      launch::PlanLaunch(request, launch::SystemProbe(launch::RuntimeSearchDirs()));
  if (!plan.ok) {
    fprintf(stderr, "mpidbg run: %s\n", plan.error.c_str());
    return plan.runtime.empty() && plan.flavour != launch::Flavour::kUnknown ? 1 : 2;
  }

  std::string shown;
  for (const auto& [name, value] : plan.env) shown += name + "=" + Quote(value) + " ";
  for (const std::string& word : plan.argv) shown += Quote(word) + " ";
  fprintf(stderr, "mpidbg run: %s runtime %s\nmpidbg run: %s\n", launch::FlavourName(plan.flavour),
          plan.runtime.c_str(), shown.c_str());
  if (dry_run) return 0;

  for (const auto& [name, value] : plan.env) setenv(name.c_str(), value.c_str(), 1);
  std::vector<char*> exec_argv;
  for (const std::string& word : plan.argv) exec_argv.push_back(const_cast<char*>(word.c_str()));
  exec_argv.push_back(nullptr);
  fflush(stderr);
  execvp(exec_argv[0], exec_argv.data());
  fprintf(stderr, "mpidbg run: cannot execute %s: %s\n", exec_argv[0], strerror(errno));
  return 1;
}

}  // namespace mpidbg::cli
