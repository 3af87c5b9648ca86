// stack_call.h — what a thread is doing in MPI as its stack alone shows it, for targets
// read without mpidbg's runtime (the stacks view): the MPI call of its folded frame
// (frame_fold.h), whether that call blocks, and whether the thread is the program's or
// one the MPI library started for itself. Pure: tested over synthetic frames.
#pragma once

#include <string>
#include <vector>

#include "host/model/snapshot.h"

namespace mpidbg::host {

// True for calls that wait for other ranks before they return: blocking
// point-to-point (MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Probe, ...), MPI_Wait*,
// blocking collectives (MPI_Barrier, MPI_Comm_split, MPI_File_open, ...) and
// MPI_Finalize. MPI_Isend, MPI_Test, MPI_Ibarrier and the like return at once.
bool IsBlockingCall(const std::string& call);

// "p2p" | "wait" | "coll" | "other" | "" (not an MPI call the contract lists).
std::string CallClassName(const std::string& call);

// The thread a folded stack describes (state, call, call_class, frames):
// - the innermost frame is an MPI call: "blocked" in it when the call blocks, else
//   "in_mpi";
// - an MPI call further out (the program's callback run by MPI, e.g. an error handler
//   or a reduction op): "in_mpi" in that call;
// - no MPI call: "not_in_mpi";
// - no frames (not unwound): "unknown", with the stack's error.
model::Thread ThreadFromStack(int64_t tid, std::vector<model::Frame> folded,
                              std::optional<std::string> stack_error);

// A thread of the full view whose recording is paused (recording_paused) and whose
// records therefore say "not_in_mpi" whatever it does: its state, call and call_class
// from its folded stack as ThreadFromStack reads them (state_from "stack"), or
// "unknown" when it was not unwound. Any other thread is left as it is.
void StateFromStackWhenPaused(model::Thread* thread);

// Whether a folded stack has a frame of the program (not MPI's, not a system
// library's): the MPI library's own threads (Open MPI's progress and PMIx threads)
// have none and are no thread of the application.
bool HasProgramFrame(const std::vector<model::Frame>& folded);

}  // namespace mpidbg::host
