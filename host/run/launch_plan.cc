// launch_plan.cc — choosing the flavour and injecting the runtime.
//
// The runtime is injected with LD_PRELOAD into the ranks only, never into the
// launcher itself (the runtime links libmpi, which a launcher should not load):
// MPICH's hydra takes `-genv LD_PRELOAD lib`, Open MPI's orterun `-x LD_PRELOAD=lib`.
// A program started without a launcher (a singleton) gets LD_PRELOAD directly.
#include "host/run/launch_plan.h"

#include <cstdlib>

namespace mpidbg::launch {
namespace {

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

Flavour FlavourOfLauncher(LauncherKind kind) {
  switch (kind) {
    case LauncherKind::kHydra: return Flavour::kMpich;
    case LauncherKind::kOpenMpi: return Flavour::kOpenMpi;
    case LauncherKind::kDirect: break;
  }
  return Flavour::kUnknown;
}

// LD_PRELOAD for the ranks: our runtime first, then whatever the user preloads.
std::string PreloadValue(const std::string& runtime, const LaunchProbe& probe) {
  const std::string existing = probe.getenv ? probe.getenv("LD_PRELOAD") : "";
  return existing.empty() ? runtime : runtime + ":" + existing;
}

// Whether the user already chose Open MPI's monitoring level, on the command line or in
// the environment.
bool SetsPmlMonitoring(const std::vector<std::string>& command, const LaunchProbe& probe) {
  for (const std::string& word : command) {
    if (word.find("pml_monitoring_enable") != std::string::npos) return true;
  }
  return probe.getenv && !probe.getenv("OMPI_MCA_pml_monitoring_enable").empty();
}

}  // namespace

const char* FlavourName(Flavour f) {
  switch (f) {
    case Flavour::kMpich: return "mpich";
    case Flavour::kOpenMpi: return "openmpi";
    case Flavour::kUnknown: break;
  }
  return "unknown";
}

Flavour FlavourFromName(const std::string& s) {
  if (s == "mpich") return Flavour::kMpich;
  if (s == "openmpi" || s == "ompi" || s == "open-mpi") return Flavour::kOpenMpi;
  return Flavour::kUnknown;
}

Flavour FlavourFromNeeded(const std::vector<std::string>& needed) {
  for (const std::string& lib : needed) {
    if (StartsWith(lib, "libmpich.so") || StartsWith(lib, "libmpi_mpich")) return Flavour::kMpich;
    if (StartsWith(lib, "libmpi.so")) return Flavour::kOpenMpi;
  }
  return Flavour::kUnknown;
}

LauncherKind LauncherKindOf(const std::string& resolved_path) {
  const std::string name = BaseName(resolved_path);
  if (StartsWith(name, "mpiexec.hydra") || StartsWith(name, "hydra") ||
      name == "mpiexec.mpich" || name == "mpirun.mpich")
    return LauncherKind::kHydra;
  if (name == "orterun" || name == "prterun" || name == "mpirun.openmpi" ||
      name == "mpiexec.openmpi" || name == "oshrun")
    return LauncherKind::kOpenMpi;
  return LauncherKind::kDirect;
}

LaunchPlan PlanLaunch(const LaunchRequest& request, const LaunchProbe& probe) {
  LaunchPlan plan;
  if (request.command.empty()) {
    plan.error = "no command given: use `mpidbg run -- mpiexec -n 4 ./program`";
    return plan;
  }
  const std::string first = probe.resolve_executable(request.command[0]);
  if (first.empty()) {
    plan.error = "cannot find the command `" + request.command[0] + "` on PATH";
    return plan;
  }
  plan.launcher = LauncherKindOf(first);

  // The program is the first argument that is an executable linking an MPI library;
  // for a direct start it is the command itself.
  const size_t scan_from = plan.launcher == LauncherKind::kDirect ? 0 : 1;
  Flavour found = Flavour::kUnknown;
  for (size_t i = scan_from; i < request.command.size() && found == Flavour::kUnknown; ++i) {
    const std::string& word = request.command[i];
    if (word.empty() || word[0] == '-') continue;
    const std::string path = i == 0 ? first : probe.resolve_executable(word);
    if (path.empty()) continue;
    found = probe.flavour_of_program(path);
    if (found != Flavour::kUnknown) plan.program = path;
  }

  plan.flavour = request.forced != Flavour::kUnknown ? request.forced
                 : found != Flavour::kUnknown        ? found
                                                     : FlavourOfLauncher(plan.launcher);
  if (plan.flavour == Flavour::kUnknown) {
    plan.error =
        "cannot tell which MPI the program uses (no argument links libmpich or libmpi): "
        "name it with --flavour mpich|openmpi";
    return plan;
  }

  plan.runtime = !request.runtime_override.empty() ? request.runtime_override
                                                   : probe.runtime_library(plan.flavour);
  if (plan.runtime.empty()) {
    plan.error = std::string("the mpidbg runtime for ") + FlavourName(plan.flavour) +
                 " is not installed (libmpidbg_rt_" + FlavourName(plan.flavour) + ".so)";
    return plan;
  }

  std::vector<std::pair<std::string, std::string>> env = {
      {"LD_PRELOAD", PreloadValue(plan.runtime, probe)}};
  env.insert(env.end(), request.rank_env.begin(), request.rank_env.end());
  plan.argv.push_back(request.command[0]);
  for (const auto& [name, value] : env) {
    switch (plan.launcher) {
      case LauncherKind::kHydra:
        plan.argv.insert(plan.argv.end(), {"-genv", name, value});
        break;
      case LauncherKind::kOpenMpi:
        plan.argv.insert(plan.argv.end(), {"-x", name + "=" + value});
        break;
      case LauncherKind::kDirect:
        plan.env.emplace_back(name, value);
        break;
    }
  }
  // Open MPI's monitoring components count messages after collectives are broken into
  // point-to-point ones; the runtime reads them through MPI_T when they are enabled.
  if (request.monitor && plan.flavour == Flavour::kOpenMpi &&
      !SetsPmlMonitoring(request.command, probe)) {
    if (plan.launcher == LauncherKind::kOpenMpi) {
      plan.argv.insert(plan.argv.end(), {"--mca", "pml_monitoring_enable", "1"});
    } else if (plan.launcher == LauncherKind::kDirect) {
      plan.env.emplace_back("OMPI_MCA_pml_monitoring_enable", "1");
    }
  }
  plan.argv.insert(plan.argv.end(), request.command.begin() + 1, request.command.end());
  plan.ok = true;
  return plan;
}

}  // namespace mpidbg::launch
