// collective_index.h — which ranks have joined which collective on which communicator.
//
// A rank has joined a collective when a thread of it is in that call on that
// communicator (same root), when it waits for or has posted that nonblocking collective,
// or, for MPI_Finalize, when it has finalized. A collective waits only for the members
// that have not joined; when every member has, it completes.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "job/job_index.h"

namespace mpidbg::job {

struct CollectiveCall {
  std::string comm_id;  // kFinalizeComm for MPI_Finalize
  std::string call;
  int root = -1;        // -1: none (or not recorded)
};

// The collective a thread is in, nullopt when it is not in one we can identify. On an
// intercommunicator the two groups pass different root arguments for the same call, so
// the root is not part of its identity there.
std::optional<CollectiveCall> CollectiveOfThread(const JobIndex& job, const model::Thread& thread);
// The nonblocking collective an operation stands for, nullopt for point-to-point.
std::optional<CollectiveCall> CollectiveOfOperation(const model::Operation& op,
                                                    const std::string& comm_id);

class CollectiveIndex {
 public:
  explicit CollectiveIndex(const JobIndex& job);

  // Members of the call's communicator, present in the job, that have not joined it;
  // nullptr when the communicator is unknown.
  const std::vector<int>* Outsiders(const CollectiveCall& call);

  // For a neighbourhood collective of snapshot i: the world ranks of i's topology
  // neighbours (sources and destinations: it receives from the ones and may wait for
  // the others to receive) that have not joined it, sorted, unique. Neighbours no
  // snapshot holds are left out and counted in *outside_view. nullopt for other calls,
  // and when rank i's neighbours are not known (then the whole communicator counts).
  std::optional<std::vector<int>> NeighborOutsiders(std::size_t i, const CollectiveCall& call,
                                                    bool* outside_view) const;

 private:
  static std::string Key(const CollectiveCall& call);
  void Join(const CollectiveCall& call, int world_rank);

  const JobIndex& job_;
  std::unordered_map<std::string, std::unordered_set<int>> joined_;
  std::unordered_map<std::string, std::vector<int>> outsiders_;
};

}  // namespace mpidbg::job
