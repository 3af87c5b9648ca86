// coverage.h — which ranks of the job the verdict covers, and which it does not: ranks
// whose process or core could not be read, and ranks of the world no input holds.
//
// The analysis counts every rank it has not read as able to proceed, so a deadlock it
// reports is proven; the converse does not hold: "no deadlock" means nothing while an
// unread rank may be the one the others wait for. This step names those ranks so the
// renderers can say so before anything else.
#pragma once

#include <vector>

#include "job/job_analysis.h"
#include "job/job_index.h"

namespace mpidbg::job {

// One entry per rank not read: unreadable processes (with their rank when it is known,
// or when it is the only rank missing and the only process of unknown rank that
// failed) and world ranks 0..size-1 that no input holds. The world size is the largest
// a snapshot reports. `ranks[i]` describes snapshot i.
std::vector<UnreadRank> FindUnreadRanks(const JobIndex& job, const std::vector<RankReport>& ranks);

// Ranks whose records were read in part (their snapshot's process.damage), by rank.
std::vector<PartialRank> FindPartialRanks(const JobIndex& job);

// Blocked ranks with a wait that names a rank of `unread`, or on ranks no snapshot holds
// (`outside_view`, from the wait graph): their verdict would change if the unread rank
// were stuck too. Deadlocked ranks are not among them (their verdict holds anyway).
std::vector<int> RanksWaitingOnUnread(const DeadlockReport& deadlock,
                                      const std::vector<UnreadRank>& unread,
                                      const std::vector<int>& outside_view);

}  // namespace mpidbg::job
