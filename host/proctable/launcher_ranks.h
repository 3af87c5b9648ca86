// launcher_ranks.h — what `--launcher PID` means to every command: the ranks of the
// live launcher's job, from its MPIR process table (Open MPI's orterun: every host), or,
// where it keeps none (MPICH's Hydra), its descendants on this host that name a rank.
#pragma once

#include <cstdint>
#include <vector>

#include "host/proctable/mpir_proctable.h"
#include "host/util/status.h"

namespace mpidbg::host {

// The launcher's table, or else its descendants on this host (launcher_descendants.h),
// with one line on stderr saying so and that ranks on other hosts are not found that
// way. Neither: kNoSupport, both reasons in one sentence that suggests --pids.
Result<std::vector<LauncherProcess>> ReadLauncherRanks(int64_t launcher_pid);

// Its ranks on this host in rank order, and one line on stderr per rank on another
// host, which is left out.
Result<std::vector<int64_t>> LauncherLocalRankPids(int64_t launcher_pid);

}  // namespace mpidbg::host
