// message_query.cc — mpidbg_message_query and mpidbg_message_f2c: a message matched by
// MPI_Mprobe / MPI_Improbe and, until MPI_Mrecv / MPI_Imrecv, not yet received.
#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::MessageEntry;

void fill_message(const QueryContext& ctx, const MessageEntry& e, mpidbg_message_info_t* info) {
  const mpidbg_message_record& r = e.rec;
  const mpidbg_root& root = ctx.snapshot->root;
  info->msg_bitflags = object_bits(r.obj.hdr.flags);
  if (is_null_handle(ctx, root.message_null_handle, r.obj.handle))
    info->msg_bitflags |= MPIDBG_HANDLE_NULL;
  if ((r.obj.hdr.flags & MPIDBG_MESSAGE_NO_PROC) != 0 ||
      is_null_handle(ctx, root.message_no_proc_handle, r.obj.handle))
    info->msg_bitflags |= MPIDBG_MESSAGE_INFO_NO_PROC;
  if (r.state == MPIDBG_MESSAGE_RECEIVED) info->msg_bitflags |= MPIDBG_MESSAGE_INFO_RECEIVED;
  info->msg_c_handle = r.obj.handle;
  info->msg_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->msg_comm = r.comm_handle;
  info->msg_comm_job_id = r.comm_job_id;
  info->msg_source = r.source;
  info->msg_source_world = r.source_world;
  info->msg_tag = r.tag;
  info->msg_bytes = r.bytes;
  info->msg_creator = r.obj.creator;
  set_name(info->msg_creator_name, sizeof info->msg_creator_name, call_name(r.obj.creator));
}

// MPI_MESSAGE_NULL, or MPI_MESSAGE_NO_PROC when the runtime has no record of it: what
// MPI_Mrecv reports for a probe of MPI_PROC_NULL (source MPI_PROC_NULL, any tag, no data).
void fill_unrecorded(const QueryContext& ctx, mqs_taddr_t message, mpidbg_message_info_t* info) {
  info->msg_c_handle = message;
  info->msg_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
  if (is_null_handle(ctx, ctx.snapshot->root.message_null_handle, message)) {
    info->msg_bitflags = MPIDBG_HANDLE_NULL;
    info->msg_source = MPIDBG_RANK_UNKNOWN;
    info->msg_source_world = MPIDBG_RANK_UNKNOWN;
    info->msg_tag = MPIDBG_TAG_ANY;
    return;
  }
  info->msg_bitflags = MPIDBG_HANDLE_PREDEFINED | MPIDBG_MESSAGE_INFO_NO_PROC;
  info->msg_source = MPIDBG_RANK_PROC_NULL;
  info->msg_source_world = MPIDBG_RANK_PROC_NULL;
  info->msg_tag = MPIDBG_TAG_ANY;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_message_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                       mqs_process_info* process_info, mqs_taddr_t message,
                                       mpidbg_message_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const mpidbg_root& root = ctx.snapshot->root;
  const MessageEntry* e = ctx.objects->find_message(message);
  if (e == nullptr && !is_null_handle(ctx, root.message_null_handle, message) &&
      !is_null_handle(ctx, root.message_no_proc_handle, message))
    return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_message_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e != nullptr) {
    fill_message(ctx, *e, out);
  } else {
    fill_unrecorded(ctx, message, out);
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_message_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                     mqs_process_info* process_info, mqs_taddr_t f77_message,
                                     mqs_taddr_t* c_message) {
  return object_f2c(process, process_info, f77_message, c_message,
                    &mpidbg::plugin::ObjectSnapshot::find_message_f);
}
