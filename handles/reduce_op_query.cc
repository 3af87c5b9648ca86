// reduce_op_query.cc — mpidbg_op_query and mpidbg_op_f2c (reduction operations, MPI_Op).
#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::ReduceOpEntry;

void fill_op(const QueryContext& ctx, const ReduceOpEntry& e, mpidbg_op_info_t* info) {
  const mpidbg_reduce_op_record& r = e.rec;
  set_name(info->op_name, sizeof info->op_name, r.obj.name);
  info->op_bitflags = object_bits(r.obj.hdr.flags);
  if (is_null_handle(ctx, ctx.snapshot->root.reduce_op_null_handle, r.obj.handle))
    info->op_bitflags |= MPIDBG_HANDLE_NULL;
  if (r.commute != 0) info->op_bitflags |= MPIDBG_OP_INFO_COMMUTATIVE;
  // The runtime sees MPI_Op_create from C: a user function is a C callback.
  if (r.function != 0) info->op_bitflags |= MPIDBG_OP_INFO_C_CALLBACK;
  info->op_c_handle = r.obj.handle;
  info->op_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->op_callback_func = r.function;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_op_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                  mqs_process_info* process_info, mqs_taddr_t op,
                                  mpidbg_op_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const ReduceOpEntry* e = ctx.objects->find_reduce_op(op);
  const bool null = is_null_handle(ctx, ctx.snapshot->root.reduce_op_null_handle, op);
  if (e == nullptr && !null) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_op_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e != nullptr) {
    fill_op(ctx, *e, out);
  } else {  // MPI_OP_NULL has no record
    set_name(out->op_name, sizeof out->op_name, "MPI_OP_NULL");
    out->op_bitflags = MPIDBG_HANDLE_NULL;
    out->op_c_handle = op;
    out->op_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_op_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                mqs_process_info* process_info, mqs_taddr_t f77_op,
                                mqs_taddr_t* c_op) {
  return object_f2c(process, process_info, f77_op, c_op,
                    &mpidbg::plugin::ObjectSnapshot::find_reduce_op_f);
}
