// call_info.h — what kind of MPI call a thread is in, and how to spell ranks and tags.
#pragma once

#include <string>
#include <string_view>

#include "model/snapshot.h"

namespace mpidbg::job {

// How a thread blocked in the call waits (call_ids.h classes; kUnknown: no idea).
enum class CallClass { kUnknown, kP2P, kWait, kColl, kOther };

// From the snapshot's call_class, else from the call's name via call_ids.h.
CallClass ClassOfThread(const model::Thread& thread);
CallClass ClassOfCall(std::string_view call);

// MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testsome: done when any request is.
bool CompletesOnAny(std::string_view call);

// The name a call matches others under: a large-count twin (MPI_Allreduce_c,
// MPI_Sendrecv_c) is its twin (MPI 4.0: an MPI_Allreduce on one rank and an
// MPI_Allreduce_c on another are the same collective). Other names are themselves.
std::string MatchingCallName(std::string_view call);
bool IsFinalize(std::string_view call);
// A neighbourhood collective (MPI_Neighbor_*, MPI_Ineighbor_*, their _c and _init
// forms): it exchanges data with the process's topology neighbours only.
bool IsNeighborhoodCollective(std::string_view call);

// "3", "ANY_SOURCE", "PROC_NULL", "?".
std::string RankText(const model::Rank& rank);
// "7", "ANY_TAG".
std::string TagText(const model::Tag& tag);

// A frame's name in a call path: its function, else its pc in its module.
std::string FrameName(const model::Frame& frame);
// "hang.c:7" (the file's base name), for a frame whose file and line are known.
std::string FrameFileLine(const model::Frame& frame);

}  // namespace mpidbg::job
