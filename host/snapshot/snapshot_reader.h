// snapshot_reader.h — one target read into a model::ProcessSnapshot through a
// message-queue DLL, and the whole path from a target description to a snapshot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/model/snapshot.h"
#include "host/plugin_host/mq_session.h"
#include "host/snapshot/read_cost.h"
#include "host/target/opened_target.h"

namespace mpidbg::host {

struct CaptureFacts {
  int64_t pid = 0;
  std::string source;          // "live" | "core"
  int64_t capture_time_ns = 0; // see OpenedTarget::capture_time_ns
  std::vector<int64_t> tids;   // threads the target has (for DLLs without thread data)
  std::string plugin;
  bool want_mpit = false;      // read the MPI_T catalogue (large; `snapshot` wants it, `job` not)
};

// Reads process summary, threads and communicators with their queues. Threads are the
// ones the runtime has records of (threads that called MPI): listing the others as
// "not_in_mpi" would make every MPI library's internal helper threads look like
// application threads that might still send. With a foreign DLL (no mpidbg_*
// extensions) every thread of the target is listed with state "unknown".
//
// seconds_in_call: for a live target the time since the thread entered its call, at the
// moment it was stopped; for a core the time from entry to the core file's
// modification time, which approximates the moment of the dump (a copied core may
// have a later mtime, making the value too large).
Result<model::ProcessSnapshot> ReadSnapshot(MqSession& session, TargetContext& ctx,
                                            const CaptureFacts& facts);

// The complete path: open the target, choose and load the DLL, read, let the target
// go. A DLL that is not mpidbg's own runs in a child process so that a crash or a hang
// in it ends in one clear sentence instead of taking the host down.
// `stopped` (optional): the live process already stopped by the caller, who lets it go
// (a foreign DLL's child must attach itself, so it is let go before the child starts).
// `cost` (optional): the time of each phase.
Result<model::ProcessSnapshot> ReadTarget(const TargetSpec& spec, LiveTarget* stopped = nullptr,
                                          ReadCost* cost = nullptr);

}  // namespace mpidbg::host
