// profile_json.h — `mpidbg profile --json`: the "mpidbg.profile/1" document, the shape
// the runtime writes (docs/OUTPUT.md), whatever the source.
#pragma once

#include <nlohmann/json.hpp>

#include "host/profile/profile_model.h"

namespace mpidbg::profile {

nlohmann::json ProfileToJson(const JobProfile& job);

}  // namespace mpidbg::profile
