// ptrace_refusal.h — one sentence saying why the kernel refused to let us ptrace a
// process (EPERM), from the facts that decide it: another tracer, Yama's
// ptrace_scope, another user's process, our CAP_SYS_PTRACE.
#pragma once

#include <cstdint>
#include <string>

namespace mpidbg::host {

struct PtraceFacts {
  int64_t pid = 0;
  int64_t tracer = 0;       // TracerPid of the target, 0 when not traced
  std::string tracer_name;  // its command name, "" when unknown
  int yama_scope = -1;      // /proc/sys/kernel/yama/ptrace_scope, -1 without Yama
  bool other_user = false;  // the target's uids are not all ours
  int64_t target_uid = -1;  // its real uid, -1 when unknown
  bool privileged = false;  // we hold CAP_SYS_PTRACE
};

// Reads the facts from /proc for `pid` and for this process.
PtraceFacts GatherPtraceFacts(int64_t pid);

// The sentence (no final period, as every host message).
std::string PtraceRefusal(const PtraceFacts& facts);

}  // namespace mpidbg::host
