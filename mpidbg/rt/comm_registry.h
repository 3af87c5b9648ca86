// comm_registry.h — communicator records: creation, lookup by handle, names, freeing.
//
// Lookup by handle is lock-free (it runs on every point-to-point call); creation,
// renaming and freeing take the registry's spinlock (they are not on a hot path).
#ifndef MPIDBG_RT_COMM_REGISTRY_H
#define MPIDBG_RT_COMM_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// What the op and thread records need from a communicator.
struct CommView {
  uint64_t handle = 0;
  uint64_t job_id = 0;  // 0 when the communicator is not known to the runtime
  const int32_t* world_ranks = nullptr;
  int32_t size = 0;
  const int32_t* remote_world_ranks = nullptr;
  int32_t remote_size = 0;
  bool inter = false;
};

CommView LookupComm(MPI_Comm comm);

// World rank of the normalised rank `peer` of `view` (the remote group on intercomms).
int32_t PeerWorld(const CommView& view, int32_t normalised_peer);

// Members of a communicator as world ranks, read from the MPI library. Arrays are
// malloc'd; ownership passes to PublishComm or is dropped by FreeMembers.
struct Members {
  int32_t rank = -1;
  int32_t* local = nullptr;
  int32_t local_size = 0;
  int32_t* remote = nullptr;
  int32_t remote_size = 0;
  bool inter = false;
};
bool ReadMembers(MPI_Comm comm, Members* out);
void FreeMembers(Members* m);
uint64_t MemberHashOf(const Members& m);

struct CommOrigin {
  int32_t creator = MPIDBG_CALL_NONE;
  uint64_t parent_job_id = 0;
  int32_t split_color = 0;
  int32_t split_key = 0;
  uint32_t flags = 0;
  const char* name = "";
};

// Publishes a record for `comm` (takes ownership of m's arrays).
void PublishComm(MPI_Comm comm, Members* m, uint64_t job_id, const CommOrigin& origin);

// Per-process counter for a job-id recipe key: returns 0, 1, 2, ... on successive calls.
uint64_t NextCreationCounter(uint64_t key);

void RegisterPredefinedComms(int32_t world_rank);
void SetCommName(MPI_Comm comm, const char* name);
// Marks the record of `handle` freed; it stays as an orphan (bounded number kept).
void MarkCommFreed(uint64_t handle);

// The world group, kept from MPI_Init to MPI_Finalize for rank translation.
void ReleaseWorldGroup();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_COMM_REGISTRY_H
