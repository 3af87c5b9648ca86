// remote_shell.h — the commands that reach the hosts of a launcher's ranks: a template
// the user sets, "{host}" standing for one host (one command per host, e.g. ssh) or
// "{hosts}" for all of them comma-separated (one command, e.g. pdsh -w or clush -w,
// whose output lines carry "host: " prefixes the frame reader skips).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/fanout/reader_processes.h"
#include "host/util/status.h"

namespace mpidbg::host {

inline constexpr const char* kDefaultRemoteShell = "ssh -o BatchMode=yes {host}";

struct RemoteRead {
  ReaderCommand command;
  std::vector<std::string> hosts;  // the hosts this command reaches
};

// What the readers read on each host: the ranks a process table lists there, by pid,
// or those whose launch record names one job (Hydra's proxies: hydra_proxies.h).
struct RemoteTargets {
  std::map<std::string, std::vector<int64_t>> pids_by_host;
  std::string job_id;                  // read on every host of job_hosts
  std::vector<std::string> job_hosts;
};

// One reader per host (or, with "{hosts}", one for every host read by pid and one for
// every host read by job): the template's words, then the reader and its targets —
// `--pids` with one host per command, `--host-pids HOST=P,P` for each host otherwise,
// `--job ID` either way. A template without either placeholder, or with both, is a usage
// error. `reader` is the reader's command up to its targets (`mpidbg collect --framed ...`).
Result<std::vector<RemoteRead>> RemoteReaders(const std::string& shell_template,
                                              const std::vector<std::string>& reader,
                                              const RemoteTargets& targets);

}  // namespace mpidbg::host
