// monitor_plugin.h — the monitoring model from live processes or cores, through the
// plugin's mpidbg_monitor_* functions (mpidbg_ext.h, version 3): the same JobMonitor as
// the file gives, assembled from each rank's own block.
#pragma once

#include <vector>

#include "host/extensions/extension_session.h"
#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

// One rank's counters; `which` is MPIDBG_MONITOR_ACCUMULATED or _CURRENT. The world
// size the block was made for comes back in `world_size`. No support (exit status 1)
// when the DLL has no monitoring functions or monitoring never started in the process.
host::Result<RankMonitor> ReadRankMonitor(extensions::ExtensionTarget& t, int which,
                                          int* world_size);

// One target's counters and the world size its block was made for (a node reader's
// rank, `collect --content monitor`). A target without a world rank is an error.
struct TargetMonitor {
  RankMonitor rank;
  int world_size = 0;
};
host::Result<TargetMonitor> ReadTargetMonitor(const host::TargetSpec& spec, int which);

// Every target read; a target that cannot be read is named on stderr and left out (its
// rank shows "no data"). Fails only when no target could be read (the first failure's
// kind decides the exit status).
host::Result<JobMonitor> ReadJobMonitor(const std::vector<host::TargetSpec>& targets, int which);

}  // namespace mpidbg::monitor
