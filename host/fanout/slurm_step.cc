// slurm_step.cc — scontrol for the nodes, srun for the readers.
#include "host/fanout/slurm_step.h"

#include <cctype>

namespace mpidbg::host {
namespace {

bool Digits(const std::string& s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// A command's output lines (bounded in number), or why it failed.
Result<std::vector<std::string>> Output(const std::vector<std::string>& argv, double timeout) {
  std::vector<std::string> lines;
  std::vector<ReaderOutcome> outcome = RunReaders(
      {ReaderCommand{argv}}, timeout,
      [&lines](std::size_t, std::string_view line) {
        if (lines.size() < 100000) lines.emplace_back(line);
      },
      [] {}, [](std::size_t, const ReaderOutcome&) {});
  const ReaderOutcome& o = outcome[0];
  if (o.timed_out) return Status::Unreadable("'" + CommandText(argv) + "' did not answer in time");
  if (o.exit_status != 0) {
    std::string status =
        o.exit_status > 0 ? " (exit status " + std::to_string(o.exit_status) + ")" : "";
    return Status::Unreadable("'" + CommandText(argv) + "' failed" + status);
  }
  return lines;
}

}  // namespace

Result<SlurmTarget> ParseSlurmTarget(const std::string& text) {
  SlurmTarget t;
  std::size_t dot = text.find('.');
  t.job = text.substr(0, dot);
  if (dot != std::string::npos) t.step = text.substr(dot + 1);
  if (!Digits(t.job) || (dot != std::string::npos && !Digits(t.step))) {
    return Status::Usage("--slurm needs JOBID or JOBID.STEP (numbers), got '" + text + "'");
  }
  return t;
}

std::string ScontrolField(const std::string& line, const std::string& key) {
  std::string pattern = key + "=";
  for (std::size_t at = line.find(pattern); at != std::string::npos;
       at = line.find(pattern, at + 1)) {
    if (at != 0 && line[at - 1] != ' ') continue;  // ReqNodeList= is not NodeList=
    std::size_t start = at + pattern.size();
    return line.substr(start, line.find(' ', start) - start);
  }
  return "";
}

Result<std::vector<std::string>> SlurmNodes(const SlurmTarget& target, double timeout) {
  std::vector<std::string> argv = {"scontrol", "--oneliner", "show"};
  if (target.step.empty()) {
    argv.insert(argv.end(), {"job", target.job});
  } else {
    argv.insert(argv.end(), {"step", target.id()});
  }
  auto shown = Output(argv, timeout);
  if (!shown.ok()) return shown.status();
  if (shown->empty()) return Status::Unreadable("Slurm knows no " + target.id());
  const std::string& line = shown->front();
  if (target.step.empty()) {
    std::string state = ScontrolField(line, "JobState");
    if (state != "RUNNING" && state != "SUSPENDED") {
      return Status::Unreadable("Slurm job " + target.job + " is " +
                                (state.empty() ? "in no known state" : state) + ", not running");
    }
  }
  std::string list = ScontrolField(line, "NodeList");
  if (list.empty() || list == "(null)") {
    return Status::Unreadable("Slurm lists no nodes for " + target.id());
  }
  auto hosts = Output({"scontrol", "show", "hostnames", list}, timeout);
  if (!hosts.ok()) return hosts.status();
  std::vector<std::string> nodes;
  for (const std::string& h : *hosts) {
    if (!h.empty()) nodes.push_back(h);
  }
  if (nodes.empty()) return Status::Unreadable("Slurm's node list '" + list + "' names no host");
  return nodes;
}

ReaderCommand SrunReaders(const SlurmTarget& target, const std::vector<std::string>& nodes,
                          const std::vector<std::string>& reader) {
  std::string list;
  for (const std::string& n : nodes) list += (list.empty() ? "" : ",") + n;
  ReaderCommand c;
  c.argv = {"srun",
            "--overlap",
            "--jobid=" + target.job,
            "--nodes=" + std::to_string(nodes.size()),
            "--ntasks=" + std::to_string(nodes.size()),
            "--ntasks-per-node=1",
            "--nodelist=" + list,
            "--kill-on-bad-exit=0"};
  c.argv.insert(c.argv.end(), reader.begin(), reader.end());
  return c;
}

}  // namespace mpidbg::host
