// hooks_comm.cc — communicator creation, freeing, naming, attributes, errhandler, info.
//
// Creation computes the job-wide id (core/job_id.h) from the parent's id, a per-process
// creation counter and the new members. The counter advances on every creation call a
// process makes, including those that return MPI_COMM_NULL (e.g. a split with
// MPI_UNDEFINED, or a graph smaller than its parent): every member made the same call,
// so counters stay in step.
#include <stdlib.h>

#include <atomic>

#include "core/handle_map.h"
#include "core/job_id.h"
#include "core/spinlock.h"
#include "rt/comms/comm_registry.h"
#include "rt/comms/dynamic_jobs.h"
#include "rt/handle_widening.h"
#include "rt/hot/hooks.h"
#include "rt/comms/hooks_comm.h"
#include "rt/objects/hooks_objects.h"
#include "rt/hot/operation_registry.h"

namespace mpidbg::rt {
namespace {

// An MPI_Comm_idup whose communicator appears when its request completes.
struct PendingIdup {
  MPI_Comm* newcomm;
  MPI_Comm parent;
  uint64_t parent_job_id;
  uint64_t counter;
};

// MPI_Comm_dup, MPI_Comm_dup_with_info and MPI_Comm_idup give the new communicator the
// parent's attributes through each keyval's copy callback (MPI standard, "Attribute
// Caching"): MPI sets them itself, so no MPI_Comm_set_attr shows them. The child's
// values of the keyvals recorded for the parent are read back and recorded, as if set
// by the application; a keyval whose callback did not copy is absent on the child too.
void RecordCopiedAttributes(MPI_Comm parent, MPI_Comm child) {
  uint32_t n = 0;
  int* keyvals = CommAttributeKeyvals(parent, &n);
  for (uint32_t i = 0; i < n; ++i) {
    void* value = nullptr;
    int found = 0;
    if (PMPI_Comm_get_attr(child, keyvals[i], &value, &found) == MPI_SUCCESS && found != 0) {
      SetCommAttribute(child, keyvals[i], AddressOf(value));
    }
  }
  free(keyvals);
}

core::SpinLock g_idup_lock;
core::HandleMap g_idups(16);  // request handle -> PendingIdup*
std::atomic<int> g_idup_count{0};

bool IsSplit(int32_t creator) {
  return creator == MPIDBG_CALL_MPI_Comm_split || creator == MPIDBG_CALL_MPI_Comm_split_type;
}

CommOrigin OriginOf(int32_t creator, uint64_t parent_job_id, const CommMakeArgs& args) {
  CommOrigin origin;
  origin.creator = creator;
  origin.parent_job_id = parent_job_id;
  if (IsSplit(creator)) {
    origin.split_color = args.color;
    origin.split_key = args.key;
  }
  origin.info = InfoValue(args.info);
  origin.reorder = args.reorder != 0 ? 1 : 0;
  return origin;
}

// Collective over the parent (dup, split, create, topology constructors, merge, idup).
void PublishDerived(MPI_Comm comm, int32_t creator, const CommView& parent, uint64_t counter,
                    const CommMakeArgs& args) {
  const uint64_t parent_job_id = parent.job_id;
  Members m;
  // A synchronous duplicate takes its members and what else it inherits from the
  // parent's record; an idup completes where only its parent's job id is known, so its
  // members are read, but it is a duplicate all the same (the constant member hash).
  const bool inherits = creator == MPIDBG_CALL_MPI_Comm_dup || creator == MPIDBG_CALL_MPI_Comm_dup_with_info;
  const Inheritance inherited = inherits ? InheritanceOf(parent) : Inheritance{};
  if (!(inherits ? ReadDuplicateMembers(comm, parent, inherited, &m) : ReadMembers(comm, &m))) return;
  CommOrigin origin = OriginOf(creator, parent_job_id, args);
  origin.inherited = inherited;
  const bool duplicate = inherits || creator == MPIDBG_CALL_MPI_Comm_idup ||
                         creator == MPIDBG_CALL_MPI_Comm_idup_with_info;
  const uint64_t members = duplicate ? core::kDuplicateMembers : MemberHashOf(m);
  PublishComm(comm, &m, core::DerivedJobId(parent_job_id, counter, members), origin);
}

// Collective over the new group only.
void PublishCreateGroup(MPI_Comm comm, uint64_t parent_job_id, const CommMakeArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  const uint64_t members = MemberHashOf(m);
  const uint64_t counter = NextCreationCounter(core::CreateGroupCounterKey(parent_job_id, members));
  PublishComm(comm, &m, core::CreateGroupJobId(parent_job_id, args.tag, members, counter),
              OriginOf(MPIDBG_CALL_MPI_Comm_create_group, parent_job_id, args));
}

void PublishIntercomm(MPI_Comm comm, uint64_t local_parent_job_id, const CommMakeArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  const uint64_t key =
      core::IntercommCounterKey(args.tag, core::HashRanks(m.local, m.local ? m.local_size : 0),
                                core::HashRanks(m.remote, m.remote ? m.remote_size : 0));
  const uint64_t counter = NextCreationCounter(key);
  PublishComm(comm, &m, core::IntercommJobId(key, counter),
              OriginOf(MPIDBG_CALL_MPI_Intercomm_create, local_parent_job_id, args));
}

// MPI_Comm_create_from_group: collective over the group, no parent communicator. The
// members agree on the string tag and the group, so these stand in for the parent id
// of MPI_Comm_create_group's recipe.
void PublishFromGroup(MPI_Comm comm, int32_t call, const CommMakeArgs& args) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  const uint64_t members = MemberHashOf(m);
  const uint64_t tag_id = core::NonZero(core::Combine(
      core::TagHash("comm_from_group"), core::TagHash(args.stringtag ? args.stringtag : "")));
  const uint64_t counter = NextCreationCounter(core::CreateGroupCounterKey(tag_id, members));
  PublishComm(comm, &m, core::CreateGroupJobId(tag_id, 0, members, counter),
              OriginOf(call, 0, args));
}

bool IsDynamic(int32_t call) {
  return call == MPIDBG_CALL_MPI_Comm_spawn || call == MPIDBG_CALL_MPI_Comm_spawn_multiple ||
         call == MPIDBG_CALL_MPI_Comm_accept || call == MPIDBG_CALL_MPI_Comm_connect ||
         call == MPIDBG_CALL_MPI_Comm_join || call == MPIDBG_CALL_MPI_Comm_get_parent;
}

// After any communicator constructor returned.
void AfterCommMake(int32_t call, const CommMakeArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.newcomm == nullptr) return;
  const MPI_Comm comm = *args.newcomm;
  if (call == MPIDBG_CALL_MPI_Comm_create_from_group ||
      call == MPIDBG_CALL_MPI_Intercomm_create_from_groups) {
    if (comm != MPI_COMM_NULL) PublishFromGroup(comm, call, args);
    return;
  }
  const CommView parent = args.parent == MPI_COMM_NULL ? CommView{} : LookupComm(args.parent);
  const uint64_t parent_job_id = parent.job_id;
  if (IsDynamic(call)) {
    // MPI_Comm_get_parent hands out the same intercommunicator on every call.
    if (comm == MPI_COMM_NULL ||
        (call == MPIDBG_CALL_MPI_Comm_get_parent && LookupComm(comm).job_id != 0))
      return;
    // The parent intercommunicator's exchange happened in MPI_Init (PublishParentAtInit);
    // one first seen here has no partner waiting for it.
    PublishDynamicComm(comm, call, parent_job_id, InfoValue(args.info),
                       /*exchange=*/call != MPIDBG_CALL_MPI_Comm_get_parent);
    return;
  }
  switch (call) {
    case MPIDBG_CALL_MPI_Comm_create_group:
      if (comm != MPI_COMM_NULL) PublishCreateGroup(comm, parent_job_id, args);
      return;
    case MPIDBG_CALL_MPI_Intercomm_create:
      if (comm != MPI_COMM_NULL) PublishIntercomm(comm, parent_job_id, args);
      return;
    default: {
      const uint64_t counter = NextCreationCounter(core::DerivedCounterKey(parent_job_id));
      if (comm == MPI_COMM_NULL) return;
      PublishDerived(comm, call, parent, counter, args);
      if (call == MPIDBG_CALL_MPI_Comm_dup || call == MPIDBG_CALL_MPI_Comm_dup_with_info) {
        RecordCopiedAttributes(args.parent, comm);
      }
      return;
    }
  }
}

}  // namespace

