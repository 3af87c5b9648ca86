// wait_graph.h — what every blocked thread of a blocked rank needs before it can return.
//
// Each thread needs all of its requirements; each requirement needs all (kAnd) or any
// one (kOr) of its world ranks. Requirements a posted counterpart already
// satisfies (a matching send for a receive, a posted receive for a send) are dropped.
// A thread whose call cannot be read is "unknown" and counts as able to proceed, so the
// graph never invents a deadlock.
#pragma once

#include <cstddef>
#include <vector>

#include "job/collective_index.h"
#include "job/job_analysis.h"
#include "job/job_index.h"
#include "job/message_index.h"

namespace mpidbg::job {

struct ThreadWaits {
  std::size_t rank_index = 0;              // snapshot index
  std::size_t thread_index = 0;
  bool unknown = false;                    // cannot tell what it needs: it may proceed
  std::vector<std::size_t> requirements;   // indices into WaitGraph::requirements
};

struct WaitGraph {
  std::vector<WaitRequirement> requirements;
  std::vector<ThreadWaits> threads;        // the blocked threads of blocked ranks
  // World ranks with a blocked thread whose wait names ranks no snapshot holds. Such a
  // wait is left out (those ranks may act), yet it is why the verdict on these ranks is
  // open when the job was read in part. Sorted, unique.
  std::vector<int> outside_view;
};

// states[i] is the state of snapshot i.
WaitGraph BuildWaitGraph(const JobIndex& job, const MessageIndex& messages,
                         CollectiveIndex& collectives, const std::vector<RankState>& states);

}  // namespace mpidbg::job
