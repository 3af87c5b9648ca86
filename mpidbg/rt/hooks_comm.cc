// hooks_comm.cc — communicator creation, freeing and naming.
//
// Creation computes the job-wide id (core/job_id.h) from the parent's id, a per-process
// creation counter and the new members. The counter advances on every creation call a
// process makes, including those that return MPI_COMM_NULL (e.g. a split with
// MPI_UNDEFINED): every member made the same call, so counters stay in step.
#include <stdlib.h>

#include <atomic>

#include "core/handle_map.h"
#include "core/job_id.h"
#include "core/spinlock.h"
#include "rt/comm_registry.h"
#include "rt/handles.h"
#include "rt/hooks.h"
#include "rt/op_registry.h"

namespace mpidbg::rt {
namespace {

// An MPI_Comm_idup whose communicator appears when its request completes.
struct PendingIdup {
  MPI_Comm* newcomm;
  uint64_t parent_job_id;
  uint64_t counter;
};

core::SpinLock g_idup_lock;
core::HandleMap g_idups(16);  // request handle -> PendingIdup*
std::atomic<int> g_idup_count{0};

void PublishDerived(MPI_Comm comm, int32_t creator, uint64_t parent_job_id, uint64_t counter,
                    const CommCreateArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  CommOrigin origin;
  origin.creator = creator;
  origin.parent_job_id = parent_job_id;
  if (creator == MPIDBG_CALL_MPI_Comm_split || creator == MPIDBG_CALL_MPI_Comm_split_type) {
    origin.split_color = args.color;
    origin.split_key = args.key;
  }
  if (creator == MPIDBG_CALL_MPI_Cart_create) origin.flags = MPIDBG_COMM_CART;
  PublishComm(comm, &m, core::DerivedJobId(parent_job_id, counter, MemberHashOf(m)), origin);
}

void PublishCreateGroup(MPI_Comm comm, uint64_t parent_job_id, const CommCreateArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  const uint64_t members = MemberHashOf(m);
  const uint64_t counter = NextCreationCounter(core::CreateGroupCounterKey(parent_job_id, members));
  CommOrigin origin;
  origin.creator = MPIDBG_CALL_MPI_Comm_create_group;
  origin.parent_job_id = parent_job_id;
  PublishComm(comm, &m, core::CreateGroupJobId(parent_job_id, args.tag, members, counter), origin);
}

void PublishIntercomm(MPI_Comm comm, uint64_t local_parent_job_id, const CommCreateArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  const uint64_t key =
      core::IntercommCounterKey(args.tag, core::HashRanks(m.local, m.local ? m.local_size : 0),
                                core::HashRanks(m.remote, m.remote ? m.remote_size : 0));
  const uint64_t counter = NextCreationCounter(key);
  CommOrigin origin;
  origin.creator = MPIDBG_CALL_MPI_Intercomm_create;
  origin.parent_job_id = local_parent_job_id;
  PublishComm(comm, &m, core::IntercommJobId(key, counter), origin);
}

}  // namespace

void PreCommCreate(CallScope& scope, CommCreateArgs& args) {
  scope.SetComm(LookupComm(args.parent));
}

void PostCommCreate(CallScope& scope, CommCreateArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.newcomm == nullptr) return;
  const uint64_t parent_job_id = LookupComm(args.parent).job_id;
  const MPI_Comm comm = *args.newcomm;
  switch (scope.call()) {
    case MPIDBG_CALL_MPI_Comm_create_group:
      if (comm != MPI_COMM_NULL) PublishCreateGroup(comm, parent_job_id, args);
      return;
    case MPIDBG_CALL_MPI_Intercomm_create:
      if (comm != MPI_COMM_NULL) PublishIntercomm(comm, parent_job_id, args);
      return;
    default: {
      const uint64_t counter = NextCreationCounter(core::DerivedCounterKey(parent_job_id));
      if (comm != MPI_COMM_NULL) PublishDerived(comm, scope.call(), parent_job_id, counter, args);
      return;
    }
  }
}

void PreCommIdup(CallScope& scope, CommCreateArgs& args) { PreCommCreate(scope, args); }

void PostCommIdup(CallScope& scope, CommCreateArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.newcomm == nullptr || args.request == nullptr ||
      *args.request == MPI_REQUEST_NULL)
    return;
  CommView parent = LookupComm(args.parent);
  const uint64_t counter = NextCreationCounter(core::DerivedCounterKey(parent.job_id));
  const uint64_t request = HandleToU64(*args.request);

  OpDescription d;
  d.call = scope.call();
  d.direction = MPIDBG_OP_COLLECTIVE;
  d.peer = -1;
  d.comm = &parent;
  TrackRequest(request, d, 0, scope.thread()->tid);

  auto* pending = static_cast<PendingIdup*>(malloc(sizeof(PendingIdup)));
  if (pending == nullptr) return;
  *pending = PendingIdup{args.newcomm, parent.job_id, counter};
  uint64_t previous = 0;
  {
    core::SpinGuard guard(g_idup_lock);
    if (!g_idups.Insert(request, AddressOf(pending), &previous)) previous = AddressOf(pending);
    else if (previous == 0) g_idup_count.fetch_add(1, std::memory_order_relaxed);
  }
  free(reinterpret_cast<void*>(static_cast<uintptr_t>(previous)));
}

bool HaveIdupPending() { return g_idup_count.load(std::memory_order_relaxed) > 0; }

void CompleteIdup(uint64_t request) {
  uint64_t address = 0;
  {
    core::SpinGuard guard(g_idup_lock);
    if (!g_idups.Erase(request, &address)) return;
    g_idup_count.fetch_sub(1, std::memory_order_relaxed);
  }
  auto* pending = reinterpret_cast<PendingIdup*>(static_cast<uintptr_t>(address));
  MPI_Comm comm = *pending->newcomm;
  if (comm != MPI_COMM_NULL) {
    CommCreateArgs none;
    PublishDerived(comm, MPIDBG_CALL_MPI_Comm_idup, pending->parent_job_id, pending->counter, none);
  }
  free(pending);
}

void PreCommFree(CallScope& scope, CommFreeArgs& args) {
  if (args.comm == nullptr) return;
  args.saved = HandleToU64(*args.comm);
  scope.SetComm(LookupComm(*args.comm));
}

void PostCommFree(CallScope&, CommFreeArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.saved != 0) MarkCommFreed(args.saved);
}

void PreCommSetName(CallScope& scope, CommSetNameArgs& args) {
  scope.SetComm(LookupComm(args.comm));
}

void PostCommSetName(CallScope&, CommSetNameArgs& args, int rc) {
  if (rc == MPI_SUCCESS) SetCommName(args.comm, args.name);
}

}  // namespace mpidbg::rt
