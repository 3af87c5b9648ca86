// target_live.h — a live process as a target: every thread stopped with ptrace while
// the host reads, then each thread left exactly as it was found (a stopped process
// stays stopped, a running one runs on).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "host/target/target_memory.h"

namespace mpidbg::host {

class LiveTarget : public TargetMemory {
 public:
  // Stops every thread of `pid`. Errors: no such process, permission (with the ptrace
  // policy that applies), a thread that does not stop in time.
  static Result<std::unique_ptr<LiveTarget>> Attach(int64_t pid);
  // The same for several processes at once, one result per pid in order: every thread of
  // every process is interrupted before any stop is waited for (the stops overlap).
  static std::vector<Result<std::unique_ptr<LiveTarget>>> AttachMany(
      const std::vector<int64_t>& pids);

  ~LiveTarget() override;
  LiveTarget(const LiveTarget&) = delete;
  LiveTarget& operator=(const LiveTarget&) = delete;

  // Lets every thread go as it was found. Called by the destructor; safe to repeat.
  Status Detach();

  Status Read(TargetAddr addr, size_t size, void* out) override;
  // Writes into the stopped process: only what a debugger may write by contract (a
  // request in the runtime's root, records.h), never program data.
  Status Write(TargetAddr addr, size_t size, const void* data);

  int64_t pid() const { return pid_; }
  std::vector<int64_t> tids() const;
  // True when every thread was already stopped (e.g. SIGSTOP) before the attach.
  bool was_stopped() const;
  // False once let go (Detach).
  bool attached() const { return attached_; }
  // When every thread had stopped (CLOCK_REALTIME ns): the moment the state is from.
  int64_t stopped_at_ns() const { return stopped_at_ns_; }

 private:
  struct ThreadState {
    pid_t tid = 0;
    bool was_stopped = false;  // in group stop when found
    int pending_signal = 0;    // a signal the attach intercepted; re-delivered at detach
  };

  explicit LiveTarget(pid_t pid) : pid_(pid) {}
  Status AttachAll();
  Status WaitForStops();
  Status ReadProcMem(TargetAddr addr, size_t size, void* out);

  pid_t pid_;
  std::vector<ThreadState> threads_;
  int mem_fd_ = -1;
  bool attached_ = false;
  int64_t stopped_at_ns_ = 0;
};

// Reads `pid` without stopping it (process_vm_readv): for a word the process changes
// by itself and a reader only watches, e.g. an acknowledgement.
Status ReadUnstopped(int64_t pid, TargetAddr addr, size_t size, void* out);

// One sentence explaining why ptrace is refused for `pid` (used for EPERM).
std::string PtracePermissionHint(int64_t pid);

// The fields of /proc/PID/task/TID/stat after the command name (which may hold ')'
// and spaces: the fields follow the last ')'), from the state on; "" when unreadable.
std::string ThreadStatFields(int64_t pid, int64_t tid);

// The state letter of /proc/PID/task/TID/stat ('R', 'S', 'T', 't', ...), or 0.
char ThreadStateLetter(int64_t pid, int64_t tid);

// The executable of a live process (/proc/PID/exe), "" when it cannot be read.
std::string LiveExecutable(int64_t pid);

// The NUL-separated strings of /proc/PID/<file> ("environ", "cmdline"), at most
// `max_bytes` read and `max_strings` kept (the process's own memory: untrusted); empty
// when it cannot be read.
std::vector<std::string> ProcStrings(int64_t pid, const char* file, std::size_t max_bytes,
                                     std::size_t max_strings);

// A live process's arguments (/proc/PID/cmdline), at most 1 MiB and 4096 words.
std::vector<std::string> LiveCommandLine(int64_t pid);

}  // namespace mpidbg::host
