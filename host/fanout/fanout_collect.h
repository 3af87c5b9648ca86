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

// What every node reader runs: `MPIDBG collect --framed [--plugin PLUGIN] EXTRA...`
// and the targets of its node (`--job` through srun, `--pids` through a remote shell).
struct ReaderArgs {
  std::string mpidbg;               // the mpidbg the nodes run ("": this executable's path)
  std::string plugin;               // "" for the default
  std::vector<std::string> extra;   // e.g. {"--content", "monitor"}
};

// The reader's words up to its targets.
std::vector<std::string> ReaderCommandWords(const ReaderArgs& reader);

struct FanoutRequest {
  std::string slurm;          // JOBID[.STEP], or
  int64_t launcher = 0;       // a running launcher's pid
  std::string remote_shell;   // a --remote-shell template, "" for ssh
  ReaderArgs reader;
  double timeout_seconds = 60;
};

// The readers of one fan-out and the hosts whose records must come. A launcher's
// ranks on this host are no node reader's: the caller reads them (as --pids would).
struct FanoutPlan {
  std::vector<RemoteRead> reads;
  std::vector<std::string> hosts;
  std::vector<int64_t> local_pids;  // rank order
};

// --slurm: the step's nodes from scontrol and one `collect --job ID` per node through
// srun. --launcher: the process table split by host, one `collect --pids` per other
// host through the remote shell. The fan-out phase is started on `clock` when the
// plan has readers; a launcher with every rank on this host gives none.
Result<FanoutPlan> PlanFanout(const FanoutRequest& request, PhaseClock& clock);

// Runs the plan's readers until every host's record has come or `timeout_seconds`
// passed, each record read through `sinks` as its lines arrive; ends the fan-out phase
// at the first frame and reports the collection and merge phases. One summary per
// node: complete, or why not (also named on stderr, and progress shown, unless `clock`
// is quiet).
std::vector<NodeRecordSummary> CollectFromReaders(const FanoutPlan& plan, double timeout_seconds,
                                                  PhaseClock& clock, const NodeRecordSinks& sinks);

// The same for snapshot records (`job`): every rank read, or failed.
struct FanoutResult {
  std::vector<model::ProcessSnapshot> snaps;  // every rank read (and each failed one)
  std::vector<NodeRecordSummary> nodes;       // one per node: complete, or why not
};
FanoutResult CollectSnapshots(const FanoutPlan& plan, double timeout_seconds, PhaseClock& clock);

// The path of this mpidbg executable, what readers run unless told otherwise.
std::string ThisExecutable();

}  // namespace mpidbg::host
