// frame_fold.h — the frames of mpidbg's runtime and of the MPI library folded into one
// frame named after the MPI call, so a stack reads as the program made it:
// MPI_Recv ← wait_for_token ← main, not twenty frames of progress engine.
//
// A fold is a run of adjacent frames that lie in MPI code (the runtime, the MPI library
// and its transports, or a function named like MPI internals in a statically linked
// program), with system-library frames (libc, the dynamic linker, the vDSO) allowed on
// its inner side only (the poll or futex the progress engine sleeps in). A run is folded
// only when it holds an MPI_ or PMPI_ function: the outermost such names the frame,
// without its P. Runs without one (an MPI library's own progress thread) stay as they are.
#pragma once

#include <string>
#include <vector>

#include "host/model/snapshot.h"

namespace mpidbg::host {

enum class FrameOrigin { kMpi, kSystem, kProgram };

// Where a frame's code comes from, by module file name and function name.
FrameOrigin ClassifyFrame(const model::Frame& frame);

// The MPI call a function name stands for: "MPI_Recv" for MPI_Recv and PMPI_Recv, ""
// for any other name.
std::string MpiCallName(const std::string& function);

// Folds every such run (innermost first in, innermost first out). The folded frame has
// the MPI call as function, the module and pc of the frame that carries that name, and
// no file or line: the place a person wants is the caller's, the next frame.
std::vector<model::Frame> FoldMpiFrames(const std::vector<model::Frame>& frames);

}  // namespace mpidbg::host
