// runtime_processes.h — the processes of this machine that carry mpidbg's runtime, found
// in /proc: the candidates `collect --job` reads to find a job's ranks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpidbg::host {

// Pids (ascending) of the processes whose memory maps map a library named
// libmpidbg_rt*.so (the runtime `mpidbg run` preloads), this process excepted. A
// runtime linked into the executable itself maps no such library and is not found.
// `proc` is the /proc to scan (tests point it elsewhere).
std::vector<int64_t> RuntimeProcesses(const std::string& proc = "/proc");

// The Slurm allocation a process runs in, from the environment it was started with
// (/proc/PID/environ): "JOB.STEP" (SLURM_JOB_ID, SLURM_STEP_ID), "JOB" without a step,
// "" outside Slurm or when the environment cannot be read. Unlike the launch record,
// which names the launcher's job (Hydra's or Open MPI's for an mpiexec run inside
// `salloc`), this names the allocation whatever launched the rank in it.
std::string SlurmAllocationOf(int64_t pid, const std::string& proc = "/proc");

// True when `wanted` is a Slurm job id ("J" or "J.S") and the process runs in another
// Slurm allocation than J: surely no rank of the job, whatever its launch record says
// (a launch record's Slurm id comes from the same environment).
bool OtherSlurmAllocation(int64_t pid, const std::string& wanted, const std::string& proc = "/proc");

// Whether a process's job id `recorded` (the runtime's launch record) answers the job
// the user asked for, `wanted`: the same text, or a Slurm job id "J" for any of its
// steps "J.S".
bool JobIdMatches(const std::string& recorded, const std::string& wanted);

}  // namespace mpidbg::host
