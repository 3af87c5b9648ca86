// snapshot_text.h — human-readable views of one process snapshot.
#pragma once

#include <string>

#include "host/model/snapshot.h"

namespace mpidbg::host {

std::string ProcessHeaderText(const model::ProcessSnapshot& snap);
std::string ThreadsText(const model::ProcessSnapshot& snap);
std::string QueuesText(const model::ProcessSnapshot& snap);
// Header, threads and queues.
std::string SnapshotText(const model::ProcessSnapshot& snap);
// One line: "MPI_Recv(source=1, tag=7, comm=MPI_COMM_WORLD) 40 bytes MPI_INT x10, pending".
std::string OperationText(const model::Operation& op);

}  // namespace mpidbg::host
