// profile_plugin.h — the profile from live processes or cores, through the plugin's
// mpidbg_profile_* functions (mpidbg_ext.h, version 3); call sites are named with the
// target's own modules and symbols (host/symbols).
#pragma once

#include <vector>

#include "host/extensions/extension_session.h"
#include "host/profile/profile_model.h"

namespace mpidbg::profile {

// One rank. `period_ns`, `clock` and `signal` come back for the job. No support (exit
// status 1) when the DLL has no sampling functions or sampling never ran.
struct RankSampling {
  RankProfile rank;
  int64_t period_ns = 0;
  std::string clock;
  int signal = 0;
  int world_size = 0;  // from the process summary, 0 when not known
};
host::Result<RankSampling> ReadRankProfile(extensions::ExtensionTarget& t);

// One target (a node reader's rank, `collect --content profile`); a target without a
// world rank is an error.
host::Result<RankSampling> ReadTargetProfile(const host::TargetSpec& spec);

// Every target; failures are named on stderr and left out, and only a job where no
// target could be read fails.
host::Result<JobProfile> ReadJobProfile(const std::vector<host::TargetSpec>& targets);

// "ring+0x11a9" from "/path/to/ring" and 0x11a9.
std::string SiteName(const std::string& module, uint64_t offset);
// "ring.c:12": a site's name where the module's line table covers it.
std::string SourceSiteName(const std::string& file, int line);

}  // namespace mpidbg::profile
