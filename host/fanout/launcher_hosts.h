// launcher_hosts.h — a launcher's ranks split by where they run: the pids on this host,
// read here, and those of every other host (by pid, or by job for Hydra's proxies), read
// there by a node reader.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/fanout/remote_shell.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct LauncherRanks {
  std::vector<int64_t> local_pids;  // rank order
  RemoteTargets remote;             // by pid (a process table) or by job (Hydra's proxies)
  bool any_remote() const { return !remote.pids_by_host.empty() || !remote.job_hosts.empty(); }
};

// From the live launcher's ranks (proctable/launcher_ranks.h).
Result<LauncherRanks> SplitLauncherRanks(int64_t launcher_pid);

}  // namespace mpidbg::host
