// remote_shell.cc — a shell template and the hosts' pids into reader commands.
#include "host/fanout/remote_shell.h"

#include <sstream>

namespace mpidbg::host {
namespace {

std::string PidList(const std::vector<int64_t>& pids) {
  std::string s;
  for (int64_t p : pids) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

std::string Replace(std::string word, const std::string& what, const std::string& with) {
  for (std::size_t at = word.find(what); at != std::string::npos;
       at = word.find(what, at + with.size())) {
    word.replace(at, what.size(), with);
  }
  return word;
}

}  // namespace

Result<std::vector<RemoteRead>> RemoteReaders(const std::string& shell_template,
                                              const std::vector<std::string>& reader,
                                              const RemoteTargets& targets) {
  std::vector<std::string> words;
  std::istringstream in(shell_template);
  for (std::string w; in >> w;) words.push_back(w);
  bool one = shell_template.find("{host}") != std::string::npos;
  bool all = shell_template.find("{hosts}") != std::string::npos;
  if (words.empty() || one == all) {
    return Status::Usage("--remote-shell needs {host} (one command per host) or {hosts} (one "
                         "for all), got '" + shell_template + "'");
  }
  // The shell's words for `hosts`, then the reader's.
  auto command = [&](const std::vector<std::string>& hosts) {
    RemoteRead r;
    std::string joined;
    for (const std::string& h : hosts) joined += (joined.empty() ? "" : ",") + h;
    for (const std::string& w : words) {
      r.command.argv.push_back(one ? Replace(w, "{host}", joined) : Replace(w, "{hosts}", joined));
    }
    r.command.argv.insert(r.command.argv.end(), reader.begin(), reader.end());
    r.hosts = hosts;
    return r;
  };
  std::vector<RemoteRead> reads;
  if (one) {
    for (const auto& [host, pids] : targets.pids_by_host) {
      RemoteRead r = command({host});
      r.command.argv.insert(r.command.argv.end(), {"--pids", PidList(pids)});
      reads.push_back(std::move(r));
    }
    for (const std::string& host : targets.job_hosts) {
      RemoteRead r = command({host});
      r.command.argv.insert(r.command.argv.end(), {"--job", targets.job_id});
      reads.push_back(std::move(r));
    }
    return reads;
  }
  if (!targets.pids_by_host.empty()) {
    std::vector<std::string> hosts;
    for (const auto& [host, pids] : targets.pids_by_host) hosts.push_back(host);
    RemoteRead r = command(hosts);
    for (const auto& [host, pids] : targets.pids_by_host) {
      r.command.argv.insert(r.command.argv.end(), {"--host-pids", host + "=" + PidList(pids)});
    }
    reads.push_back(std::move(r));
  }
  if (!targets.job_hosts.empty()) {
    RemoteRead r = command(targets.job_hosts);
    r.command.argv.insert(r.command.argv.end(), {"--job", targets.job_id});
    reads.push_back(std::move(r));
  }
  return reads;
}

}  // namespace mpidbg::host
