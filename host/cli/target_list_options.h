// target_list_options.h — the one parser of a job's target list (--pids / --cores /
// --launcher with --exe and --plugin) for job, matrix and profile, and the job-wide
// inputs `matrix` and `profile` share: a file the runtime wrote, or a target list.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "host/cli/options.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::cli {

// "--pids P,P" / "--cores C C" / "--launcher PID", with --exe and --plugin; for ranks on
// other nodes "--slurm JOBID[.STEP]" and, with it or --launcher, how the node readers are
// reached (--remote-mpidbg, --remote-shell, --timeout); "--host-pids HOST=P,P" (the
// pids of each host, of which a reader takes its own host's).
struct TargetListOptions {
  std::vector<int64_t> pids;
  std::vector<std::string> cores;
  int64_t launcher = 0;
  std::string exe;
  std::string plugin;
  std::string slurm;
  std::string remote_mpidbg;
  std::string remote_shell;
  double timeout_seconds = 60;
  std::vector<std::pair<std::string, std::vector<int64_t>>> host_pids;
};

// True when a fan-out option was given (--slurm, --remote-*, --timeout): `job`,
// `matrix` and `profile` read ranks on other nodes, `collect` only its own.
bool HasFanoutOptions(const TargetListOptions& t);

// Takes the current argument of `c` when it is one of the target-list options; true if
// taken. A bad value sets `*error`.
bool TakeTargetList(ArgCursor& c, TargetListOptions* t, host::Status* error);

// How many of --pids, --cores, --launcher, --slurm, --host-pids were given (a command wants exactly one
// source of targets).
int TargetListSources(const TargetListOptions& t);

// Builds the target list, pids before cores: the launcher's process table becomes pids
// (those on this host), --host-pids the pids listed for this host. --slurm gives none
// (fanout/ reads the ranks of other nodes).
host::Result<std::vector<host::TargetSpec>> TargetsFrom(const TargetListOptions& o);

struct JobInputOptions {
  std::string file;  // the positional FILE
  TargetListOptions targets;
};

// Takes the current argument of `c` when it is one of the shared ones; true if taken.
// A bad value sets `*error`.
bool TakeJobInput(ArgCursor& c, JobInputOptions* o, host::Status* error);

// Exactly one of FILE, --pids, --cores, --launcher, --slurm; the fan-out options only
// with --slurm or --launcher.
host::Status CheckJobInput(const JobInputOptions& o);

// The arguments of a command that reads a whole job (matrix, profile): --json, --help
// and the job inputs are taken here, any other argument by `take_own(c, &error)`, which
// answers false for one it does not know (a bad value sets `error`). Unless help is
// asked for, the inputs are then checked (CheckJobInput).
host::Status ParseJobCommandArgs(const std::vector<std::string>& args, JobInputOptions* input,
                                 bool* json, bool* help,
                                 const std::function<bool(ArgCursor&, host::Status*)>& take_own);

// The job's model from FILE, `from_file(path)`, or else from the targets the options
// name, `from_targets(specs)`; both answer the same host::Result.
template <typename FromFile, typename FromTargets>
auto LoadJobInput(const JobInputOptions& o, FromFile from_file, FromTargets from_targets)
    -> decltype(from_file(o.file)) {
  if (!o.file.empty()) return from_file(o.file);
  auto targets = TargetsFrom(o.targets);
  if (!targets.ok()) return targets.status();
  return from_targets(targets.value());
}

}  // namespace mpidbg::cli
