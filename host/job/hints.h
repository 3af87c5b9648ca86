// hints.h — what probably went wrong, in words: sends nobody receives, receives whose
// message went out with another tag or on another communicator, receives from ranks
// that have finalized, members of one communicator in different collectives.
#pragma once

#include <string>
#include <vector>

#include "job/collective_index.h"
#include "job/job_analysis.h"
#include "job/job_index.h"
#include "job/message_index.h"

namespace mpidbg::job {

// Posted sends for which the receiver has posted no matching receive (a receiver we
// could not read is given the benefit of the doubt).
std::vector<UnmatchedMessage> FindUnmatched(const JobIndex& job, const MessageIndex& messages);

// Communicators whose members sit in different blocking collectives, or in the same one
// with different roots.
std::vector<CollectiveMismatch> FindCollectiveMismatches(const JobIndex& job);

// `ranks[i]` describes snapshot i.
std::vector<std::string> MakeHints(const JobIndex& job, const MessageIndex& messages,
                                   CollectiveIndex& collectives,
                                   const std::vector<RankReport>& ranks,
                                   const std::vector<CollectiveMismatch>& mismatches);

}  // namespace mpidbg::job
