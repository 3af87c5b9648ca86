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

}  // namespace mpidbg::profile
