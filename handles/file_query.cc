// file_query.cc — mpidbg_file_query and mpidbg_file_f2c: an open MPI_File, its view
// and its pending nonblocking I/O.
#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::FileEntry;

int fill_file(const QueryContext& ctx, const FileEntry& e, mpidbg_file_info_t* info) {
  const mpidbg_file_record& r = e.rec;
  copy_field(info->file_name, sizeof info->file_name, r.filename, sizeof r.filename);
  info->file_bitflags = object_bits(r.obj.hdr.flags);
  if (is_null_handle(ctx, ctx.snapshot->root.file_null_handle, r.obj.handle))
    info->file_bitflags |= MPIDBG_HANDLE_NULL;
  info->file_c_handle = r.obj.handle;
  info->file_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->file_comm = r.comm_handle;
  info->file_comm_job_id = r.comm_job_id;
  info->file_amode = r.amode;
  info->file_view_disp = r.view_disp;
  info->file_etype = r.etype;
  info->file_filetype = r.filetype;
  copy_field(info->file_datarep, sizeof info->file_datarep, r.datarep, sizeof r.datarep);
  info->file_info = r.info;
  info->file_errhandler = r.errhandler;
  return pending_requests(ctx, MPIDBG_OPERATION_FILE, r.obj.handle, &info->file_pending_requests,
                          &info->file_num_pending_requests);
}

}  // namespace

MPIDBG_EXPORT int mpidbg_file_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                    mqs_process_info* process_info, mqs_taddr_t file,
                                    mpidbg_file_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const FileEntry* e = ctx.objects->find_file(file);
  const bool null = is_null_handle(ctx, ctx.snapshot->root.file_null_handle, file);
  if (e == nullptr && !null) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_file_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e == nullptr) {  // MPI_FILE_NULL has no record
    out->file_bitflags = MPIDBG_HANDLE_NULL;
    out->file_c_handle = file;
    out->file_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
    *info = out;
    return MPIDBG_SUCCESS;
  }
  rc = fill_file(ctx, *e, out);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_file_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                  mqs_process_info* process_info, mqs_taddr_t f77_file,
                                  mqs_taddr_t* c_file) {
  return object_f2c(process, process_info, f77_file, c_file,
                    &mpidbg::plugin::ObjectSnapshot::find_file_f);
}
