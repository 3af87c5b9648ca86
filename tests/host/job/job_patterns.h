// job_patterns.h — synthetic jobs of any size, written as one "mpidbg.snapshot/1"
// document per rank, so `mpidbg job --snapshots DIR` can be measured on thousands of
// ranks without launching them.
#pragma once

#include <string>
#include <vector>

#include "host/model/snapshot.h"

namespace mpidbg::scale {

// Pattern names: "ring", "barrier-but-one", "any-source", "healthy".
const std::vector<std::string>& PatternNames();

// Rank `rank` of a `size`-rank job in `pattern`. Unknown pattern: throws
// std::invalid_argument.
model::ProcessSnapshot MakeRankSnapshot(const std::string& pattern, int rank, int size);
// The same with `world` (0 .. size-1) as MPI_COMM_WORLD's members, shared with the
// other ranks' snapshots as the readers share them.
model::ProcessSnapshot MakeRankSnapshot(const std::string& pattern, int rank, int size,
                                        const model::RankList& world);

// Every rank of a `size`-rank job in `pattern`, in rank order, sharing one world list.
std::vector<model::ProcessSnapshot> MakeJob(const std::string& pattern, int size);

// Writes DIR/rank-NNNNNN.json for every rank. Returns "" on success, else why not.
std::string WritePattern(const std::string& pattern, int size, const std::string& dir);

}  // namespace mpidbg::scale
