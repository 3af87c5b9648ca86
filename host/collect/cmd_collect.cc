// cmd_collect.cc — `mpidbg collect`: every rank of a job on this node read as `snapshot`
// reads one, written as one "mpidbg.node/1" record for `job --nodes` to merge.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <utility>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/cli/target_list_options.h"
#include "host/collect/job_processes.h"
#include "host/collect/node_record_schema.h"
#include "host/collect/node_record_writer.h"
#include "host/collect/node_sections.h"
#include "host/collect/runtime_processes.h"
#include "host/fanout/node_frames.h"
#include "host/snapshot/snapshot_reader.h"
#include "host/util/progress_line.h"

#ifndef MPIDBG_VERSION
#define MPIDBG_VERSION "unknown"
#endif

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg collect (--job ID | --pids P,P,... | --cores CORE [CORE ...] [--exe FILE])\n"
    "                      [--plugin PATH] [-o FILE] [--framed]\n"
    "                      [--content snapshot|monitor|profile] [--which accumulated|current]\n"
    "Reads every rank of a job on this node and writes one node record\n"
    "(mpidbg.node/1, JSON Lines) to standard output or FILE, for\n"
    "`mpidbg job --nodes RECORD ...` to join with the records of the other nodes.\n"
    "--job finds the ranks by itself: the processes running under the mpidbg runtime\n"
    "whose launch record names job ID (`metadata.pmi.job_id` of `snapshot --json`:\n"
    "the PMI KVS name or Hydra's port/pgid, Open MPI's job id or PMIx namespace, or\n"
    "Slurm's JOB.STEP, where JOB alone matches every step), or whose environment names\n"
    "the Slurm allocation ID (SLURM_JOB_ID, as for ranks an mpiexec started in it); and,\n"
    "runtime or not, the processes that name an MPI rank in their environment and run\n"
    "in that Slurm allocation or below the Hydra proxy of that port/pgid (read from\n"
    "their stacks when they carry no runtime).\n"
    "--framed cuts the record into short tagged lines (frames) that survive a transport\n"
    "interleaving many nodes' output, as `mpidbg job --slurm` and a launcher's remote\n"
    "readers use it. --host-pids HOST=P,P (repeatable) reads the pids listed for this host.\n"
    "--content chooses what each rank line holds: its snapshot (default, for `job`), its\n"
    "communication counters (monitor, for `matrix`; --which as there) or its MPI-state\n"
    "samples (profile, for `profile`).\n";

struct CollectOptions {
  std::string job;
  std::vector<host::TargetSpec> targets;
  // --job: the candidates their launcher made ranks of the job (job_processes.h), members
  // whatever their launch record says; one that loads no MPI library is no rank.
  std::set<int64_t> launched;
  std::string output;
  std::string content = host::kNodeContentSnapshot;
  std::string which;  // monitor only: "" (accumulated) or accumulated|current
  bool framed = false;
  bool help = false;
};

