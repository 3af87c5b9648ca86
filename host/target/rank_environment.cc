// rank_environment.cc — the launcher's rank variables of a live process or a core.
#include "host/target/rank_environment.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <iterator>

#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

constexpr std::size_t kMaxProcEnviron = 1 << 20;

struct RankVariables {
  const char* rank;
  const char* size;  // nullptr: this launcher's family names no size beside the rank
};

constexpr RankVariables kVariables[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                        {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
                                        {"PMI_RANK", "PMI_SIZE"},
                                        {"SLURM_PROCID", "SLURM_NTASKS"}};

// The value of NAME in `environment`, nullptr when absent.
const std::string* Lookup(const std::vector<std::string>& environment, const char* name,
                          std::string* value) {
  const std::string prefix = std::string(name) + "=";
  for (const std::string& entry : environment) {
    if (entry.compare(0, prefix.size(), prefix) == 0) {
      *value = entry.substr(prefix.size());
      return value;
    }
  }
  return nullptr;
}

// A non-negative int, nothing else: "3" yes, "3x", "-1", "" and 2^40 no.
bool ParseCount(const std::string& text, int* out) {
  if (text.empty() || text.size() > 10) return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < 0 || v > INT_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}


// The C library's environ as the core holds it: a 64-bit native pointer to a
// NULL-terminated array of pointers (the host's own ABI, as the unwinder assumes).
std::vector<std::string> CoreEnvironment(OpenedTarget& target) {
  std::optional<uint64_t> symbol = target.symbols().FindSymbol("__environ");
  if (!symbol) symbol = target.symbols().FindSymbol("environ");
  if (!symbol) return {};
  uint64_t array = 0;
  if (!target.memory().Read(TargetAddr(*symbol), sizeof array, &array).ok() || array == 0) return {};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kMaxEnvironmentEntries; ++i) {
    TargetAddr slot;
    if (!TargetAddr(array).Advance(i * sizeof(uint64_t), &slot)) break;
    uint64_t entry = 0;
    if (!target.memory().Read(slot, sizeof entry, &entry).ok() || entry == 0) break;
    std::string text;
    if (!target.memory().ReadCString(TargetAddr(entry), kMaxEnvironmentEntry, &text).ok()) continue;
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace

RankFromEnvironment RankOfEnvironment(const std::vector<std::string>& environment) {
  RankFromEnvironment out;
  for (const RankVariables& v : kVariables) {
    std::string text;
    int rank = -1;
    if (Lookup(environment, v.rank, &text) == nullptr || !ParseCount(text, &rank)) continue;
    int size = 0;
    if (v.size != nullptr && Lookup(environment, v.size, &text) != nullptr &&
        ParseCount(text, &size) && rank < size) {
      out.size = size;
    }
    out.rank = rank;
    out.from = v.rank;
    return out;
  }
  return out;
}

std::vector<std::string> TargetEnvironment(OpenedTarget& target) {
  if (target.source() == "live") return LiveEnvironment(target.pid());
  return CoreEnvironment(target);
}

std::vector<std::string> LiveEnvironment(int64_t pid) {
  return ProcStrings(pid, "environ", kMaxProcEnviron, kMaxEnvironmentEntries);
}

bool NamedByMpiLauncher(const RankFromEnvironment& rank) {
  return rank.rank >= 0 && !rank.from.empty() && rank.from != "SLURM_PROCID";
}

}  // namespace mpidbg::host
