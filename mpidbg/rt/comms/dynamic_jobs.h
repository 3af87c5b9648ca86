// dynamic_jobs.h — intercommunicators that join two jobs (MPI_Comm_spawn, _multiple,
// the child's parent, MPI_Comm_accept, MPI_Comm_connect, MPI_Comm_join).
//
// Their remote group lives in another MPI_COMM_WORLD, which this process cannot
// translate into: MPI_Group_translate_ranks gives MPI_UNDEFINED. Neither can it tell
// which job that is. Only the other side knows both, so the two sides tell each other
// with one PMPI_Allgather over the new intercommunicator (see dynamic_jobs.cc), and each
// records the other job's launcher id and the remote world ranks in that job
// (records.h: remote_job_id, remote_job_ranks). The same exchange gives both sides the
// facts to derive one communicator id, so a host matches operations across the jobs.
#ifndef MPIDBG_RT_DYNAMIC_JOBS_H
#define MPIDBG_RT_DYNAMIC_JOBS_H

#include <mpi.h>
#include <stdint.h>

namespace mpidbg::rt {

// Before PMPI_Init: MPIDBG_DYNAMIC_EXCHANGE=0 turns the exchange off (needed when the
// other job runs without the runtime: it would never join the collective).
void ReadDynamicSettings();

// Publishes the record of an intercommunicator made by a dynamic-process call `call`
// (enum mpidbg_call_id) over the communicator `parent_job_id` names (0: none).
// `exchange`: talk to the other side. Every process on both sides must then reach this
// at the matching point, as the wrappers do: after PMPI of the creating call returned,
// and in the child after PMPI_Init (PublishParentAtInit). Without it (a parent
// intercommunicator first seen in MPI_Comm_get_parent, where the parent side is not
// waiting) the id is this side's own and the remote job stays unnamed.
void PublishDynamicComm(MPI_Comm comm, int32_t call, uint64_t parent_job_id, uint64_t info,
                        bool exchange);

// In a spawned child, after PMPI_Init and once the launch info is published: records
// the parent intercommunicator. Its parent does the same exchange in MPI_Comm_spawn.
void PublishParentAtInit();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DYNAMIC_JOBS_H