CallComm PreCommMake(CallFacts, CommMakeArgs& args) {
  return args.parent != MPI_COMM_NULL ? CallCommOf(LookupComm(args.parent)) : CallComm{0, 0};
}

void PostCommMake(CallFacts call, CommMakeArgs& args, int rc) {
  AfterCommMake(call.call, args, rc);
}

// The older category (gen/categories.def) for tables that still name it.
CallComm PreCommCreate(CallFacts, CommCreateArgs& args) {
  return CallCommOf(LookupComm(args.parent));
}

void PostCommCreate(CallFacts call, CommCreateArgs& args, int rc) {
  CommMakeArgs make;
  static_cast<CommCreateArgs&>(make) = args;
  AfterCommMake(call.call, make, rc);
}

CallComm PreCommIdup(CallFacts call, CommCreateArgs& args) { return PreCommCreate(call, args); }

void PostCommIdup(CallFacts call, CommCreateArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.newcomm == nullptr || args.request == nullptr ||
      *args.request == MPI_REQUEST_NULL)
    return;
  CommView parent = LookupComm(args.parent);
  const uint64_t counter = NextCreationCounter(core::DerivedCounterKey(parent.job_id));
  const uint64_t request = HandleToU64(*args.request);

  OperationDescription d;
  d.call = call.call;
  d.direction = MPIDBG_OPERATION_COLLECTIVE;
  d.peer = -1;
  d.comm = &parent;
  TrackRequest(request, d, 0, call.thread->tid);

  auto* pending = static_cast<PendingIdup*>(malloc(sizeof(PendingIdup)));
  if (pending == nullptr) return;
  *pending = PendingIdup{args.newcomm, args.parent, parent.job_id, counter};
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
    CommMakeArgs none;
    CommView parent;  // only its job id is known here; idup's members are read
    parent.job_id = pending->parent_job_id;
    PublishDerived(comm, MPIDBG_CALL_MPI_Comm_idup, parent, pending->counter, none);
    RecordCopiedAttributes(pending->parent, comm);
  }
  free(pending);
}

