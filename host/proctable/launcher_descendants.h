// launcher_descendants.h — the ranks of a launcher that keeps no MPIR process table
// (MPICH's Hydra on Debian is stripped of it), found on this host among its descendant
// processes: mpiexec starts a proxy (hydra_pmi_proxy, orted) and the proxy the ranks,
// each with the rank its launcher gave it in its environment.
//
// Ranks on other hosts hang below a remote shell's process there, out of reach of this
// host's /proc: a job whose ranks span hosts is found only in part this way (the ranks
// read then say by their world size which ones are missing).
#pragma once

#include <cstdint>
#include <vector>

#include "host/proctable/mpir_proctable.h"
#include "host/target/process_tree.h"
#include "host/util/status.h"

namespace mpidbg::host {

// The live `launcher_pid`'s descendants whose environment names a rank an MPI launcher
// gives (target/rank_environment.h: NamedByMpiLauncher), in rank order, each the first
// of its line of descent to name one (a rank's own children inherit its variables).
// Entries have an empty host name (this host) and the executable of /proc/PID/exe.
// kNoSupport when no such descendant exists (or the launcher is gone). `parents` is
// this host's parent table (ProcessParents), read once by a caller that walks it more
// than once.
Result<std::vector<LauncherProcess>> DescendantRanks(int64_t launcher_pid,
                                                     const std::map<int64_t, int64_t>& parents);
Result<std::vector<LauncherProcess>> DescendantRanks(int64_t launcher_pid);

}  // namespace mpidbg::host
