// job_join.h — inputs from several jobs (a parent and the job it spawned, two jobs
// joined by MPI_Comm_accept/connect) made into one job the later steps analyse as they
// analyse any other.
//
// Every step is keyed by world rank and communicator id, and neither is unique across
// jobs: each job has a rank 0 and an MPI_COMM_WORLD with the same id. So before the
// analysis the snapshots are rewritten:
//  - ranks: job A's world ranks stay; job B's are shifted past A's size (analysis
//    ranks), and so on. A rank's job and rank in it are kept for the renderers.
//  - communicator ids: prefixed with their job's label, except those of an
//    intercommunicator between two jobs, whose id both sides share (the runtime derives
//    it from both sides, rt/comms/dynamic_jobs.h).
//  - the remote group of such an intercommunicator: from the ranks the runtime
//    recorded in the other job (Communicator::remote_job), as analysis ranks; left
//    unknown when that job is not among the inputs (its waits then count as able to
//    proceed, as for any rank not read).
// A job is told by its launcher's job id (launch.job_id): the jobs are in order of
// first appearance, those spawned by another (holding a parent intercommunicator) after
// the others.
#pragma once

#include <vector>

#include "job/job_analysis.h"
#include "model/snapshot.h"

namespace mpidbg::job {

// The jobs of `snapshots`; one entry (or none, without snapshots) means a single job
// and nothing to rewrite. An input whose job is not recorded counts with the first job.
std::vector<JobSpan> FindJobs(const std::vector<model::ProcessSnapshot>& snapshots);

// Rewrites `snapshots` (two jobs or more in `jobs`, from FindJobs) as one job, and
// returns for each snapshot its job's index in `jobs` (-1 for none).
std::vector<int> JoinJobs(const std::vector<JobSpan>& jobs,
                          std::vector<model::ProcessSnapshot>* snapshots);

// Jobs the inputs reach through an intercommunicator (Communicator::remote_job) but do
// not hold, one entry each, as ranks the verdict does not cover (rank unknown); and in
// `comm_ids` the ids of those intercommunicators. `jobs` from FindJobs.
std::vector<UnreadRank> MissingJobs(const std::vector<model::ProcessSnapshot>& snapshots,
                                    const std::vector<JobSpan>& jobs,
                                    std::vector<std::string>* comm_ids);

}  // namespace mpidbg::job