// MPI_Comm_free and MPI_Comm_disconnect.
CallComm PreCommFree(CallFacts, CommFreeArgs& args) {
  if (args.comm == nullptr) return CallComm{0, 0};
  args.saved = HandleToU64(*args.comm);
  const CallComm comm = CallCommOf(LookupComm(*args.comm));
  args.record = DetachCommForFree(args.saved);
  return comm;
}

void PostCommFree(CallFacts, CommFreeArgs& args, int rc) {
  if (rc != MPI_SUCCESS) {
    ReattachComm(args.record);
    return;
  }
  uint64_t errhandler = 0;
  if (MarkCommFreed(args.record, &errhandler)) ErrhandlerDetached(errhandler);
}

CallComm PreCommSetName(CallFacts, CommSetNameArgs& args) {
  return CallCommOf(LookupComm(args.comm));
}

void PostCommSetName(CallFacts, CommSetNameArgs& args, int rc) {
  if (rc == MPI_SUCCESS) SetCommName(args.comm, args.name);
}

CallComm PreCommUpdate(CallFacts, CommUpdateArgs& args) {
  return CallCommOf(LookupComm(args.comm));
}

void PostCommUpdate(CallFacts call, CommUpdateArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  switch (call.call) {
    case MPIDBG_CALL_MPI_Comm_set_attr:
      SetCommAttribute(args.comm, args.keyval, AddressOf(args.value));
      return;
    case MPIDBG_CALL_MPI_Comm_delete_attr:
      DeleteCommAttribute(args.comm, args.keyval);
      return;
    case MPIDBG_CALL_MPI_Comm_set_errhandler:
    case MPIDBG_CALL_MPI_Errhandler_set: {  // MPI-1's name, which MPICH still exports
      const uint64_t errhandler = ErrhandlerValue(args.errhandler);
      const uint64_t previous = SetCommErrhandler(args.comm, errhandler);
      if (previous != errhandler) ErrhandlerDetached(previous);
      return;
    }
    case MPIDBG_CALL_MPI_Comm_set_info:
      SetCommInfo(args.comm, InfoValue(args.info));
      return;
    default:
      return;
  }
}

}  // namespace mpidbg::rt
