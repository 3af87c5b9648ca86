// progress.h — telling a stuck rank from a busy one with two reads of a live job.
//
// Ranks of a live job are stopped one after another (within milliseconds: all are
// interrupted before any is read, job_inputs.cc), so a correct program caught in the
// middle of a fast exchange (rank 0 read in MPI_Recv from 1, rank 1 read a moment later
// already in its next MPI_Recv from 0) can look like a cycle. A rank that is really
// stuck makes no MPI call between two reads; one that progresses does. The runtime
// counts each thread's MPI calls, so comparing two reads settles it.
#pragma once

#include <cstdint>
#include <vector>

#include "model/snapshot.h"

namespace mpidbg::job {

// Marks, in `later`, every blocked thread of a rank that made MPI calls since `earlier`
// (or that changed call) as "in_mpi", so the analysis treats it as able to proceed.
// Ranks are matched by world rank, threads by tid; a thread absent from `earlier`
// counts as progress. Threads without a call count (read from their stacks alone)
// progress when their folded stacks differ. A process of the stacks view whose rank
// is not known is matched by pid. Returns the world ranks found progressing, and their
// pids in `progressing_pids` when given.
std::vector<int> MarkProgressingRanks(const std::vector<model::ProcessSnapshot>& earlier,
                                      std::vector<model::ProcessSnapshot>* later,
                                      std::vector<int64_t>* progressing_pids = nullptr);

}  // namespace mpidbg::job
