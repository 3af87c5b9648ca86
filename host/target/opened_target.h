// opened_target.h — a target ready to be read: memory (live or core) plus its modules
// and symbols, and the facts about it that a snapshot records.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/symbols/symbol_index.h"
#include "host/target/target_core.h"
#include "host/target/target_live.h"

namespace mpidbg::host {

struct TargetSpec {
  int64_t pid = 0;      // live process, or
  std::string core;     // core file
  std::string exe;      // executable override for a core, "" for none
  std::string plugin;   // message-queue DLL override, "" for none
  bool want_mpit = false;  // also read the MPI_T catalogue (large: `snapshot` only)
};

// How a job's target is named in the error document: "pid 123" or "core /path".
std::string TargetName(const TargetSpec& spec);

// How messages on stderr name a target: "process 4711" or the core file's path.
std::string TargetDescription(const TargetSpec& spec);
// How a progress line names reading `targets`: "reading cores", "reading processes", or
// "reading ranks" for a mix.
std::string ReadingWhat(const std::vector<TargetSpec>& targets);

class OpenedTarget {
 public:
  // A live process is stopped here and resumed (as found) by Close or destruction.
  // `stopped` (optional): the same process already stopped by the caller, who keeps it
  // and lets it go; then this target only reads it (see host/job's job-wide stop).
  static Result<std::unique_ptr<OpenedTarget>> Open(const TargetSpec& spec,
                                                    LiveTarget* stopped = nullptr);

  TargetMemory& memory() { return live_ ? static_cast<TargetMemory&>(*live_) : *core_; }
  SymbolIndex& symbols() { return *symbols_; }
  int64_t pid() const { return pid_; }
  const std::string& source() const { return source_; }  // "live" | "core"
  // The moment the state was captured (CLOCK_REALTIME ns): the attach time for a live
  // process, the core file's modification time for a core.
  int64_t capture_time_ns() const { return capture_time_ns_; }
  // The executable, "" when unknown.
  const std::string& image_name() const { return image_name_; }
  std::vector<int64_t> tids() const;
  // The core as libelf sees it (for unwinding its threads), nullptr for a live process.
  Elf* core_elf() const { return core_ ? core_->elf() : nullptr; }
  // True while a live process's threads are stopped under our ptrace.
  bool is_live() const { return live_ != nullptr; }
  // Writes into a live target (stopped while open); a core cannot be written.
  Status WriteLive(TargetAddr addr, size_t size, const void* data);
  Status Close();

  // What opening cost (issue 16's per-phase figures): stopping the threads (0 for a
  // target stopped by the caller, or a core) and listing the modules.
  int64_t attach_ns() const { return attach_ns_; }
  int64_t modules_ns() const { return modules_ns_; }

 private:
  OpenedTarget() = default;
  LiveTarget* live_ = nullptr;               // owned_live_, or the caller's
  std::unique_ptr<LiveTarget> owned_live_;
  std::unique_ptr<CoreTarget> core_;
  std::unique_ptr<SymbolIndex> symbols_;  // declared last: destroyed before the core's Elf
  int64_t pid_ = 0;
  std::string source_;
  int64_t capture_time_ns_ = 0;
  std::string image_name_;
  int64_t attach_ns_ = 0;
  int64_t modules_ns_ = 0;
};

// CLOCK_REALTIME now, in nanoseconds.
int64_t RealtimeNowNs();
// CLOCK_MONOTONIC now, in nanoseconds: for durations.
int64_t MonotonicNowNs();

}  // namespace mpidbg::host
