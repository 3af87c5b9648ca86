// slurm_step.h — where a Slurm job or step runs, and the srun command that starts one
// node reader on each of its nodes as a step of its own inside the allocation
// (`--overlap`: it shares the job's resources instead of waiting for them).
#pragma once

#include <string>
#include <vector>

#include "host/fanout/reader_processes.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct SlurmTarget {
  std::string job;   // "12"
  std::string step;  // "0", or "" for the whole job
  std::string id() const { return step.empty() ? job : job + "." + step; }
};

// "JOBID" or "JOBID.STEP", both numbers.
Result<SlurmTarget> ParseSlurmTarget(const std::string& text);

// The nodes of the running job (or of its step), from `scontrol show job|step` and
// `scontrol show hostnames`, each bounded by `timeout_seconds`.
Result<std::vector<std::string>> SlurmNodes(const SlurmTarget& target, double timeout_seconds);

// The text after "Key=" in scontrol's one-line output, "" when absent.
std::string ScontrolField(const std::string& line, const std::string& key);

// srun --overlap --jobid=J --nodes=N --ntasks-per-node=1 --nodelist=... then `reader`
// (the mpidbg command and its `collect ...` arguments).
ReaderCommand SrunReaders(const SlurmTarget& target, const std::vector<std::string>& nodes,
                          const std::vector<std::string>& reader);

}  // namespace mpidbg::host
