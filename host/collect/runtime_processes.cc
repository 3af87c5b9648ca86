// runtime_processes.cc — scanning /proc for the runtime's library.
#include "host/collect/runtime_processes.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>

namespace mpidbg::host {
namespace {

constexpr const char* kRuntimeLibraryPrefix = "libmpidbg_rt";
// A process maps a few hundred files; a maps file longer than this is not read further.
constexpr std::size_t kMaxMapsLines = 1 << 16;

bool MapsRuntime(const std::string& maps_path) {
  std::ifstream maps(maps_path);
  std::string line;
  for (std::size_t n = 0; n < kMaxMapsLines && std::getline(maps, line); ++n) {
    std::size_t slash = line.rfind('/');
    if (slash == std::string::npos) continue;
    if (line.compare(slash + 1, std::char_traits<char>::length(kRuntimeLibraryPrefix),
                     kRuntimeLibraryPrefix) == 0 &&
        line.find(".so", slash) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool AllDigits(const char* s) {
  if (*s == '\0') return false;
  for (; *s != '\0'; ++s) {
    if (std::isdigit(static_cast<unsigned char>(*s)) == 0) return false;
  }
  return true;
}

// An environment is a few kilobytes; one longer than this is not read further.
constexpr std::size_t kMaxEnvironBytes = std::size_t{1} << 20;

}  // namespace

std::string SlurmAllocationOf(int64_t pid, const std::string& proc) {
  std::ifstream in(proc + "/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string job, step;
  std::string entry;
  std::size_t read = 0;
  while (read < kMaxEnvironBytes && std::getline(in, entry, '\0')) {
    read += entry.size() + 1;
    auto value = [&entry](const char* name) -> const char* {
      std::size_t n = std::char_traits<char>::length(name);
      return entry.compare(0, n, name) == 0 && entry.size() > n && entry[n] == '='
                 ? entry.c_str() + n + 1
                 : nullptr;
    };
    if (const char* v = value("SLURM_JOB_ID")) job = v;
    if (const char* v = value("SLURM_JOBID"); v != nullptr && job.empty()) job = v;
    if (const char* v = value("SLURM_STEP_ID")) step = v;
    if (const char* v = value("SLURM_STEPID"); v != nullptr && step.empty()) step = v;
  }
  // Only numbers are Slurm's ids; anything else is not believed.
  auto number = [](const std::string& t) {
    return !t.empty() && t.size() <= 20 && AllDigits(t.c_str());
  };
  if (!number(job)) return "";
  return number(step) ? job + "." + step : job;
}

bool OtherSlurmAllocation(int64_t pid, const std::string& wanted, const std::string& proc) {
  std::size_t dot = wanted.find('.');
  std::string job = wanted.substr(0, dot);
  std::string step = dot == std::string::npos ? "" : wanted.substr(dot + 1);
  if (job.empty() || job.size() > 20 || !AllDigits(job.c_str()) ||
      (dot != std::string::npos && (step.empty() || !AllDigits(step.c_str())))) {
    return false;  // not a Slurm id: a launcher's job id, matched by the launch record
  }
  std::string allocation = SlurmAllocationOf(pid, proc);
  return !allocation.empty() && allocation.substr(0, allocation.find('.')) != job;
}

std::vector<int64_t> RuntimeProcesses(const std::string& proc) {
  std::vector<int64_t> pids;
  DIR* dir = opendir(proc.c_str());
  if (dir == nullptr) return pids;
  const int64_t self = getpid();
  while (dirent* e = readdir(dir)) {
    if (!AllDigits(e->d_name)) continue;
    int64_t pid = std::strtoll(e->d_name, nullptr, 10);
    if (pid <= 0 || pid == self) continue;
    // A process that ends meanwhile, or whose maps we may not read, is simply not listed.
    if (MapsRuntime(proc + "/" + e->d_name + "/maps")) pids.push_back(pid);
  }
  closedir(dir);
  std::sort(pids.begin(), pids.end());
  return pids;
}

bool JobIdMatches(const std::string& recorded, const std::string& wanted) {
  if (recorded.empty() || wanted.empty()) return false;
  if (recorded == wanted) return true;
  // Slurm's form "JOB.STEP": the job alone names every step (numbers only, as Slurm's).
  bool number = std::all_of(wanted.begin(), wanted.end(),
                            [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  return number && recorded.size() > wanted.size() &&
         recorded.compare(0, wanted.size(), wanted) == 0 && recorded[wanted.size()] == '.';
}

}  // namespace mpidbg::host
