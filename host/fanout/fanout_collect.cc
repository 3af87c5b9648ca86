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

FanoutResult CollectFromReaders(const std::vector<RemoteRead>& reads,
                                const std::vector<std::string>& expected, double timeout_seconds,
                                PhaseClock& clock) {
  FanoutResult result;
  model::GroupTable groups;  // each communicator's members once for all the nodes
  NodeStreamMerge merge([&result, &groups](model::ProcessSnapshot&& snap) {
    groups.Share(&snap);
    result.snaps.push_back(std::move(snap));
  });
  for (const std::string& node : expected) merge.Expect(node);
  std::vector<ReaderCommand> commands;
  for (const RemoteRead& r : reads) commands.push_back(r.command);

  StretchTimer merging;
  Progress progress;
  bool first_frame = false;
  const std::string nodes_text = std::to_string(expected.size()) + " nodes, " +
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
      [&] { progress.Show(merge.ranks_read(), merge.ranks_announced()); },
      [&](std::size_t i, const ReaderOutcome& o) {
        std::string why = o.why.empty() ? "its reader ended before its record did" : o.why;
        std::set<std::string> hosts(reads[i].hosts.begin(), reads[i].hosts.end());
        merge.CloseUnfinished(hosts, why);
      });
  merge.CloseUnfinished("its reader ended before its record did");
  if (!first_frame) {
    clock.End(nodes_text);
    clock.Start("collection");
  }
  progress.Done(merge.ranks_read(), merge.ranks_announced());
  result.nodes = merge.Finish();
  int complete = 0;
  for (const NodeRecordSummary& n : result.nodes) complete += n.complete ? 1 : 0;
  clock.End(std::to_string(complete) + " of " + std::to_string(result.nodes.size()) +
            " nodes complete, " + std::to_string(merge.ranks_read()) + " ranks");
  clock.Report("merge", merging.seconds(), "node records parsed as they arrived");
  for (const NodeRecordSummary& n : result.nodes) {
    if (!n.complete) {
      std::fprintf(stderr, "mpidbg: node %s: %s\n", n.hostname.c_str(), n.status.message().c_str());
    }
  }
  return result;
}

Result<FanoutResult> CollectSlurm(const std::string& target_text, const std::string& mpidbg,
                                  const std::string& plugin, double timeout_seconds,
                                  PhaseClock& clock) {
  auto target = ParseSlurmTarget(target_text);
  if (!target.ok()) return target.status();
  clock.Start("fan-out");
  auto nodes = SlurmNodes(*target, timeout_seconds);
  if (!nodes.ok()) return nodes.status();
  std::vector<std::string> reader = {mpidbg, "collect", "--job", target->id(), "--framed"};
  if (!plugin.empty()) reader.insert(reader.end(), {"--plugin", plugin});
  RemoteRead read;
  read.command = SrunReaders(*target, *nodes, reader);
  read.hosts = *nodes;
  return CollectFromReaders({read}, *nodes, timeout_seconds, clock);
}

}  // namespace mpidbg::host
