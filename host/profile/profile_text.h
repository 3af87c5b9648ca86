// profile_text.h — `mpidbg profile` as text.
#pragma once

#include <string>

#include "host/profile/profile_model.h"

namespace mpidbg::profile {

constexpr size_t kTopFunctions = 10;
constexpr size_t kTopSites = 10;

// Job totals (seconds and shares outside MPI / working / blocked), the top functions
// and call sites, one line per rank. `rank` >= 0: that rank in detail instead.
std::string ProfileToText(const JobProfile& job, int rank = -1);

}  // namespace mpidbg::profile
