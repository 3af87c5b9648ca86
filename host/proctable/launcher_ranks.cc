// launcher_ranks.cc — see launcher_ranks.h.
#include "host/proctable/launcher_ranks.h"

#include <cstdio>
#include <string>

#include "host/proctable/launcher_descendants.h"

namespace mpidbg::host {

Result<std::vector<LauncherProcess>> ReadLauncherRanks(int64_t launcher_pid) {
  auto table = ReadLauncherProctable(launcher_pid);
  if (table.ok() || table.status().kind() != ErrorKind::kNoSupport) return table;
  auto below = DescendantRanks(launcher_pid);
  if (!below.ok()) {
    return Status::Error(table.status().kind(),
                         table.status().message() + "; no process below it on this host names "
                         "an MPI rank either; give the rank process ids with --pids instead");
  }
  std::fprintf(stderr,
               "mpidbg: launcher %lld keeps no MPIR process table: its ranks are the %zu "
               "process%s below it on this host that name an MPI rank (ranks on other hosts "
               "are not found this way)\n",
               static_cast<long long>(launcher_pid), below->size(),
               below->size() == 1 ? "" : "es");
  return below;
}

Result<std::vector<int64_t>> LauncherLocalRankPids(int64_t launcher_pid) {
  auto table = ReadLauncherRanks(launcher_pid);
  if (!table.ok()) return table.status();
  std::vector<std::string> remote;
  auto local = LocalRankPids(table.value(), &remote);
  if (!local.ok()) return local.status();
  for (const std::string& r : remote) {
    std::fprintf(stderr, "mpidbg: %s is on another host and is left out\n", r.c_str());
  }
  return local;
}

}  // namespace mpidbg::host
