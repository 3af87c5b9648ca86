// cmd_release.cc — `mpidbg release`: the orphans of running ranks released by their
// runtime, asked for through memory (release_request.h), so a rank blocked in MPI is
// served as well and nothing runs in the target on the debugger's behalf.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/release/release_request.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg release (--pid PID | --pids P,P,...) [--wait SECONDS] [--json]\n"
    "Asks each process's mpidbg runtime to release the records of freed MPI handles it\n"
    "keeps (orphans), by writing a request into the runtime's memory: nothing is called\n"
    "in the process, which is stopped only while the request is written. The runtime's\n"
    "clock thread carries it out as soon as the process runs, also while its threads are\n"
    "blocked in MPI (without that thread: at the next MPI_*_free). Waits up to --wait\n"
    "seconds (default 2) for each runtime to acknowledge; one that has not is reported\n"
    "as pending (e.g. a process stopped by another debugger), not as an error.\n";

// "P" or "P,P,...".
bool ParsePids(const std::string& text, std::vector<int64_t>* pids) {
  std::size_t start = 0;
  for (;;) {
    std::size_t comma = text.find(',', start);
    int64_t pid = 0;
    if (!ParsePid(text.substr(start, comma - start), &pid)) return false;
    pids->push_back(pid);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

struct ReleaseOptions {
  std::vector<int64_t> pids;
  double wait_seconds = 2;
  bool json = false;
  bool help = false;
};

host::Result<ReleaseOptions> ParseReleaseOptions(const std::vector<std::string>& args) {
  ReleaseOptions o;
  for (ArgCursor c(args); c.Next();) {
    if (c.Common(&o.json, &o.help)) continue;
    const std::string& a = c.arg();
    std::string v;
    if (a == "--pid" || a == "--pids") {
      if (!c.Value(&v) || !ParsePids(v, &o.pids)) {
        return host::Status::Usage(a + " needs process ids (P or P,P,...)");
      }
    } else if (a == "--wait") {
      char* end = nullptr;
      if (!c.Value(&v) || (o.wait_seconds = std::strtod(v.c_str(), &end), *end != '\0') ||
          !(o.wait_seconds >= 0) || o.wait_seconds > 3600) {
        return host::Status::Usage("--wait needs a number of seconds (0 to 3600)");
      }
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (!o.help && o.pids.empty()) return host::Status::Usage("give --pid PID or --pids P,P,...");
  return o;
}

}  // namespace

int ReleaseCommand(const std::vector<std::string>& args) {
  bool json_requested = false;
  for (const std::string& a : args) json_requested = json_requested || a == "--json";
  auto options = ParseReleaseOptions(args);
  if (!options.ok()) return ReportFailure(options.status(), json_requested);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  nlohmann::json processes = nlohmann::json::array();
  host::Status first_failure;
  int failed = 0;
  for (int64_t pid : options->pids) {
    auto outcome = host::AskOrphanRelease(pid, options->wait_seconds);
    if (!outcome.ok()) {
      std::fprintf(stderr, "mpidbg: %s\n", outcome.status().message().c_str());
      if (failed++ == 0) first_failure = outcome.status();
      processes.push_back({{"pid", pid},
                           {"state", "failed"},
                           {"error", outcome.status().message()},
                           {"error_kind", outcome.status().exit_code()}});
      continue;
    }
    const host::ReleaseOutcome& o = outcome.value();
    processes.push_back({{"pid", pid},
                         {"state", o.done ? "released" : "pending"},
                         {"request", o.request},
                         {"kept_before", o.kept_before},
                         {"released", o.done ? nlohmann::json(o.released) : nlohmann::json(nullptr)}});
    if (options->json) continue;
    if (o.done) {
      std::cout << "process " << pid << ": released " << o.released << " orphan(s)\n";
    } else {
      std::cout << "process " << pid << ": release " << (o.already_pending ? "was already " : "")
                << "asked (request " << o.request << "), not yet carried out after "
                << options->wait_seconds << " s: the runtime does it as soon as the process "
                << "runs\n";
    }
  }
  // Every process failed: its failure decides the status, as for `job`.
  if (failed == static_cast<int>(options->pids.size())) {
    if (options->json) std::cout << nlohmann::json{{"schema", "mpidbg.release/1"}, {"processes", processes}}.dump(1) << std::endl;
    return first_failure.exit_code();
  }
  if (options->json) {
    std::cout << nlohmann::json{{"schema", "mpidbg.release/1"}, {"processes", processes}}.dump(1)
              << std::endl;
  }
  return 0;
}

}  // namespace mpidbg::cli
