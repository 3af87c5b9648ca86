// launch_plan.h — how `mpidbg run` turns a user's launcher command into one that runs
// every rank under the mpidbg runtime of the right MPI flavour.
//
// Pure logic: the file system and ELF probing come in through LaunchProbe so tests can
// exercise every launcher shape without MPI installed.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mpidbg::launch {

enum class Flavour { kUnknown, kMpich, kOpenMpi };
enum class LauncherKind { kHydra, kOpenMpi, kDirect };

const char* FlavourName(Flavour f);            // "mpich", "openmpi", "unknown"
Flavour FlavourFromName(const std::string& s); // inverse; kUnknown if not a name
// The flavour an executable's DT_NEEDED list implies (libmpich.so.* / libmpi.so.*).
Flavour FlavourFromNeeded(const std::vector<std::string>& needed);
// The launcher kind of a resolved launcher path (by its file name).
LauncherKind LauncherKindOf(const std::string& resolved_path);

struct LaunchProbe {
  // PATH lookup of a command word plus realpath; "" when not an executable file.
  std::function<std::string(const std::string&)> resolve_executable;
  // The MPI flavour an executable links against; kUnknown if none or unreadable.
  std::function<Flavour(const std::string&)> flavour_of_program;
  // The runtime library of a flavour; "" when not installed.
  std::function<std::string(Flavour)> runtime_library;
  // The current value of an environment variable, "" when unset.
  std::function<std::string(const std::string&)> getenv;
};

struct LaunchRequest {
  std::vector<std::string> command;  // launcher (or the program itself) and its arguments
  Flavour forced = Flavour::kUnknown;  // --flavour
  std::string runtime_override;        // --runtime
  // Variables for every rank (passed through the launcher like LD_PRELOAD), e.g.
  // MPIDBG_MONITOR / MPIDBG_PROFILE from --monitor / --profile.
  std::vector<std::pair<std::string, std::string>> rank_env;
  // --monitor: with Open MPI also enable its own monitoring components
  // (`--mca pml_monitoring_enable 1`) unless the command sets pml_monitoring_enable.
  bool monitor = false;
};

struct LaunchPlan {
  bool ok = false;
  std::string error;  // one sentence when !ok
  Flavour flavour = Flavour::kUnknown;
  LauncherKind launcher = LauncherKind::kDirect;
  std::string program;  // the MPI program found among the arguments, "" if none
  std::string runtime;  // runtime library injected
  std::vector<std::string> argv;                           // command to exec
  std::vector<std::pair<std::string, std::string>> env;  // variables to set before exec
};

LaunchPlan PlanLaunch(const LaunchRequest& request, const LaunchProbe& probe);

// The probe over the real file system; runtime libraries are looked for in
// `runtime_dirs` in order.
LaunchProbe SystemProbe(std::vector<std::string> runtime_dirs);

}  // namespace mpidbg::launch
