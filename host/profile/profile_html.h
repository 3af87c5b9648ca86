// profile_html.h — `profile --html`: where the job's time went, on one self-contained
// page: the job and each rank as bars (outside MPI, in MPI working, in MPI blocked),
// the MPI functions and call sites; each rank's JSON object on demand.
#pragma once

#include <string>

#include "host/profile/profile_model.h"

namespace mpidbg::profile {

std::string ProfileToHtml(const JobProfile& job);

}  // namespace mpidbg::profile
