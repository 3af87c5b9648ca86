// cmd_leaks.cc — `mpidbg leaks`: the MPI objects and requests a job never freed — from
// the report the runtime wrote at MPI_Finalize (`mpidbg run --leaks`), or those its
// running ranks or their cores hold now — as text or JSON.
#include <cstdio>
#include <iostream>
#include <optional>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/cli/target_list_options.h"
#include "host/leaks/leaks_file.h"
#include "host/leaks/leaks_of_processes.h"
#include "host/snapshot/snapshot_reader.h"
#include "host/util/progress_line.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg leaks (FILE | --pids P,P,... | --cores CORE [CORE ...] [--exe FILE] |\n"
    "                     --launcher PID) [--plugin PATH] [--json]\n"
    "Shows the MPI objects and requests a job never freed, by kind, creating call and\n"
    "(for processes and cores) where the program made them, summed over its ranks.\n"
    "FILE is the mpidbg-leaks.*.json rank 0 writes at MPI_Finalize under `mpidbg run\n"
    "--leaks` (or MPIDBG_LEAKS=1); --pids/--cores/--launcher list what running ranks or\n"
    "their cores hold now and have not freed (yet).\n";

// Every target's snapshot (with its object listing); a target that cannot be read
// fails the command, as `snapshot` would, but for one that is no MPI process at all (a
// launcher among the pids), which is left out with a line on stderr, as `job` does.
host::Result<leaks::LeakReport> LeaksOfTargets(const std::vector<host::TargetSpec>& targets) {
  std::vector<model::ProcessSnapshot> snapshots;
  std::optional<host::Status> left_out;
  bool cores = false;
  host::ProgressLine progress(host::ReadingWhat(targets), targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const host::TargetSpec& t = targets[i];
    progress.Update(i);
    auto snap = host::ReadTarget(t);
    if (!snap.ok() && snap.status().not_mpi()) {
      progress.Clear();
      std::fprintf(stderr, "mpidbg: %s; left out\n", snap.status().message().c_str());
      if (!left_out) left_out = snap.status();
      continue;
    }
    if (!snap.ok()) return snap.status();
    cores = cores || !t.core.empty();
    snapshots.push_back(std::move(snap.value()));
  }
  if (snapshots.empty() && left_out) return *left_out;  // no MPI process among them
  return leaks::LeaksOfSnapshots(snapshots, cores ? "cores" : "processes");
}

}  // namespace

int LeaksCommand(const std::vector<std::string>& args) {
  bool json_requested = false;
  for (const std::string& a : args) json_requested = json_requested || a == "--json";
  JobInputOptions input;
  bool json = false, help = false;
  host::Status st = ParseJobCommandArgs(args, &input, &json, &help,
                                        [](ArgCursor&, host::Status*) { return false; });
  if (help) {
    std::cout << kUsage;
    return 0;
  }
  if (!st.ok()) return ReportFailure(st, json_requested);
  if (!input.targets.slurm.empty() || HasFanoutOptions(input.targets)) {
    return ReportFailure(host::Status::Usage("leaks reads the ranks of this host only (no "
                                             "--slurm or node readers)"),
                         json);
  }
  auto report = LoadJobInput(input, leaks::LoadLeaksFile, LeaksOfTargets);
  if (!report.ok()) return ReportFailure(report.status(), json);
  if (json) {
    std::cout << leaks::LeaksToJson(report.value()).dump(1) << std::endl;
  } else {
    std::cout << leaks::LeaksToText(report.value());
  }
  return 0;
}

}  // namespace mpidbg::cli
