// rank_environment.h — which rank a process is, from the environment its launcher gave
// it, for targets read without mpidbg's runtime (which records rank and size itself).
//
// Live: /proc/PID/environ. Core: the C library's `environ` (char**) read through the
// target's memory — untrusted, so every count and string is bounded and a bad pointer
// ends the walk with what was read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/target/opened_target.h"

namespace mpidbg::host {

// At most this many variables and this many bytes per variable are read from a core.
constexpr std::size_t kMaxEnvironmentEntries = 4096;
constexpr std::size_t kMaxEnvironmentEntry = 4096;

struct RankFromEnvironment {
  int rank = -1;       // -1: no variable named it
  int size = 0;        // 0: not known
  std::string from;    // the variable that named the rank, "" when none did
};

// The launchers' variables in order of preference: Open MPI's OMPI_COMM_WORLD_RANK /
// _SIZE, PMIx's PMIX_RANK, the PMI's PMI_RANK / PMI_SIZE (Hydra, Slurm's PMI-1/2),
// Slurm's SLURM_PROCID / SLURM_NTASKS. A value that is not a number in range is skipped.
RankFromEnvironment RankOfEnvironment(const std::vector<std::string>& environment);

// The target's environment, "NAME=value" per entry; empty when it cannot be read.
std::vector<std::string> TargetEnvironment(OpenedTarget& target);

// A live process's environment from /proc/PID/environ, without stopping it; empty when
// it cannot be read.
std::vector<std::string> LiveEnvironment(int64_t pid);

// The variable `from` of RankFromEnvironment is one an MPI launcher gives each rank
// (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK), not Slurm's SLURM_PROCID, which every
// process of a task carries (an mpiexec inside an allocation too).
bool NamedByMpiLauncher(const RankFromEnvironment& rank);

}  // namespace mpidbg::host
