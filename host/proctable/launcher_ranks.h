// launcher_ranks.h — what `--launcher PID` means to every command: the ranks of the
// live launcher's job, from its MPIR process table (Open MPI's orterun: every host), or,
// where it keeps none (MPICH's Hydra), its descendants on this host that name a rank and
// the proxies it started on other hosts, whose ranks are found there by the job's id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/proctable/mpir_proctable.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct LauncherJob {
  // The process table (every host), or the ranks below the launcher here (host "").
  std::vector<LauncherProcess> ranks;
  // Hydra's proxies on other hosts: the job id their ranks' launch records name
  // (hydra_proxies.h), and the hosts; empty for a launcher with a table.
  std::string remote_job_id;
  std::vector<std::string> remote_hosts;
};

// The launcher's table; or the table of the nearest launcher below it (a wrapper named:
// `timeout`, a batch script's shell, `mpidbg run`); or else its descendants on this host
// (launcher_descendants.h) and its proxies elsewhere (hydra_proxies.h). One line on
// stderr says which, but for the launcher's own table.
// Neither a table, nor ranks below, nor proxies: kNoSupport, every reason in one sentence
// that suggests --pids.
Result<LauncherJob> ReadLauncherRanks(int64_t launcher_pid);

// Its ranks on this host in rank order, and one line on stderr per rank (or, for Hydra,
// per host of ranks) on another host, which is left out. No rank here at all: kNoSupport.
Result<std::vector<int64_t>> LauncherLocalRankPids(int64_t launcher_pid);

}  // namespace mpidbg::host
