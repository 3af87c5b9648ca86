// launch_env.h — the launcher's view of this process, read from the environment the
// launcher gave it (records.h: mpidbg_launch_info).
//
// MPI-free and free of global state, so the unit tests feed it tables of variables;
// the runtime calls it once, before PMPI_Init, with getenv and the parent's command line.
//
// Which launcher started the process decides which variables are believed, because
// variables of one launcher leak into jobs of another (an `mpiexec` run inside a Slurm
// step inherits SLURM_PROCID=0):
//   ORTE       OMPI_COMM_WORLD_RANK, OMPI_MCA_orte_hnp_uri or OMPI_MCA_orte_local_daemon_uri
//   HYDRA      the parent is hydra_pmi_proxy, or PMI_FD/PMI_PORT with MPI_LOCALNRANKS
//   SLURM      SLURM_PROCID with SLURM_STEP_ID (or SLURM_STEPID): a task of an srun step
//   PRRTE      PMIX_RANK or PMIX_NAMESPACE without any of the above
//   UNKNOWN    PMI_RANK without any of the above (some other PMI-1/PMI-2 server)
//   SINGLETON  none of these
#ifndef MPIDBG_RT_LAUNCH_ENV_H
#define MPIDBG_RT_LAUNCH_ENV_H

#include <stddef.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// Value of an environment variable, or nullptr when it is not set.
using EnvLookup = const char* (*)(void* context, const char* name);

struct LaunchEnvironment {
  EnvLookup lookup;
  void* context;
  // The parent process's argv as /proc/<ppid>/cmdline gives it (NUL-separated), or
  // nullptr. Hydra passes nothing about the job in the environment but its proxy's
  // arguments name the job: --control-port host:port (unique per mpiexec) and --pgid.
  const char* parent_cmdline;
  size_t parent_cmdline_size;
};

// Fills every field of `out` the environment knows: launcher, sources, rank, world
// size, local rank/size, node rank, appnum, universe size, job id, host, launcher name,
// PMI interface. Fields not known are -1 or empty; pid and mpi_rank are left -1 (the
// runtime fills them). A singleton gets rank 0 of 1 and an empty job id.
void LaunchInfoFromEnvironment(const LaunchEnvironment& env, mpidbg_launch_info* out);

// Tasks on node `node_index` in Slurm's SLURM_STEP_TASKS_PER_NODE syntax ("2(x3),1"),
// or -1 when the text is malformed or names fewer nodes.
int TasksOnSlurmNode(const char* tasks_per_node, int node_index);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_LAUNCH_ENV_H
