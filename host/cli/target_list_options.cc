// target_list_options.cc — parsing FILE | --pids | --cores | --launcher.
#include "host/cli/target_list_options.h"

#include <cstdlib>
#include <sstream>
#include <utility>

#include "host/proctable/launcher_ranks.h"

namespace mpidbg::cli {

namespace {

bool ParsePidList(const std::string& v, std::vector<int64_t>* pids, host::Status* error) {
  std::stringstream list(v);
  std::string item;
  while (std::getline(list, item, ',')) {
    int64_t pid = 0;
    if (!ParsePid(item, &pid)) {
      *error = host::Status::Usage("bad process id '" + item + "'");
      return false;
    }
    pids->push_back(pid);
  }
  return true;
}

}  // namespace

bool TakeTargetList(ArgCursor& c, TargetListOptions* t, host::Status* error) {
  const std::string& a = c.arg();
  std::string v;
  if (a == "--pids") {
    if (!c.Value(&v)) {
      *error = host::Status::Usage("--pids needs a comma-separated list");
      return true;
    }
    ParsePidList(v, &t->pids, error);
  } else if (a == "--host-pids") {
    std::size_t eq = std::string::npos;
    if (!c.Value(&v) || (eq = v.find('=')) == std::string::npos || eq == 0) {
      *error = host::Status::Usage("--host-pids needs HOST=P,P,...");
      return true;
    }
    std::vector<int64_t> pids;
    if (ParsePidList(v.substr(eq + 1), &pids, error)) {
      t->host_pids.emplace_back(v.substr(0, eq), std::move(pids));
    }
  } else if (a == "--slurm") {
    if (!c.Value(&t->slurm) || t->slurm.empty()) {
      *error = host::Status::Usage("--slurm needs a job id (JOBID or JOBID.STEP)");
    }
  } else if (a == "--remote-mpidbg") {
    if (!c.Value(&t->remote_mpidbg) || t->remote_mpidbg.empty()) {
      *error = host::Status::Usage("--remote-mpidbg needs the path of mpidbg on the nodes");
    }
  } else if (a == "--remote-shell") {
    if (!c.Value(&t->remote_shell) || t->remote_shell.empty()) {
      *error = host::Status::Usage("--remote-shell needs a command with {host} or {hosts}");
    }
  } else if (a == "--timeout") {
    char* end = nullptr;
    if (!c.Value(&v) || (t->timeout_seconds = std::strtod(v.c_str(), &end), *end != '\0') ||
        !(t->timeout_seconds > 0) || t->timeout_seconds > 86400) {
      *error = host::Status::Usage("--timeout needs a number of seconds above 0");
    }
  } else if (a == "--cores") {
    while (c.HasValue() && c.Value(&v)) t->cores.push_back(v);
    if (t->cores.empty()) *error = host::Status::Usage("--cores needs at least one core file");
  } else if (a == "--launcher") {
    if (!c.Value(&v) || !ParsePid(v, &t->launcher)) {
      *error = host::Status::Usage("--launcher needs the process id of a running mpiexec");
    }
  } else if (a == "--exe") {
    if (!c.Value(&t->exe)) *error = host::Status::Usage("--exe needs a file");
  } else if (a == "--plugin") {
    if (!c.Value(&t->plugin)) *error = host::Status::Usage("--plugin needs a path");
  } else {
    return false;
  }
  return true;
}

int TargetListSources(const TargetListOptions& t) {
  return (t.pids.empty() ? 0 : 1) + (t.cores.empty() ? 0 : 1) + (t.launcher == 0 ? 0 : 1) +
         (t.slurm.empty() ? 0 : 1) + (t.host_pids.empty() ? 0 : 1);
}

bool HasFanoutOptions(const TargetListOptions& t) {
  return !t.slurm.empty() || !t.remote_mpidbg.empty() || !t.remote_shell.empty() ||
         t.timeout_seconds != 60;
}

host::Result<std::vector<host::TargetSpec>> TargetsFrom(const TargetListOptions& o) {
  std::vector<int64_t> pids = o.pids;
  if (o.launcher != 0) {
    auto local = host::LauncherLocalRankPids(o.launcher);
    if (!local.ok()) return local.status();
    pids = std::move(local.value());
  }
  for (const auto& [host, listed] : o.host_pids) {
    if (host::IsLocalHost(host)) pids.insert(pids.end(), listed.begin(), listed.end());
  }
  std::vector<host::TargetSpec> targets;
  for (int64_t pid : pids) {
    host::TargetSpec spec;
    spec.pid = pid;
    spec.plugin = o.plugin;
    targets.push_back(spec);
  }
  for (const std::string& core : o.cores) {
    host::TargetSpec spec;
    spec.core = core;
    spec.exe = o.exe;
    spec.plugin = o.plugin;
    targets.push_back(spec);
  }
  return targets;
}

bool TakeJobInput(ArgCursor& c, JobInputOptions* o, host::Status* error) {
  if (TakeTargetList(c, &o->targets, error)) return true;
  const std::string& a = c.arg();
  if (!a.empty() && a[0] != '-') {
    if (!o->file.empty()) {
      *error = host::Status::Usage("one FILE only (got '" + o->file + "' and '" + a + "')");
    }
    o->file = a;
    return true;
  }
  return false;
}

host::Status CheckJobInput(const JobInputOptions& o) {
  const TargetListOptions& t = o.targets;
  int sources = (o.file.empty() ? 0 : 1) + TargetListSources(t);
  if (sources != 1) {
    return host::Status::Usage("give exactly one of FILE, --pids, --cores, --launcher or --slurm");
  }
  if (!t.host_pids.empty()) {
    return host::Status::Usage("--host-pids is for `mpidbg collect` on a node");
  }
  if (HasFanoutOptions(t) && t.slurm.empty() && t.launcher == 0) {
    return host::Status::Usage(
        "--remote-mpidbg, --remote-shell and --timeout go with --slurm or --launcher");
  }
  if (!t.exe.empty() && t.cores.empty()) return host::Status::Usage("--exe goes with --cores");
  if (!o.file.empty() && !t.plugin.empty()) {
    return host::Status::Usage("--plugin goes with --pids, --cores or --launcher");
  }
  return host::Status::Ok();
}

host::Status ParseJobCommandArgs(const std::vector<std::string>& args, JobInputOptions* input,
                                 bool* json, bool* help,
                                 const std::function<bool(ArgCursor&, host::Status*)>& take_own) {
  for (ArgCursor c(args); c.Next();) {
    if (c.Common(json, help)) continue;
    host::Status error;
    if (!TakeJobInput(c, input, &error) && !take_own(c, &error)) {
      return host::Status::Usage("unknown argument '" + c.arg() + "'");
    }
    if (!error.ok()) return error;
  }
  if (*help) return host::Status::Ok();
  return CheckJobInput(*input);
}

}  // namespace mpidbg::cli
