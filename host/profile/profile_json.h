// profile_json.h — `mpidbg profile --json`: the "mpidbg.profile/1" document, the shape
// the runtime writes (docs/OUTPUT.md), whatever the source.
#pragma once

#include <nlohmann/json.hpp>

#include "host/profile/profile_model.h"

namespace mpidbg::profile {

nlohmann::json ProfileToJson(const JobProfile& job);

// Its pieces, as node records carry them (`collect --content profile`): the "job"
// object (with the job-wide totals, or without them for a node's share, whose reader
// merges them from the ranks) and one entry of "ranks".
nlohmann::json ProfileJobObject(const JobProfile& job, bool with_totals);
nlohmann::json ProfileRankObject(const RankProfile& rank, int64_t period_ns);

}  // namespace mpidbg::profile
