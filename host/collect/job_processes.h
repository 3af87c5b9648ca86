// job_processes.h — the ranks of a job on this node as their launcher made them, whether
// they carry mpidbg's runtime or not: what `collect --job` reads beside the runtime's
// processes (runtime_processes.h), so a hung job nobody started under `mpidbg run` is
// read on every node (in the reduced view, from its stacks) as a local one is by pid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpidbg::host {

// Bounds the walk up from a process to its Hydra proxy (a rank is the proxy's child; a
// wrapper or two between them are allowed).
constexpr int kMaxProxyAncestors = 8;

// Pids (ascending) of this machine's processes, this one excepted, that a launcher gave
// a rank (rank_environment.h; Slurm's SLURM_PROCID counts here) in job `wanted`:
//  - a Slurm job "J" or step "J.S": the allocation their environment names
//    (SlurmAllocationOf, runtime_processes.h);
//  - a Hydra job "HOST:PORT/G": they hang below the proxy whose arguments name that
//    control port and pgid (target/hydra_arguments.h).
// A process below such a rank inherits its variables and is listed too (a shell that
// srun started and the program it runs): the reader drops every one that loads no MPI
// library, as no rank.
std::vector<int64_t> LauncherJobProcesses(const std::string& wanted);

}  // namespace mpidbg::host
