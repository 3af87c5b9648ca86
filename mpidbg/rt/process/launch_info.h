// launch_info.h — the launcher/PMI view of this process (records.h: mpidbg_launch_info),
// published through root.launch once MPI_Init has returned.
#ifndef MPIDBG_RT_LAUNCH_INFO_H
#define MPIDBG_RT_LAUNCH_INFO_H

namespace mpidbg::rt {

// Before PMPI_Init: reads the environment as the launcher set it (an MPI library may
// add variables of its own while it initialises) and the parent's command line.
void CaptureLaunchEnvironment();

// After PMPI_Init: adds MPI's own view (MPI_Comm_rank, the MPI_APPNUM and
// MPI_UNIVERSE_SIZE attributes of MPI_COMM_WORLD), pid and host, and points
// root.launch at the record.
void PublishLaunchInfo();

// The launcher's name of this process's job (mpidbg_launch_info.job_id), "" before
// CaptureLaunchEnvironment or when no launcher named it.
const char* LaunchJobId();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_LAUNCH_INFO_H
