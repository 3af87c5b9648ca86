// mpi_library.h — whether a target is an MPI process at all: the module of the MPI
// library it loads, and the refusal of one that loads none (a launcher, a shell,
// `timeout` named among a job's pids), which every reader of targets gives alike.
#pragma once

#include <string>

#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

// The module of the MPI library the target has loaded (the one defining PMPI_Init or
// MPI_Init), "" when it has none: such a process is no MPI process and is refused.
std::string MpiLibraryModule(OpenedTarget& target);

// The refusal of a target without any MPI library and without MPI debugging support:
// Status::NotMpi, one short sentence naming the process and its program.
Status NotMpiProcess(OpenedTarget& target);

}  // namespace mpidbg::host
