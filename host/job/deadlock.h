// deadlock.h — which blocked ranks can never proceed.
//
// Least fixpoint, computed forwards: ranks that are not blocked can proceed (finalized
// ones never do); a blocked rank can proceed once one of its blocked threads has every
// requirement satisfied, and a requirement is satisfied once all (kAnd) or any one (kOr)
// of its ranks can proceed. What is left blocked when nothing changes any more is deadlocked. This is the
// OR-knot condition, not merely a cycle: an ANY_SOURCE receive is stuck only when every
// possible sender is. A rank in MPI_Finalize may proceed (out of MPI_Finalize) but sends
// nothing afterwards, so it satisfies no requirement of others.
//
// Linear in ranks plus edges: each requirement is settled at most once. An ANY_SOURCE
// wait drawn on a big group (rank_set.h) counts as one edge per group, not per member.
#pragma once

#include <vector>

#include "job/job_analysis.h"
#include "job/job_index.h"
#include "job/wait_graph.h"

namespace mpidbg::job {

// states[i] and finalizing[i] describe snapshot i. Marks graph.requirements satisfied or
// not and returns the verdict; `waits` is left empty for the caller to fill.
DeadlockReport FindDeadlock(const JobIndex& job, const std::vector<RankState>& states,
                            const std::vector<bool>& finalizing, WaitGraph& graph);

}  // namespace mpidbg::job
