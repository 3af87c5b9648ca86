// cmd_job.cc — `mpidbg job`: every rank read, joined by the job analysis, printed as
// text or JSON, the wait-for graph optionally drawn as DOT or SVG, the whole job as an
// HTML page.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <iostream>
#include <utility>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/cli/target_list_options.h"
#include "host/fanout/fanout_collect.h"
#include "host/fanout/fanout_options.h"
#include "host/fanout/phase_clock.h"
#include "host/job/job_analysis.h"
#include "host/job/job_html.h"
#include "host/job/job_inputs.h"
#include "host/job/progress.h"
#include "host/page/graphviz_svg.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg job (--pids P,P,... | --launcher PID | --cores CORE [CORE ...] [--exe FILE] |\n"
    "                   --slurm JOBID[.STEP] | --snapshots DIR | --nodes RECORD [RECORD ...])\n"
    "                  [--plugin PATH] [--json] [--dot FILE] [--svg FILE] [--html FILE]\n"
    "                  [--confirm SECONDS]\n"
    "                  [--remote-mpidbg PATH] [--remote-shell CMD] [--timeout SECONDS]\n"
    "Reads every rank of a job and explains what it waits for: per-rank state, the\n"
    "wait-for graph, deadlocks and hints. When live ranks look deadlocked they are read\n"
    "again after --confirm seconds (default 1, 0 to skip); a rank that made MPI calls\n"
    "in between is progressing, not stuck. A job not started under `mpidbg run` is read\n"
    "from its stacks (the reduced view): each rank's MPI call, classes, 'HUNG' when no\n"
    "stack moved between the two reads. --launcher takes the ranks from the MPIR\n"
    "process table of a running mpiexec (Open MPI's), or where it keeps none (MPICH's\n"
    "Hydra) from the processes below it on this host that name an MPI rank and, on\n"
    "other hosts, by the job id of the proxies it started there through ssh.\n"
    "--nodes joins node records written by `mpidbg collect` (one per node, - for\n"
    "standard input); a record cut short or unreadable marks the verdict incomplete.\n"
    "Ranks on other nodes: --slurm runs `mpidbg collect` on every node of the job (or\n"
    "step) through `srun --overlap`; --launcher reaches the other hosts of its ranks\n"
    "through --remote-shell (default 'ssh -o BatchMode=yes {host}'; {hosts} for one\n"
    "command over all, e.g. 'pdsh -w {hosts}'). The readers run --remote-mpidbg (default:\n"
    "this executable's path); a node that fails or has not answered after --timeout\n"
    "seconds (default 60) is named and the verdict marked incomplete.\n"
    "--dot and --svg draw who waits for whom between rank classes (--svg runs Graphviz's\n"
    "dot). --html writes one self-contained page (opens offline in any browser): the\n"
    "verdict, the rank classes as a tree, the waits drawn, unmatched messages, hints and\n"
    "each rank's detail on demand.\n";

struct JobOptions {
  std::vector<host::TargetSpec> targets;
  TargetListOptions fanout;  // --slurm, --launcher and how remote readers run
  std::string snapshots_dir;
  std::vector<std::string> node_records;
  bool json = false;
  bool help = false;
  std::string dot_file;
  std::string svg_file;
  std::string html_file;
  double confirm_seconds = 1.0;
};

host::Result<JobOptions> ParseJobOptions(const std::vector<std::string>& args) {
  JobOptions o;
  TargetListOptions targets;
  for (ArgCursor c(args); c.Next();) {
    const std::string& a = c.arg();
    auto value = [&c](std::string* out) { return c.Value(out); };
    std::string v;
    host::Status error;
    if (c.Common(&o.json, &o.help)) {
      continue;
    } else if (TakeTargetList(c, &targets, &error)) {
      if (!error.ok()) return error;
    } else if (a == "--snapshots") {
      if (!value(&o.snapshots_dir)) return host::Status::Usage("--snapshots needs a directory");
    } else if (a == "--nodes") {
      // "-" (standard input) is a value here, not an option.
      while (c.HasValue() && c.Value(&v)) o.node_records.push_back(v);
      if (o.node_records.empty()) return host::Status::Usage("--nodes needs at least one record");
    } else if (a == "--dot") {
      if (!value(&o.dot_file)) return host::Status::Usage("--dot needs a file");
    } else if (a == "--svg") {
      if (!value(&o.svg_file)) return host::Status::Usage("--svg needs a file");
    } else if (a == "--html") {
      if (!value(&o.html_file)) return host::Status::Usage("--html needs a file");
    } else if (a == "--confirm") {
      char* end = nullptr;
      if (!value(&v) || (o.confirm_seconds = std::strtod(v.c_str(), &end), *end != '\0') ||
          o.confirm_seconds < 0 || o.confirm_seconds > 600) {
        return host::Status::Usage("--confirm needs a number of seconds between 0 and 600");
      }
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (o.help) return o;
  int sources = TargetListSources(targets) + (o.snapshots_dir.empty() ? 0 : 1) +
                (o.node_records.empty() ? 0 : 1);
  if (sources != 1 || !targets.host_pids.empty()) {
    return host::Status::Usage(
        "give exactly one of --pids, --launcher, --cores, --slurm, --snapshots or --nodes");
  }
  o.fanout = targets;
  if (HasFanoutOptions(targets) && targets.slurm.empty() && targets.launcher == 0) {
    return host::Status::Usage("--remote-mpidbg, --remote-shell and --timeout go with --slurm or "
                               "--launcher");
  }
  if (!targets.slurm.empty() || targets.launcher != 0) return o;  // read when run
  auto specs = TargetsFrom(targets);
  if (!specs.ok()) return specs.status();
  o.targets = std::move(specs.value());
  return o;
}

bool HasLiveTargets(const JobOptions& o) {
  for (const host::TargetSpec& t : o.targets) {
    if (t.core.empty() && t.pid > 0) return true;
  }
  return false;
}

host::Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) return host::Status::Usage("cannot write " + path);
  return host::Status::Ok();
}

