// fanout_collect.cc — readers run, frames merged, progress and phases reported.
#include "host/fanout/fanout_collect.h"

#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <set>
#include <utility>

#include "host/fanout/node_stream_merge.h"
#include "host/fanout/reader_processes.h"
#include "host/fanout/launcher_hosts.h"
#include "host/fanout/slurm_step.h"
#include "host/model/group_table.h"

namespace mpidbg::host {
namespace {

// "12 of 4096 ranks read" on one line of stderr, rewritten at most once a second.
class Progress {
 public:
  void Show(int read, int announced) {
    if (announced < kProgressRanks || read == last_) return;
    auto now = std::chrono::steady_clock::now();
    if (now < next_) return;
    next_ = now + std::chrono::seconds(1);
    last_ = read;
    std::fprintf(stderr, "\rmpidbg: %d of %d ranks read", read, announced);
    std::fflush(stderr);
    shown_ = true;
  }
  void Done(int read, int announced) {
    if (!shown_ && announced < kProgressRanks) return;
    std::fprintf(stderr, "\rmpidbg: %d of %d ranks read\n", read, announced);
  }

 private:
  int last_ = -1;
  bool shown_ = false;
  std::chrono::steady_clock::time_point next_{};
};

}  // namespace

std::string ThisExecutable() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "mpidbg";
  return std::string(buf, static_cast<std::size_t>(n));
}

std::vector<std::string> ReaderCommandWords(const ReaderArgs& r) {
  std::vector<std::string> words = {r.mpidbg.empty() ? ThisExecutable() : r.mpidbg, "collect",
                                    "--framed"};
  if (!r.plugin.empty()) words.insert(words.end(), {"--plugin", r.plugin});
  words.insert(words.end(), r.extra.begin(), r.extra.end());
  return words;
}

Result<FanoutPlan> PlanFanout(const FanoutRequest& request, PhaseClock& clock) {
  FanoutPlan plan;
  std::vector<std::string> reader = ReaderCommandWords(request.reader);
  if (!request.slurm.empty()) {
    auto target = ParseSlurmTarget(request.slurm);
    if (!target.ok()) return target.status();
    clock.Start("fan-out");
    auto nodes = SlurmNodes(*target, request.timeout_seconds);
    if (!nodes.ok()) return nodes.status();
    reader.insert(reader.end(), {"--job", target->id()});
    RemoteRead read;
    read.command = SrunReaders(*target, *nodes, reader);
    read.hosts = *nodes;
    plan.reads.push_back(std::move(read));
    plan.hosts = std::move(nodes.value());
    return plan;
  }
  auto ranks = SplitLauncherRanks(request.launcher);
  if (!ranks.ok()) return ranks.status();
  plan.local_pids = std::move(ranks->local_pids);
  if (!ranks->any_remote()) return plan;
  clock.Start("fan-out");
  const std::string shell =
      request.remote_shell.empty() ? kDefaultRemoteShell : request.remote_shell;
  auto reads = RemoteReaders(shell, reader, ranks->remote);
  if (!reads.ok()) return reads.status();
  plan.reads = std::move(reads.value());
  for (const RemoteRead& read : plan.reads) {
    plan.hosts.insert(plan.hosts.end(), read.hosts.begin(), read.hosts.end());
  }
  return plan;
}

std::vector<NodeRecordSummary> CollectFromReaders(const FanoutPlan& plan, double timeout_seconds,
                                                  PhaseClock& clock, const NodeRecordSinks& sinks) {
  NodeStreamMerge merge(sinks);
  for (const std::string& node : plan.hosts) merge.Expect(node);
  std::vector<ReaderCommand> commands;
  for (const RemoteRead& r : plan.reads) commands.push_back(r.command);

  StretchTimer merging;
  Progress progress;
  bool first_frame = false;
  const std::string nodes_text = std::to_string(plan.hosts.size()) + " nodes, " +
                                 std::to_string(commands.size()) + " reader command" +
                                 (commands.size() == 1 ? "" : "s");
  RunReaders(
      commands, timeout_seconds,
      [&](std::size_t, std::string_view line) {
        if (!first_frame) {
          first_frame = true;
          clock.End(nodes_text);
          clock.Start("collection");
        }
        StretchTimer::Scope scope(merging);
        merge.Feed(line);
      },
      [&] {
        if (!clock.quiet()) progress.Show(merge.ranks_read(), merge.ranks_announced());
      },
      [&](std::size_t i, const ReaderOutcome& o) {
        std::string why = o.why.empty() ? "its reader ended before its record did" : o.why;
        std::set<std::string> hosts(plan.reads[i].hosts.begin(), plan.reads[i].hosts.end());
        merge.CloseUnfinished(hosts, why);
      });
  merge.CloseUnfinished("its reader ended before its record did");
  if (!first_frame) {
    clock.End(nodes_text);
    clock.Start("collection");
  }
  if (!clock.quiet()) progress.Done(merge.ranks_read(), merge.ranks_announced());
  std::vector<NodeRecordSummary> nodes = merge.Finish();
  int complete = 0;
  for (const NodeRecordSummary& n : nodes) complete += n.complete ? 1 : 0;
  clock.End(std::to_string(complete) + " of " + std::to_string(nodes.size()) +
            " nodes complete, " + std::to_string(merge.ranks_read()) + " ranks");
  clock.Report("merge", merging.seconds(), "node records parsed as they arrived");
  for (const NodeRecordSummary& n : nodes) {
    if (!n.complete && !clock.quiet()) {
      std::fprintf(stderr, "mpidbg: node %s: %s\n", n.hostname.c_str(), n.status.message().c_str());
    }
  }
  return nodes;
}

FanoutResult CollectSnapshots(const FanoutPlan& plan, double timeout_seconds, PhaseClock& clock) {
  FanoutResult result;
  model::GroupTable groups;  // each communicator's members once for all the nodes
  NodeRecordSinks sinks;
  sinks.on_rank = [&result, &groups](model::ProcessSnapshot&& snap) {
    groups.Share(&snap);
    result.snaps.push_back(std::move(snap));
  };
  result.nodes = CollectFromReaders(plan, timeout_seconds, clock, sinks);
  return result;
}

}  // namespace mpidbg::host
