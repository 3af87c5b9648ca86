// monitor_write.h — the job's monitoring file (mpidbg.monitor/1, docs/OUTPUT.md):
// every rank's counters gathered to MPI_COMM_WORLD rank 0, which writes one file.
// Defines mpidbg_monitor_write() (runtime_api.h).
//
// Collective over MPI_COMM_WORLD, PMPI_* only (nothing of it is counted or recorded),
// on a duplicate of MPI_COMM_WORLD so no message of it can match the application's.
// Memory at rank 0 stays bounded whatever the job's size: each rank formats its own
// entry (sparse: peers with non-zero counters only); rank 0 asks the ranks one at a
// time, in rank order, for their entry's size and then the entry, and streams it into
// `path`.tmp in pieces of at most 16 MiB, renamed to `path` when whole. No rank sends
// before it is asked, so nothing piles up at rank 0. Every rank learns the result.
#ifndef MPIDBG_RT_MONITOR_WRITE_H
#define MPIDBG_RT_MONITOR_WRITE_H

namespace mpidbg::rt {

// 0 on every rank when the file was written, -1 on every rank otherwise. Only rank 0's
// `path` is used.
int WriteMonitorFile(const char* path, int which);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MONITOR_WRITE_H
