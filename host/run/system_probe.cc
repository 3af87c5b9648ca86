// system_probe.cc — LaunchProbe over the real file system and environment.
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/run/elf_needed.h"
#include "host/run/launch_plan.h"

namespace mpidbg::launch {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// Like execvp's search: a word with a slash is a path, others are looked up on PATH.
std::string ResolveExecutable(const std::string& word) {
  if (word.find('/') != std::string::npos) return IsExecutableFile(word) ? RealPath(word) : "";
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + word;
    if (IsExecutableFile(candidate)) return RealPath(candidate);
    start = end + 1;
  }
  return "";
}

Flavour FlavourOfProgram(const std::string& path) {
  std::vector<std::string> needed;
  std::string error;
  if (!ReadNeededLibraries(path, &needed, &error)) return Flavour::kUnknown;
  return FlavourFromNeeded(needed);
}

}  // namespace

LaunchProbe SystemProbe(std::vector<std::string> runtime_dirs) {
  LaunchProbe probe;
  probe.resolve_executable = ResolveExecutable;
  probe.flavour_of_program = FlavourOfProgram;
  probe.runtime_library = [dirs = std::move(runtime_dirs)](Flavour f) -> std::string {
    const std::string name = std::string("libmpidbg_rt_") + FlavourName(f) + ".so";
    for (const std::string& dir : dirs) {
      const std::string candidate = dir + "/" + name;
      if (access(candidate.c_str(), R_OK) == 0) return RealPath(candidate);
    }
    return "";
  };
  probe.getenv = [](const std::string& name) -> std::string {
    const char* v = getenv(name.c_str());
    return v ? v : "";
  };
  return probe;
}

}  // namespace mpidbg::launch