// --slurm: every node through srun. --launcher: the process table's ranks on this host
// become targets (read by the caller), those on other hosts are read there. `*plan`
// keeps the readers for a second read.
host::Result<host::FanoutResult> ReadAcrossNodes(JobOptions& o, host::PhaseClock& clock,
                                                 host::FanoutPlan* plan) {
  auto planned = host::PlanFanout(host::FanoutRequestOf(o.fanout, {}), clock);
  if (!planned.ok()) return planned.status();
  *plan = std::move(planned.value());
  for (host::TargetSpec& spec : host::LocalTargetsOf(*plan, o.fanout.plugin)) {
    o.targets.push_back(std::move(spec));
  }
  if (plan->reads.empty()) return host::FanoutResult{};
  return host::CollectSnapshots(*plan, o.fanout.timeout_seconds, clock);
}

// The job read again as the first read read it: this host's targets, and the same node
// readers once more (their phases timed as one, "second read").
std::vector<model::ProcessSnapshot> ReadAgain(const JobOptions& o, const host::FanoutPlan& plan,
                                              host::PhaseClock& clock) {
  std::vector<model::ProcessSnapshot> again =
      host::ReadJobTargets(o.targets, nullptr, nullptr, /*report=*/false);
  if (plan.reads.empty()) return again;
  clock.Start("second read");
  host::PhaseClock quiet(nullptr);
  host::FanoutResult remote = host::CollectSnapshots(plan, o.fanout.timeout_seconds, quiet);
  again.insert(again.end(), std::make_move_iterator(remote.snaps.begin()),
               std::make_move_iterator(remote.snaps.end()));
  clock.End(std::to_string(again.size()) + " ranks");
  return again;
}

}  // namespace