host::Result<CollectOptions> ParseCollectOptions(const std::vector<std::string>& args) {
  CollectOptions o;
  TargetListOptions targets;
  bool json = false;  // the record is JSON already; --json is accepted and changes nothing
  for (ArgCursor c(args); c.Next();) {
    const std::string& a = c.arg();
    host::Status error;
    if (c.Common(&json, &o.help)) continue;
    if (TakeTargetList(c, &targets, &error)) {
      if (!error.ok()) return error;
    } else if (a == "--job") {
      if (!c.Value(&o.job) || o.job.empty()) return host::Status::Usage("--job needs a job id");
    } else if (a == "--content") {
      if (!c.Value(&o.content) ||
          (o.content != host::kNodeContentSnapshot && o.content != host::kNodeContentMonitor &&
           o.content != host::kNodeContentProfile)) {
        return host::Status::Usage("--content needs snapshot, monitor or profile");
      }
    } else if (a == "--which") {
      if (!c.Value(&o.which) || (o.which != "accumulated" && o.which != "current")) {
        return host::Status::Usage("--which needs accumulated or current");
      }
    } else if (a == "--framed") {
      o.framed = true;
    } else if (a == "-o" || a == "--output") {
      if (!c.Value(&o.output)) return host::Status::Usage("-o needs a file");
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (o.help) return o;
  if (!o.which.empty() && o.content != host::kNodeContentMonitor) {
    return host::Status::Usage("--which goes with --content monitor");
  }
  if (TargetListSources(targets) + (o.job.empty() ? 0 : 1) != 1 || !targets.slurm.empty()) {
    return host::Status::Usage(
        "give exactly one of --job, --pids, --host-pids, --cores or --launcher");
  }
  if (HasFanoutOptions(targets)) {
    return host::Status::Usage("collect reads this node only: no --remote-* or --timeout");
  }
  if (!o.job.empty()) {
    std::set<int64_t> candidates;
    for (int64_t pid : host::RuntimeProcesses()) {
      // A process of another Slurm allocation is no rank of a Slurm job: it is not
      // stopped to be asked (on a shared node, other users' jobs are left alone).
      if (!host::OtherSlurmAllocation(pid, o.job)) candidates.insert(pid);
    }
    for (int64_t pid : host::LauncherJobProcesses(o.job)) {
      candidates.insert(pid);
      o.launched.insert(pid);
    }
    for (int64_t pid : candidates) {
      host::TargetSpec spec;
      spec.pid = pid;
      spec.plugin = targets.plugin;
      o.targets.push_back(spec);
    }
    return o;
  }
  auto specs = TargetsFrom(targets);
  if (!specs.ok()) return specs.status();
  o.targets = std::move(specs.value());
  return o;
}

std::string HostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

struct Failure {
  int64_t pid;
  std::string source;
  host::Status why;
};

// A process whose job could not be told, so no rank: e.g. one another debugger holds;
// or one that is no MPI process at all (Status::not_mpi).
struct Skip {
  int64_t pid;
  host::Status why;
};

}  // namespace

int CollectCommand(const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  auto options = ParseCollectOptions(args);
  if (!options.ok()) return ReportFailure(options.status(), false);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  std::ofstream file;
  if (!options->output.empty()) {
    file.open(options->output, std::ios::out | std::ios::trunc);
    if (!file) return ReportFailure(host::Status::Usage("cannot write " + options->output), false);
  }
  std::ostream& plain = options->output.empty() ? std::cout : file;
  // Framed, the record goes out as short lines tagged with this host's name.
  std::optional<host::FramedOutput> framed;
  if (options->framed) framed.emplace(plain, HostName());
  std::ostream& out = framed ? framed->stream() : plain;

  // Every rank is read before the first line is written, so the header can count them;
  // what this holds is bounded by the ranks of this node.
  const bool snapshots = options->content == host::kNodeContentSnapshot;
  std::vector<model::ProcessSnapshot> ranks;
  host::NodeSections sections(options->content, options->which);
  std::vector<Failure> failures;
  std::vector<Skip> skipped;
  host::ProgressLine progress("reading ranks", options->targets.size());
  std::size_t done = 0;
  for (const host::TargetSpec& spec : options->targets) {
    progress.Update(done++);
    // A snapshot tells the job a candidate of --job belongs to; other content is read
    // apart, from the ranks of the job only.
    host::Status st;
    std::optional<model::ProcessSnapshot> snap;
    if (snapshots || !options->job.empty()) {
      auto read = host::ReadTarget(spec);
      st = read.status();
      if (read.ok()) snap = std::move(read.value());
    }
    const std::string source = spec.core.empty() ? "live" : "core";
    if (!options->job.empty()) {
      // A candidate of --job belongs to the job when its launch record says so, or its
      // launcher made it a rank of the job (job_processes.h). One that cannot be read has
      // no job we know of (it may be another job's rank, held by another debugger): the
      // trailer lists it apart, never as a rank.
      const bool launched = options->launched.count(spec.pid) != 0;
      // A shell or proxy its launcher started for the job (its variables are the rank's):
      // no rank, and nothing to say.
      if (!st.ok() && launched && st.not_mpi()) continue;
      if (!st.ok()) {
        progress.Clear();
        std::fprintf(stderr, "mpidbg: %s (job unknown, skipped): %s\n",
                     host::TargetDescription(spec).c_str(), st.message().c_str());
        skipped.push_back({spec.pid, st});
        continue;
      }
      // The launcher's job, or the Slurm allocation it runs in (an mpiexec inside
      // `salloc` gives its ranks a job id of its own).
      bool member = snap->launch && host::JobIdMatches(snap->launch->job_id, options->job);
      member = member || host::JobIdMatches(host::SlurmAllocationOf(spec.pid), options->job);
      member = member || launched;
      if (!member) continue;
    }
    if (st.ok() && snapshots) {
      ranks.push_back(std::move(*snap));
      continue;
    }
    if (st.ok()) st = sections.Read(spec);
    if (st.ok()) continue;
    progress.Clear();
    std::fprintf(stderr, "mpidbg: %s: %s\n", host::TargetDescription(spec).c_str(),
                 st.message().c_str());
    if (st.not_mpi()) {
      // A launcher or a shell among the pids: no rank, as `job` leaves it out.
      skipped.push_back({spec.pid, st});
      continue;
    }
    failures.push_back({spec.pid, source, st});
  }
  progress.Finish();
  const std::size_t read = snapshots ? ranks.size() : sections.ranks().size();
  if (!options->job.empty() && read == 0 && failures.empty()) {
    std::fprintf(stderr, "mpidbg: no process of job %s on this node\n", options->job.c_str());
  } else if (!options->job.empty() && read == 0) {
    std::fprintf(stderr, "mpidbg: no rank of job %s on this node could be read (%zu tried)\n",
                 options->job.c_str(), failures.size());
  }

  host::NodeRecordWriter writer(out);
  const host::NodeRecordHeader header{HostName(), options->job,
                                      static_cast<int>(read + failures.size()), MPIDBG_VERSION};
  if (snapshots) {
    writer.Header(header);
  } else {
    writer.Header(header, options->content, sections.JobObject());
  }
  for (const model::ProcessSnapshot& snap : ranks) writer.Rank(snap);
  for (const nlohmann::json& rank : sections.ranks()) writer.Section(rank);
  for (const Failure& f : failures) writer.Failure(f.pid, f.source, f.why);
  for (const Skip& s : skipped) writer.Skipped(s.pid, s.why);
  writer.Trailer(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (framed) framed->Close();
  if (!out || !plain) {
    return ReportFailure(host::Status::Usage("cannot write " + (options->output.empty()
                                                                     ? std::string("standard output")
                                                                     : options->output)),
                         false);
  }
  return 0;
}

}  // namespace mpidbg::cli
