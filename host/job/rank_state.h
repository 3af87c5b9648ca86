// rank_state.h — what one rank as a whole is doing, from its threads.
//
// A rank is blocked when it has a blocked thread and no thread that could still act (one
// outside MPI, or one in MPI but not blocked); only then can it be part of a deadlock.
// Under MPI_THREAD_SINGLE and MPI_THREAD_FUNNELED only the main thread may call MPI, so
// other threads outside MPI (an MPI library's own progress or network threads, say)
// cannot change anything and do not count.
#pragma once

#include <cstddef>

#include "job/job_analysis.h"
#include "job/job_index.h"
#include "model/snapshot.h"

namespace mpidbg::job {

RankState ClassifyRank(const model::ProcessSnapshot& snapshot);

// False for a thread the thread level forbids to call MPI.
bool MayCallMpi(const model::ProcessSnapshot& snapshot, const model::Thread& thread);

// Index of the thread that speaks for the rank: its first blocked thread, else its first
// thread in MPI; -1 when no thread is in MPI.
int RepresentativeThread(const model::ProcessSnapshot& snapshot);

// True when a thread of the rank is in MPI_Finalize: whatever happens next, the rank
// will send nothing more, so it satisfies nobody's receive.
bool IsFinalizing(const model::ProcessSnapshot& snapshot);

// The rank's line of the report: state, representative call and summary.
RankReport DescribeRank(const JobIndex& job, std::size_t i);

}  // namespace mpidbg::job
