// fanout_collect.h — a job read on many nodes at once: the readers started through an
// engine that already reaches the nodes (srun inside the allocation, or a remote shell
// per host of a launcher's ranks), their framed records merged as they arrive, each
// phase timed on stderr and progress shown for large jobs. A node that fails, times
// out or sends garbage is named with why; it never stops the others.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/fanout/phase_clock.h"
#include "host/fanout/remote_shell.h"
#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

// Jobs of this many ranks or more show how many ranks have been read.
inline constexpr int kProgressRanks = 1000;

struct FanoutResult {
  std::vector<model::ProcessSnapshot> snaps;  // every rank read (and each failed one)
  std::vector<NodeRecordSummary> nodes;       // one per node: complete, or why not
};

// Runs `reads` until every node's record has come or `timeout_seconds` passed, merging
// frames as they arrive. `expected` are the hosts whose records must come; `clock` has
// the fan-out phase running and ends it at the first frame.
FanoutResult CollectFromReaders(const std::vector<RemoteRead>& reads,
                                const std::vector<std::string>& expected, double timeout_seconds,
                                PhaseClock& clock);

// `job --slurm JOBID[.STEP]`: the step's nodes from scontrol, one `mpidbg collect --job
// ID --framed` per node through srun.
Result<FanoutResult> CollectSlurm(const std::string& target, const std::string& mpidbg,
                                  const std::string& plugin, double timeout_seconds,
                                  PhaseClock& clock);

// The path of this mpidbg executable, what readers run unless told otherwise.
std::string ThisExecutable();

}  // namespace mpidbg::host
