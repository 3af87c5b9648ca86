// stacks_view.h — the job in the reduced view: ranks read from their stacks alone (not
// started under `mpidbg run`, OUTPUT.md "view": "stacks"). What stacks prove is little,
// and nothing more is claimed:
// - every rank read blocked in a blocking MPI call, and (live) no rank's stack moved
//   between two reads: hung, all ranks blocked in MPI. Never a deadlock or a cycle: the
//   stacks do not say what each rank waits for.
// - ranks in different collectives: what the stacks show, not a verdict, since they do
//   not say whether the ranks share a communicator.
#pragma once

#include <vector>

#include "job/job_analysis.h"
#include "model/snapshot.h"

namespace mpidbg::job {

// True when some readable rank was read in the stacks view: the job is then judged in it.
bool IsStacksView(const std::vector<model::ProcessSnapshot>& snapshots);

// Ranks no launcher variable named get the lowest numbers not taken, in the order of the
// targets; a size of 0 becomes the number of targets. True when any rank was numbered.
bool NumberRanksByOrder(std::vector<model::ProcessSnapshot>* snapshots);

// Hung: every rank of the job read, each blocked in MPI, and a second read found no
// stack moved. A core gives one read only, so never this.
bool StacksHung(const JobReport& report);

// The verdict of the stacks over the described ranks (RankReport per rank read).
StacksVerdict JudgeStacks(const std::vector<RankReport>& ranks);

// Collective mismatches the stacks prove: ranks whose blocked collective's communicator
// argument, read from the caller's frame, is MPI_COMM_WORLD (the one communicator the
// stacks can tell is shared), sitting in different calls or with different roots.
// Other handles are values of one process and prove nothing across ranks.
std::vector<CollectiveMismatch> ProvenCollectiveMismatches(const std::vector<RankReport>& ranks);

}  // namespace mpidbg::job
