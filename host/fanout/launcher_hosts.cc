// launcher_hosts.cc — the launcher's ranks grouped by host.
#include "host/fanout/launcher_hosts.h"

#include "host/proctable/launcher_ranks.h"

namespace mpidbg::host {

Result<LauncherRanks> SplitLauncherRanks(int64_t launcher_pid) {
  auto table = ReadLauncherRanks(launcher_pid);
  if (!table.ok()) return table.status();
  LauncherRanks r;
  r.ranks = static_cast<int>(table->size());
  for (const LauncherProcess& p : *table) {
    if (IsLocalHost(p.host_name)) {
      r.local_pids.push_back(p.pid);
    } else {
      r.remote_pids[p.host_name].push_back(p.pid);
    }
  }
  return r;
}

}  // namespace mpidbg::host
