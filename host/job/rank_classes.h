// rank_classes.h — each rank's call path from its stack, and the ranks grouped by it
// (call_tree.h): where every rank is, as a handful of classes however many ranks.
//
// A path runs from `main` (or a thread's start) to the innermost frame — the MPI call,
// folded from the runtime's wrapper and the library — each frame named with the line it
// is at where the program has line info ("exchange at ring.c:12"), so ranks in one
// function at different calls are told apart. A rank without frames (stacks not read)
// has the one-element path of its call or its state ("not in MPI", "finalized").
#pragma once

#include <string>
#include <vector>

#include "job/call_tree.h"
#include "job/job_analysis.h"

namespace mpidbg::job {

// Outermost first.
std::vector<std::string> CallPathOf(const RankReport& rank);

CallTree RankClasses(const std::vector<RankReport>& ranks);

}  // namespace mpidbg::job
