// summary.h — one-line descriptions of calls, the strings groups, edges and hints show:
//   "MPI_Recv(source=ANY_SOURCE, tag=5, comm=MPI_COMM_WORLD)", "MPI_Bcast(root=0, comm=X)",
//   "MPI_Waitall(2 requests: MPI_Irecv(source=1, tag=3, comm=X), MPI_Isend(...))".
// Ranks inside are communicator ranks, as the program wrote them; communicators are
// shown by name, else by id.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "job/job_index.h"
#include "model/snapshot.h"

namespace mpidbg::job {

// A point-to-point or nonblocking collective operation of rank i.
std::string OperationSummary(const JobIndex& job, std::size_t i, const model::Operation& op);
// A collective call without its communicator when `comm_label` is empty:
// "MPI_Bcast(root=0)", "MPI_Barrier".
std::string CollectiveSummary(const std::string& call, const std::optional<int>& root,
                              const std::string& comm_label);
// What a thread of rank i in MPI is in, from its call class and recorded arguments.
std::string ThreadCallSummary(const JobIndex& job, std::size_t i, const model::Thread& thread);

}  // namespace mpidbg::job
