// launcher_hosts.h — a launcher's ranks split by where they run: the pids on this host,
// read here, and those of every other host, read there by a node reader.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/util/status.h"

namespace mpidbg::host {

struct LauncherRanks {
  std::vector<int64_t> local_pids;                          // rank order
  std::map<std::string, std::vector<int64_t>> remote_pids;  // host -> pids, rank order
  int ranks = 0;
};

// From the live launcher's ranks (proctable/launcher_ranks.h).
Result<LauncherRanks> SplitLauncherRanks(int64_t launcher_pid);

}  // namespace mpidbg::host
