// comm_registry.h — communicator records: creation, lookup by handle, later changes
// (name, attributes, errhandler, info), freeing into an orphan.
//
// Lookup by handle is lock-free (it runs on every point-to-point call); creation,
// updates and freeing take the registry's spinlock (they are not on a hot path).
//
// A freed communicator's record becomes an orphan in the shared orphan list (budget
// root.orphan_budget) and is no longer found by LookupComm; a debugger still finds it by
// walking the table. It is marked RELEASED once no pending operation record refers to
// its job id: at the free, or at a later communicator creation or free.
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

// `job_id` may be named by an operation record from now on: every writer of an op
// record's communicator notes it first (the hot path when a thread takes a new view,
// CommViewOf; FillOperationRecord for the rest). Freeing a communicator walks the
// operation table for its pending operations only when its job id was noted.
void NoteCommInOperations(uint64_t job_id);

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
  // An intercommunicator to another job (rt/comms/dynamic_jobs.h): that job's launcher
  // id (bytes) and the remote group's world ranks in it (int32_t); empty otherwise.
  mpidbg_array remote_job_id{0, 0, 1};
  mpidbg_array remote_job_ranks{0, 0, sizeof(int32_t)};
};
bool ReadMembers(MPI_Comm comm, Members* out);

// What a duplicate takes from its parent's record instead of asking MPI. MPI_Comm_dup and
// MPI_Comm_dup_with_info keep the parent's group (so its rank), its topology and its
// error handler (MPI standard, "Communicator Constructors" and "Error Handling"). Each
// query asked of MPI costs a call into it: on MPICH the rank, topology and error-handler
// queries (with the free of the error handler's reference) were a quarter of what the
// runtime added to a dup and free, far more than their instructions. Only an
// intracommunicator without a topology is inherited from (a topology's arguments hold
// the constructor's `reorder`, which a duplicate's record gives as 0); the parent's
// error handler is its record's, which MPI_Comm_set_errhandler and MPI_Errhandler_set
// keep (a library that sets one through PMPI_ directly is not seen).
struct Inheritance {
  bool known = false;
  int32_t rank = -1;
  uint64_t errhandler = 0;
};
Inheritance InheritanceOf(const CommView& parent);

// The members of `comm`, a duplicate of the intracommunicator `parent`: the parent's
// world ranks copied, the rank `inherited` (asked of MPI when not known). Falls back to
// ReadMembers when the parent's ranks are not known.
bool ReadDuplicateMembers(MPI_Comm comm, const CommView& parent, const Inheritance& inherited,
                          Members* out);
void FreeMembers(Members* m);
uint64_t MemberHashOf(const Members& m);

// The MPI_COMM_WORLD rank of each rank of `group`: a malloc'd int32_t[n], with
// MPIDBG_RANK_UNKNOWN where MPI cannot translate (outside MPI_Init..MPI_Finalize, or a
// process not in MPI_COMM_WORLD). nullptr when n <= 0 or memory ran out.
int32_t* GroupWorldRanks(MPI_Group group, int32_t n);

struct CommOrigin {
  int32_t creator = MPIDBG_CALL_NONE;
  uint64_t parent_job_id = 0;
  int32_t split_color = 0;
  int32_t split_key = 0;
  uint32_t flags = 0;
  const char* name = "";
  uint64_t info = 0;    // MPI_Info given to the creating call (widened), 0 if none
  int32_t reorder = 0;  // the topology constructors' `reorder` argument
  // A duplicate's inheritance (known: no topology, this error handler).
  Inheritance inherited;
};

// Publishes a record for `comm` (takes ownership of m's arrays). Reads the rest from
// MPI: topology and errhandler (unless origin.inherited has them), Fortran index.
void PublishComm(MPI_Comm comm, Members* m, uint64_t job_id, const CommOrigin& origin);

// Per-process counter for a job-id recipe key: returns 0, 1, 2, ... on successive calls.
uint64_t NextCreationCounter(uint64_t key);

void RegisterPredefinedComms(int32_t world_rank);

// Changes of a live communicator's record (no-ops for communicators the runtime does
// not know).
void SetCommName(MPI_Comm comm, const char* name);
void SetCommAttribute(MPI_Comm comm, int keyval, uint64_t value);
void DeleteCommAttribute(MPI_Comm comm, int keyval);
// The keyvals of the attributes recorded for `comm`, in keyval order: a malloc'ed array
// the caller frees, and their number in *n (nullptr and 0 when there are none or the
// communicator is not known).
int* CommAttributeKeyvals(MPI_Comm comm, uint32_t* n);
// Returns the errhandler the record had before (0 if none or not known).
uint64_t SetCommErrhandler(MPI_Comm comm, uint64_t errhandler);
void SetCommInfo(MPI_Comm comm, uint64_t info);

// Freeing in two steps. Before PMPI_Comm_free/disconnect: takes the record of `handle`
// out of the handle lookup (once the call returns, MPI may give the value to another
// thread's new communicator); nullptr if the runtime does not know it.
mpidbg_comm_record* DetachCommForFree(uint64_t handle);
// The free failed: the record is found by its handle again (unless a newer one is).
void ReattachComm(mpidbg_comm_record* rec);
// The free succeeded: marks the detached record freed and orphans it. Returns false for
// nullptr; else *errhandler (if given) gets the errhandler it had.
bool MarkCommFreed(mpidbg_comm_record* rec, uint64_t* errhandler = nullptr);

// True if a live (not freed) communicator record has `errhandler` attached.
bool CommsUseErrhandler(uint64_t errhandler);

// The world group, kept from MPI_Init to MPI_Finalize for rank translation.
void ReleaseWorldGroup();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_COMM_REGISTRY_H
