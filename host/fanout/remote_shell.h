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

// One reader per host of `pids_by_host` (or one for all with "{hosts}"): the template's
// words, then the reader and the host's pids (`--pids` with one host per
// command, `--host-pids HOST=P,P` for each host otherwise). A template without either
// placeholder, or with both, is a usage error.
// `reader` is the reader's command up to its targets (`mpidbg collect --framed ...`).
Result<std::vector<RemoteRead>> RemoteReaders(
    const std::string& shell_template, const std::vector<std::string>& reader,
    const std::map<std::string, std::vector<int64_t>>& pids_by_host);

}  // namespace mpidbg::host
