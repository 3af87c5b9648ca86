// win_query.cc — mpidbg_win_query and mpidbg_win_f2c: an RMA window, its epochs,
// locks, PSCW groups, attached regions and pending request-based RMA operations.
#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/debugger_memory.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::Vec;
using mpidbg::plugin::WindowEntry;

// win_regions from the (base, size) int64 pairs of MPI_Win_attach; an odd count is damage.
int fill_regions(const QueryContext& ctx, const mpidbg_window_record& r, mpidbg_win_info_t* info) {
  Vec<int64_t> pairs;
  const int rc = mpidbg::plugin::read_int64_array(ctx.ps->reader, r.attached, ctx.limits, &pairs);
  if (rc != mqs_ok) return handle_code(rc);
  if (pairs.size() % 2 != 0) return MPIDBG_ERR_UNAVAILABLE;
  const size_t n = pairs.size() / 2;
  if (n == 0) return MPIDBG_SUCCESS;
  auto* regions = static_cast<mpidbg_win_region_t*>(result_alloc(n * sizeof(mpidbg_win_region_t)));
  if (regions == nullptr) return MPIDBG_ERR_NO_MEM;
  for (size_t i = 0; i < n; ++i) {
    regions[i].base = static_cast<mqs_taddr_t>(pairs[2 * i]);
    regions[i].size = pairs[2 * i + 1];
  }
  info->win_regions = regions;
  info->win_num_regions = static_cast<int>(n);
  return MPIDBG_SUCCESS;
}

int fill_window(const QueryContext& ctx, const WindowEntry& e, mpidbg_win_info_t* info) {
  const mpidbg_window_record& r = e.rec;
  set_name(info->win_name, sizeof info->win_name, r.obj.name);
  info->win_bitflags = object_bits(r.obj.hdr.flags);
  if (is_null_handle(ctx, ctx.snapshot->root.win_null_handle, r.obj.handle))
    info->win_bitflags |= MPIDBG_HANDLE_NULL;
  info->win_c_handle = r.obj.handle;
  info->win_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->win_flavor = r.flavor;
  info->win_comm = r.comm_handle;
  info->win_comm_job_id = r.comm_job_id;
  info->win_comm_size = r.comm_size;
  info->win_base = r.base;
  info->win_size = r.size;
  info->win_disp_unit = r.disp_unit;
  info->win_access_epoch = r.access_epoch;
  info->win_exposure_epoch = r.exposure_epoch;
  info->win_fence_count = r.fence_count;
  info->win_rma_count = r.rma_count;
  info->win_errhandler = r.errhandler;
  info->win_info = r.info;
  int rc = copy_int32_array(ctx, r.target_locks, &info->win_target_locks, &info->win_num_target_locks);
  if (rc == MPIDBG_SUCCESS)
    rc = copy_int32_array(ctx, r.access_group, &info->win_access_group, &info->win_num_access_group);
  if (rc == MPIDBG_SUCCESS) {
    rc = copy_int32_array(ctx, r.exposure_group, &info->win_exposure_group,
                          &info->win_num_exposure_group);
  }
  if (rc == MPIDBG_SUCCESS) rc = fill_regions(ctx, r, info);
  if (rc == MPIDBG_SUCCESS) {
    rc = pending_requests(ctx, MPIDBG_OPERATION_RMA, r.obj.handle, &info->win_pending_requests,
                          &info->win_num_pending_requests);
  }
  return rc;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_win_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                   mqs_process_info* process_info, mqs_taddr_t win,
                                   mpidbg_win_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const WindowEntry* e = ctx.objects->find_window(win);
  const bool null = is_null_handle(ctx, ctx.snapshot->root.win_null_handle, win);
  if (e == nullptr && !null) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_win_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e == nullptr) {  // MPI_WIN_NULL has no record
    set_name(out->win_name, sizeof out->win_name, "MPI_WIN_NULL");
    out->win_bitflags = MPIDBG_HANDLE_NULL;
    out->win_c_handle = win;
    out->win_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
    *info = out;
    return MPIDBG_SUCCESS;
  }
  rc = fill_window(ctx, *e, out);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_win_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                 mqs_process_info* process_info, mqs_taddr_t f77_win,
                                 mqs_taddr_t* c_win) {
  return object_f2c(process, process_info, f77_win, c_win,
                    &mpidbg::plugin::ObjectSnapshot::find_window_f);
}
