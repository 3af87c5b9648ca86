// mpir_proctable.h — the ranks of a job as its launcher lists them, through the
// MPIR Process Acquisition Interface: `MPIR_proctable` (an array of MPIR_PROCDESC
// {char* host_name; char* executable_name; int pid;}, indexed by MPI_COMM_WORLD rank)
// and `MPIR_proctable_size`.
//
// Open MPI's orterun exports both from libopen-rte's dynamic symbol table and fills the
// table once the job is spawned. MPICH's mpiexec.hydra (Debian) is stripped and exports
// neither, so it cannot be read this way (launcher_ranks.h then looks below it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/target/target_memory.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct LauncherProcess {
  std::string host_name;
  std::string executable_name;
  int64_t pid = 0;
};

// Upper bound on the table size we accept from target memory.
constexpr int kMaxProctableSize = 1 << 20;

// Decodes the table given the addresses of the two variables (x86-64 / LP64 layout).
// A bad size, null table or unreadable entry is an error; empty strings are allowed.
Result<std::vector<LauncherProcess>> DecodeProctable(TargetMemory& mem, TargetAddr table_var,
                                                     TargetAddr size_var);

// Finds the variables in the live `launcher_pid`'s symbols, attaches briefly and reads
// the table. No MPIR symbols, or an empty table: kNoSupport with one sentence.
Result<std::vector<LauncherProcess>> ReadLauncherProctable(int64_t launcher_pid);

// True when `host_name` names this machine (its hostname, short or qualified, or
// localhost); an empty name counts as local.
bool IsLocalHost(const std::string& host_name);

// The pids of the entries on this host, in rank order; `remote` (optional) receives
// one description per entry on another host, which cannot be read from here. No local
// entry at all: kNoSupport.
Result<std::vector<int64_t>> LocalRankPids(const std::vector<LauncherProcess>& table,
                                           std::vector<std::string>* remote = nullptr);


}  // namespace mpidbg::host
