// call_arguments.h — the arguments of the MPI call a thread is blocked in, from the
// values its caller passed (call_site_values.h), for the stacks view: the peer, tag and
// communicator of blocking point-to-point calls, the communicator and root of
// collectives. Only arguments passed in registers (the first six) are known; a value
// the caller's DWARF does not give stays unknown. Pure: tested with hand-made values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/model/snapshot.h"
#include "host/stacks/call_site_values.h"

namespace mpidbg::host {

// The MPI library's encoding of the handles and wildcards that matter here.
struct MpiConstants {
  std::optional<uint64_t> comm_world;  // MPICH: 0x44000000; Open MPI: &ompi_mpi_comm_world
  std::optional<uint64_t> comm_self;
  int any_source = -1000;              // MPICH -2, Open MPI -1
  int proc_null = -1000;               // MPICH -1, Open MPI -2
  int any_tag = -1000;                 // both -1
  bool known = false;                  // false: the library is neither, nothing is named
};

MpiConstants MpichConstants();
// Open MPI's predefined communicators are objects; their addresses in the target.
MpiConstants OpenMpiConstants(uint64_t comm_world, uint64_t comm_self);

// Fills `thread` (in `thread->call`) from the call's values: for a blocking
// point-to-point call an operation (peer, tag and communicator when all are known), for
// a collective comm_name and root; arguments_from = "caller_frame" when anything was
// read. The communicator is named MPI_COMM_WORLD or MPI_COMM_SELF when its handle is
// that of the library, else written as its handle in hex (a value of this process only).
void ApplyCallArguments(const CallSiteValues& values, const MpiConstants& mpi, model::Thread* thread);

}  // namespace mpidbg::host
