// ptrace_refusal.cc — why ptrace was refused, in the order the causes are checked: a
// tracer already attached beats every policy (even root cannot attach twice), then
// Yama's system-wide setting, then the ownership rule, then what is left (a
// non-dumpable process or a security module).
#include "host/target/ptrace_refusal.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace mpidbg::host {
namespace {

constexpr int kCapSysPtrace = 19;

// The value after "Key:" in /proc/<who>/status, "" when absent.
std::string StatusField(const std::string& who, const std::string& key) {
  std::ifstream in("/proc/" + who + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size() + 1, key + ":") == 0) return line.substr(key.size() + 1);
  }
  return {};
}

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

}  // namespace

PtraceFacts GatherPtraceFacts(int64_t pid) {
  PtraceFacts f;
  f.pid = pid;
  const std::string who = std::to_string(pid);
  std::istringstream(StatusField(who, "TracerPid")) >> f.tracer;
  if (f.tracer > 0) f.tracer_name = FirstLine("/proc/" + std::to_string(f.tracer) + "/comm");
  std::string scope = FirstLine("/proc/sys/kernel/yama/ptrace_scope");
  if (!scope.empty()) std::istringstream(scope) >> f.yama_scope;
  // The kernel lets an unprivileged tracer in only when the target's real, effective
  // and saved uids all equal its own.
  std::istringstream uids(StatusField(who, "Uid"));
  int64_t uid = -1;
  for (int i = 0; i < 3 && (uids >> uid); ++i) {
    if (i == 0) f.target_uid = uid;
    if (uid != static_cast<int64_t>(getuid())) f.other_user = true;
  }
  std::string caps = StatusField("self", "CapEff");
  unsigned long long eff = std::strtoull(caps.c_str(), nullptr, 16);
  f.privileged = (eff >> kCapSysPtrace) & 1u;
  return f;
}

std::string PtraceRefusal(const PtraceFacts& f) {
  const std::string p = "process " + std::to_string(f.pid);
  const std::string scope_file = "/proc/sys/kernel/yama/ptrace_scope";
  if (f.tracer > 0) {
    std::string name = f.tracer_name.empty() ? "" : " (" + f.tracer_name + ")";
    return p + " is already traced by process " + std::to_string(f.tracer) + name +
           ", and a process can have only one tracer; detach that debugger first";
  }
  if (f.yama_scope >= 3) {
    return "ptrace is disabled on this system (" + scope_file + " is " +
           std::to_string(f.yama_scope) + ", which only a reboot undoes), so " + p +
           " cannot be read live; read a core file of it instead";
  }
  if (f.privileged) {
    return "ptrace of " + p +
           " is refused although mpidbg has CAP_SYS_PTRACE (is the "
           "process being created, or does a security module such as AppArmor or SELinux "
           "forbid it?)";
  }
  if (f.other_user) {
    return p + " belongs to another user (uid " + std::to_string(f.target_uid) +
           "); reading it needs root or CAP_SYS_PTRACE";
  }
  if (f.yama_scope == 2) {
    return "ptrace of " + p + " needs root or CAP_SYS_PTRACE here: " + scope_file + " is 2";
  }
  if (f.yama_scope == 1) {
    return "ptrace of " + p + " is refused by Yama: " + scope_file +
           " is 1, which lets a process trace only its descendants; run mpidbg as root or "
           "with CAP_SYS_PTRACE, start the job under it, or set ptrace_scope to 0";
  }
  return "ptrace of " + p + " is not permitted though it is ours and Yama " +
         (f.yama_scope < 0 ? std::string("is not active")
                           : "allows it (ptrace_scope " + std::to_string(f.yama_scope) + ")") +
         " (is it a setuid or otherwise non-dumpable program?); root or CAP_SYS_PTRACE can "
         "read it";
}

}  // namespace mpidbg::host
