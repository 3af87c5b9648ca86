// profile_file.h — the "mpidbg.profile/1" file the runtime writes at MPI_Finalize
// (docs/OUTPUT.md, last section) read into the model.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "host/profile/profile_model.h"
#include "host/util/status.h"

namespace mpidbg::profile {

// Errors are "cannot be read" (exit status 3), one sentence naming `name` and the key.
host::Result<JobProfile> ProfileFromJson(const nlohmann::json& doc, const std::string& name);
host::Result<JobProfile> LoadProfileFile(const std::string& path);

// The pieces a node record carries (`collect --content profile`, profile_json.h): the
// "job" object, which sizes `job` to its world size (the largest any node names) and
// must agree on the period and clock; and one entry of "ranks", claimed in `job`. The
// job-wide totals are left to MergeRanks once every rank is in.
host::Status ProfileJobFromJson(const nlohmann::json& job_object, JobProfile* job);
host::Status AddProfileRankFromJson(const nlohmann::json& entry, JobProfile* job);

}  // namespace mpidbg::profile
