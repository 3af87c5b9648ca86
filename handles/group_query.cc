// group_query.cc — mpidbg_group_query and mpidbg_group_f2c.
#include <cstring>

#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/debugger_memory.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::GroupEntry;
using mpidbg::plugin::Vec;

// group_procs: one entry per group rank. The runtime leaves world_ranks empty when MPI
// could not translate the ranks: each is then MPIDBG_RANK_UNKNOWN. An array of another
// length than the group is damage.
int fill_procs(const QueryContext& ctx, const mpidbg_group_record& r, mpidbg_group_info_t* info) {
  if (r.size < 0 || static_cast<uint32_t>(r.size) > ctx.limits.max_array_elements)
    return MPIDBG_ERR_UNAVAILABLE;
  if (r.size == 0) return MPIDBG_SUCCESS;
  Vec<int32_t> ranks;
  const int rc = mpidbg::plugin::read_int32_array(ctx.ps->reader, r.world_ranks, ctx.limits, &ranks);
  if (rc != mqs_ok) return handle_code(rc);
  if (!ranks.empty() && ranks.size() != static_cast<size_t>(r.size)) return MPIDBG_ERR_UNAVAILABLE;
  const size_t n = static_cast<size_t>(r.size);
  auto* procs = static_cast<mpidbg_process_t*>(result_alloc(n * sizeof(mpidbg_process_t)));
  if (procs == nullptr) return MPIDBG_ERR_NO_MEM;
  for (size_t i = 0; i < n; ++i)
    procs[i].mpi_comm_world_rank = ranks.empty() ? MPIDBG_RANK_UNKNOWN : ranks[i];
  info->group_procs = procs;
  return MPIDBG_SUCCESS;
}

int fill_group(const QueryContext& ctx, const GroupEntry& e, mpidbg_group_info_t* info) {
  const mpidbg_group_record& r = e.rec;
  set_name(info->group_name, sizeof info->group_name, r.obj.name);
  info->group_bitflags = object_bits(r.obj.hdr.flags);
  if (is_null_handle(ctx, ctx.snapshot->root.group_null_handle, r.obj.handle))
    info->group_bitflags |= MPIDBG_HANDLE_NULL;
  info->group_c_handle = r.obj.handle;
  info->group_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->group_rank = r.rank < 0 ? -1 : r.rank;
  info->group_size = r.size;
  info->group_creator = r.obj.creator;
  set_name(info->group_creator_name, sizeof info->group_creator_name, call_name(r.obj.creator));
  info->group_source = r.source_handle;
  info->group_source2 = r.source_handle2;
  const int rc = fill_procs(ctx, r, info);
  if (rc != MPIDBG_SUCCESS) return rc;
  return copy_int32_array(ctx, r.args, &info->group_args, &info->group_num_args);
}

// MPI_GROUP_NULL and MPI_GROUP_EMPTY when the runtime has no record of them.
void fill_unrecorded(const QueryContext& ctx, mqs_taddr_t group, mpidbg_group_info_t* info) {
  info->group_c_handle = group;
  info->group_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
  info->group_rank = -1;
  if (is_null_handle(ctx, ctx.snapshot->root.group_null_handle, group)) {
    set_name(info->group_name, sizeof info->group_name, "MPI_GROUP_NULL");
    info->group_bitflags = MPIDBG_HANDLE_NULL;
  } else {
    set_name(info->group_name, sizeof info->group_name, "MPI_GROUP_EMPTY");
    info->group_bitflags = MPIDBG_HANDLE_PREDEFINED;
  }
}

}  // namespace

MPIDBG_EXPORT int mpidbg_group_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                     mqs_process_info* process_info, mqs_taddr_t group,
                                     mpidbg_group_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const mpidbg_root& root = ctx.snapshot->root;
  const GroupEntry* e = ctx.objects->find_group(group);
  if (e == nullptr && !is_null_handle(ctx, root.group_null_handle, group) &&
      !is_null_handle(ctx, root.group_empty_handle, group))
    return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_group_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e == nullptr) {
    fill_unrecorded(ctx, group, out);
    *info = out;
    return MPIDBG_SUCCESS;
  }
  rc = fill_group(ctx, *e, out);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_group_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                   mqs_process_info* process_info, mqs_taddr_t f77_group,
                                   mqs_taddr_t* c_group) {
  return object_f2c(process, process_info, f77_group, c_group,
                    &mpidbg::plugin::ObjectSnapshot::find_group_f);
}
