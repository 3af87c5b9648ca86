// hooks_groups.cc — see hooks_groups.h.
//
// A group record holds the group's members as MPI_COMM_WORLD ranks (translated by MPI),
// this process's rank in it, where it came from (communicator, window, file, session,
// or input groups) and the rank arguments of incl/excl calls. MPI reference counts
// groups and may return a handle it returned before (MPI_Comm_group twice on one
// communicator, or MPI_GROUP_EMPTY for an empty result); g_groups counts those as more
// references to one object (core/object_registry.h).
#include <stdlib.h>

#include "core/record_arrays.h"
#include "core/record_write.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/comms/hooks_groups.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

static_assert(sizeof(int) == sizeof(int32_t), "MPI ints are stored as int32_t");

struct GroupSource {
  uint64_t handle = 0;
  uint64_t handle2 = 0;
  uint64_t comm_job_id = 0;
};

void RecordGroup(MPI_Group group, int32_t creator, uint32_t flags, const GroupSource& src,
                 const int* args, uint64_t nargs, const char* name) {
  int size = 0, rank = MPI_UNDEFINED;
  if (PMPI_Group_size(group, &size) != MPI_SUCCESS || size < 0) size = 0;
  if (PMPI_Group_rank(group, &rank) != MPI_SUCCESS || rank == MPI_UNDEFINED) rank = -1;
  int32_t* world = GroupWorldRanks(group, size);
  mpidbg_array world_ranks{0, 0, sizeof(int32_t)};
  if (world != nullptr) world_ranks = mpidbg_array{AddressOf(world), static_cast<uint32_t>(size), sizeof(int32_t)};
  const mpidbg_array rank_args = core::MakeArray(args, nargs, sizeof(int32_t));

  mpidbg_object_head* head = g_groups.BeginCreate(HandleToU64(group), creator, flags);
  if (head == nullptr) {
    core::FreeArray(world_ranks);
    core::FreeArray(rank_args);
    return;
  }
  auto* rec = core::As<mpidbg_group_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_Group_c2f(group));
  core::CopyName(rec->obj.name, sizeof rec->obj.name, name);
  rec->source_handle = src.handle;
  rec->source_handle2 = src.handle2;
  rec->source_comm_job_id = src.comm_job_id;
  rec->world_ranks = world_ranks;
  rec->args = rank_args;
  rec->size = size;
  rec->rank = rank;
  g_groups.EndCreate(head);
}

// The communicator job id a window or file record carries (0 if not recorded).
template <typename Record>
uint64_t CommJobIdOf(core::ObjectRegistry& registry, uint64_t handle) {
  mpidbg_object_head* head = registry.FindLive(handle);
  return head == nullptr ? 0 : core::As<Record>(head)->comm_job_id;
}

}  // namespace

CallComm PreGroupMake(CallFacts, GroupMakeArgs& args) {
  return args.comm != MPI_COMM_NULL ? CallCommOf(LookupComm(args.comm)) : CallComm{0, 0};
}

void PostGroupMake(CallFacts call, GroupMakeArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.newgroup == nullptr || *args.newgroup == MPI_GROUP_NULL) return;
  const MPI_Group group = *args.newgroup;
  GroupSource src;
  const int* rank_args = nullptr;
  uint64_t nargs = 0;
  const char* name = "";
  const int n = args.n > 0 ? args.n : 0;
  switch (call.call) {
    case MPIDBG_CALL_MPI_Comm_group:
    case MPIDBG_CALL_MPI_Comm_remote_group:
      src.handle = HandleToU64(args.comm);
      src.comm_job_id = LookupComm(args.comm).job_id;
      break;
    case MPIDBG_CALL_MPI_Group_incl:
    case MPIDBG_CALL_MPI_Group_excl:
      src.handle = HandleToU64(args.group);
      rank_args = args.ranks;
      nargs = static_cast<uint64_t>(n);
      break;
    case MPIDBG_CALL_MPI_Group_range_incl:
    case MPIDBG_CALL_MPI_Group_range_excl:
      src.handle = HandleToU64(args.group);
      rank_args = args.ranges == nullptr ? nullptr : &args.ranges[0][0];
      nargs = 3 * static_cast<uint64_t>(n);
      break;
    case MPIDBG_CALL_MPI_Group_union:
    case MPIDBG_CALL_MPI_Group_intersection:
    case MPIDBG_CALL_MPI_Group_difference:
      src.handle = HandleToU64(args.group);
      src.handle2 = HandleToU64(args.group2);
      break;
    case MPIDBG_CALL_MPI_Win_get_group:
      src.handle = HandleToU64(args.win);
      src.comm_job_id = CommJobIdOf<mpidbg_window_record>(g_windows, src.handle);
      break;
    case MPIDBG_CALL_MPI_File_get_group:
      src.handle = HandleToU64(args.file);
      src.comm_job_id = CommJobIdOf<mpidbg_file_record>(g_files, src.handle);
      break;
#if MPI_VERSION >= 4
    case MPIDBG_CALL_MPI_Group_from_session_pset:
      src.handle = HandleToU64(args.session);
      name = args.pset;  // the process set's name, e.g. "mpi://WORLD"
      break;
#endif
    default:
      break;
  }
  RecordGroup(group, call.call, 0, src, rank_args, nargs, name);
}

void PreGroupFree(CallFacts, GroupFreeArgs& args) {
  if (args.group != nullptr) args.saved = HandleToU64(*args.group);
}

void PostGroupFree(CallFacts, GroupFreeArgs& args, int rc) {
  // The user's handle is gone; MPI may keep the object for a communicator that uses it,
  // which the application can no longer reach through this handle.
  if (rc == MPI_SUCCESS && args.saved != 0) g_groups.MarkFreed(args.saved, /*released_now=*/true);
}

void RegisterPredefinedGroups() {
  RecordGroup(MPI_GROUP_EMPTY, MPIDBG_CALL_MPIDBG_PREDEFINED, MPIDBG_REC_PREDEFINED,
              GroupSource{}, nullptr, 0, "MPI_GROUP_EMPTY");
}

}  // namespace mpidbg::rt
