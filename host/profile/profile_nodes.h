// profile_nodes.h — `profile --slurm` and `profile --launcher` with ranks on other
// hosts: one node reader per node (`collect --content profile`, through fanout/), their
// records merged into one JobProfile as they arrive, the launcher's ranks on this host
// read here.
#pragma once

#include "host/cli/target_list_options.h"
#include "host/collect/node_record_parser.h"
#include "host/profile/profile_model.h"
#include "host/util/status.h"

namespace mpidbg::profile {

// Node records of profile content into `job` (sized by their headers; the job-wide
// totals are for MergeRanks once all are in).
host::NodeRecordSinks ProfileRecordSinks(JobProfile* job);

// The whole read. A node that fails is named on stderr and its ranks are left out;
// only a job of which no rank could be read fails.
host::Result<JobProfile> ReadProfileAcrossNodes(const cli::TargetListOptions& targets);

}  // namespace mpidbg::profile
