// read_stacks_view.h — a process without mpidbg's runtime (and without a message-queue
// DLL that can read it) read from its threads' stacks alone: the reduced view of
// OUTPUT.md ("view": "stacks"). Each thread's MPI call comes from its folded frame (the
// MPI library exports its MPI_/PMPI_ entry points), its rank from the launcher's
// environment; communicators, messages and requests are not known.
#pragma once

#include "host/model/snapshot.h"
#include "host/target/mpi_library.h"
#include "host/target/opened_target.h"

namespace mpidbg::host {

// Reads every thread's stack and lets the target go. The application's threads (those
// with a frame of the program) are listed; the MPI library's own threads are not.
// Errors: stacks are turned off (MPIDBG_STACKS=0), or no thread could be unwound.
Result<model::ProcessSnapshot> ReadStacksView(OpenedTarget& target, const std::string& library);

}  // namespace mpidbg::host
