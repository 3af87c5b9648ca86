// monitor_mpit.h — the MPI's own communication monitoring, read through MPI_T into the
// monitoring block (records.h: mpidbg_monitor's mpit_* fields); defines
// mpidbg_monitor_refresh_mpit() (runtime_api.h). Findings on what Open MPI and MPICH
// publish: mpidbg/doc/monitoring_mpit.md.
//
// Only PMPI_T_* is called, and performance-variable handles are allocated for the
// monitoring variables alone (other components' handles can crash Open MPI, see
// mpidbg/doc/metadata.md). The MPI_T session and its handles live from the first read
// to MPI_Finalize, because Open MPI's per-communicator operation counters
// (coll_monitoring_o2a/a2o/a2a) count from their handle's start.
#ifndef MPIDBG_RT_MONITOR_MPIT_H
#define MPIDBG_RT_MONITOR_MPIT_H

namespace mpidbg::rt {

// At MPI_Finalize (MPI still usable): a last read into the block, then the session,
// its handles and the runtime's MPI_T reference are released; later refreshes refuse.
void MonitorMpitFinalRead();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MONITOR_MPIT_H
