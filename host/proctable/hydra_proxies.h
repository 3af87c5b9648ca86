// hydra_proxies.h — the hosts of a Hydra job's ranks that run elsewhere, found from the
// launcher's side: MPICH's mpiexec starts one proxy (hydra_pmi_proxy) per host, through a
// remote shell for every other host ("ssh -x node2 "/usr/bin/hydra_pmi_proxy" --control-port
// login1:40123 ... --pgid 0 ... --proxy-id 1"), and that shell stays its child while the
// job runs. Its words name the host and the job: the control port is mpiexec's own while it
// runs, the pgid numbers its process groups (spawned jobs), and the runtime's launch record
// of every rank below such a proxy names the job "PORT/PGID" (mpidbg/rt/process/
// launch_env.cc), which `collect --job` matches on that host (target/hydra_arguments.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/target/hydra_arguments.h"
#include "host/util/status.h"

namespace mpidbg::host {

// What one bootstrap process's arguments say: where the proxy runs, and its options.
struct HydraBootstrap {
  std::string host;  // "" when mpiexec starts proxies through no remote shell (srun, ...)
  HydraProxyOptions proxy;
};

// The arguments of a process that starts a Hydra proxy: the proxy's path (quoted or not,
// whatever its directory) after the first word, its options after it. Where those name a
// remote shell (`--launcher ssh|rsh`), the word before the path is the host; through
// another launcher (`srun ... --input none /usr/bin/hydra_pmi_proxy ... --launcher
// slurm`) the host is not said. nullopt for anything else: a proxy run here (its path is
// the first word), a host word that is an option, no control port.
std::optional<HydraBootstrap> ParseHydraBootstrap(const std::vector<std::string>& argv);

// The proxies a live launcher started on other hosts, one job among them.
struct HydraRemoteProxies {
  std::string job_id;
  std::vector<std::string> hosts;  // in proxy order, each once
};

// From the live `launcher_pid`'s descendants on this host (target/process_tree.h) whose
// arguments are such a remote shell's. kNoSupport when there is none, saying so when
// its proxies were started through a resource manager instead (for Slurm, with the
// --slurm JOBID that reads them); the first job's proxies only if the launcher started
// several jobs (MPI_Comm_spawn: pgid 1, 2, ...), with the others named on stderr.
// `parents`: as for DescendantRanks.
Result<HydraRemoteProxies> FindHydraRemoteProxies(int64_t launcher_pid,
                                                  const std::map<int64_t, int64_t>& parents);
Result<HydraRemoteProxies> FindHydraRemoteProxies(int64_t launcher_pid);

}  // namespace mpidbg::host