int JobCommand(const std::vector<std::string>& args) {
  bool json_requested = false;
  for (const std::string& a : args) json_requested = json_requested || a == "--json";
  auto options = ParseJobOptions(args);
  if (!options.ok()) return ReportFailure(options.status(), json_requested);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  std::vector<model::ProcessSnapshot> snaps;
  std::vector<host::Status> failures;
  std::vector<bool> not_mpi;  // per target of options->targets
  std::vector<host::NodeRecordSummary> nodes;
  host::PhaseClock clock;
  host::FanoutPlan plan;
  if (!options->fanout.slurm.empty() || options->fanout.launcher != 0) {
    auto read = ReadAcrossNodes(*options, clock, &plan);
    if (!read.ok()) return ReportFailure(read.status(), options->json);
    // The launcher's ranks on this host are read here, as --pids reads them, and come
    // first, in the order of their targets.
    snaps = host::ReadJobTargets(options->targets, &failures, &not_mpi);
    snaps.insert(snaps.end(), std::make_move_iterator(read->snaps.begin()),
                 std::make_move_iterator(read->snaps.end()));
    nodes = std::move(read->nodes);
  } else if (!options->node_records.empty()) {
    snaps = host::ReadNodeRecords(options->node_records, &nodes);
  } else if (!options->snapshots_dir.empty()) {
    auto read = host::ReadSnapshotDirectory(options->snapshots_dir);
    if (!read.ok()) return ReportFailure(read.status(), options->json);
    snaps = std::move(read.value());
  } else {
    snaps = host::ReadJobTargets(options->targets, &failures, &not_mpi);
  }
  bool any_readable = false;
  for (const model::ProcessSnapshot& s : snaps) {
    any_readable = any_readable || s.process.state != "unreadable";
  }
  if (!any_readable) {
    // Every rank failed: the first failure's kind decides the exit status (e.g. 1 when
    // the job has no MPI debugging support at all); the error document says why each
    // target failed (one snapshot per target, in order).
    host::ErrorKind kind = failures.empty() ? host::ErrorKind::kUnreadable : failures[0].kind();
    std::vector<TargetFailure> why;
    for (const host::NodeRecordSummary& n : nodes) {
      if (!n.status.ok()) why.push_back({"node record " + n.input, n.status});
    }
    for (std::size_t i = 0; i < snaps.size() && i < options->targets.size(); ++i) {
      const model::ProcessInfo& p = snaps[i].process;
      why.push_back({host::TargetName(options->targets[i]),
                     host::Status::Error(static_cast<host::ErrorKind>(p.error_kind), p.error)});
    }
    return ReportFailure(host::Status::Error(kind, "no rank of the job could be read"),
                         options->json, why);
  }
  // A launcher or a shell among the targets is no rank: left out of the job (and of its
  // second read) rather than counted as a rank that could not be read.
  std::vector<job::LeftOutProcess> left_out =
      host::LeaveOutNonMpi(not_mpi, &options->targets, &snaps);
  const bool fanned_out = !plan.reads.empty();
  if (fanned_out) clock.Start("analysis");
  job::JobReport report = job::Analyze(snaps);
  if (fanned_out) clock.End(std::to_string(snaps.size()) + " ranks");
  // The reduced view reads again before it calls ranks all blocked in MPI hung; ranks on
  // other nodes are read again by the same node readers.
  const bool stacks_hang = report.view == "stacks" && report.stacks.all_blocked;
  if ((report.deadlock.detected || stacks_hang) && (fanned_out || HasLiveTargets(*options)) &&
      options->confirm_seconds > 0) {
    // A second read tells stuck ranks from ranks caught in the middle of an exchange.
    usleep(static_cast<useconds_t>(options->confirm_seconds * 1e6));
    std::vector<model::ProcessSnapshot> again = ReadAgain(*options, plan, clock);
    std::vector<int64_t> moved;
    const std::vector<int> moved_ranks = job::MarkProgressingRanks(snaps, &again, &moved);
    report = job::Analyze(again);
    if (report.view == "stacks") {
      report.stacks.second_read_seconds = options->confirm_seconds;
      // By world rank (pids of different nodes may be equal); by pid where the rank
      // is not known.
      for (const job::RankReport& r : report.ranks) {
        const bool by_rank = r.rank >= 0 && std::find(moved_ranks.begin(), moved_ranks.end(),
                                                      r.rank) != moved_ranks.end();
        const bool by_pid = r.rank < 0 && std::find(moved.begin(), moved.end(), r.pid) != moved.end();
        if (by_rank || by_pid) report.stacks.progressing.push_back(r.rank);
      }
    }
  }
  report.left_out = std::move(left_out);
  for (const host::NodeRecordSummary& n : nodes) {
    if (n.status.ok()) continue;
    report.unreadable_inputs.push_back({n.input, n.hostname, n.ranks_read, n.status.message()});
  }
  if (!report.unreadable_inputs.empty()) {
    // A rank absent from the records was most likely on the node not read in full.
    for (job::UnreadRank& u : report.unread) {
      if (u.pid == 0) u.reason = "not read: in no node record read in full";
    }
  }
  if (!options->dot_file.empty()) {
    host::Status st = WriteFile(options->dot_file, job::ToDot(report));
    if (!st.ok()) return ReportFailure(st, options->json);
  }
  if (!options->svg_file.empty()) {
    auto svg = page::DotToSvg(job::ToDot(report));
    if (!svg.ok()) {
      return ReportFailure(host::Status::Usage(svg.status().message() + " to draw " +
                                               options->svg_file),
                           options->json);
    }
    host::Status st = WriteFile(options->svg_file, svg.value());
    if (!st.ok()) return ReportFailure(st, options->json);
  }
  if (!options->html_file.empty()) {
    // The page stands without its picture: without Graphviz it says so where it would be.
    job::WaitPicture picture;
    if (report.view != "stacks") {
      auto svg = page::DotToSvg(job::ToDot(report));
      if (svg.ok()) {
        picture.svg = std::move(svg.value());
      } else {
        picture.no_picture = svg.status().message();
      }
    }
    host::Status st = WriteFile(options->html_file, job::ToHtml(report, picture));
    if (!st.ok()) return ReportFailure(st, options->json);
  }
  if (options->json) {
    std::cout << job::ToJson(report).dump(1) << std::endl;
  } else {
    std::cout << job::ToText(report);
  }
  // A script must not read "no deadlock" in a verdict on part of the job.
  return report.Incomplete() ? kExitIncomplete : 0;
}

}  // namespace mpidbg::cli
