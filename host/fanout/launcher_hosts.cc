// launcher_hosts.cc — the launcher's ranks grouped by host.
#include "host/fanout/launcher_hosts.h"

#include "host/proctable/launcher_ranks.h"

namespace mpidbg::host {

Result<LauncherRanks> SplitLauncherRanks(int64_t launcher_pid) {
  auto job = ReadLauncherRanks(launcher_pid);
  if (!job.ok()) return job.status();
  LauncherRanks r;
  for (const LauncherProcess& p : job->ranks) {
    if (IsLocalHost(p.host_name)) {
      r.local_pids.push_back(p.pid);
    } else {
      r.remote.pids_by_host[p.host_name].push_back(p.pid);
    }
  }
  r.remote.job_id = job->remote_job_id;
  r.remote.job_hosts = job->remote_hosts;
  return r;
}

}  // namespace mpidbg::host
