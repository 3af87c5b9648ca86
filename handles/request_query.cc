// request_query.cc — request handles: mpidbg_request_query (version 1), its extension
// mpidbg_request_query_ext, and the Fortran / C++ conversions. A request is known by
// the operation record the runtime keeps for it (records.h mpidbg_operation_record).
#include "handles/query_support.h"
#include "plugin/comm_names.h"
#include "plugin/export.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::CommEntry;
using mpidbg::plugin::OperationEntry;

int request_kind(int32_t direction) {
  switch (direction) {
    case MPIDBG_OPERATION_SEND:
    case MPIDBG_OPERATION_RECV:
    case MPIDBG_OPERATION_PROBE:
      return MPIDBG_REQUEST_KIND_POINT_TO_POINT;
    case MPIDBG_OPERATION_COLLECTIVE:
      return MPIDBG_REQUEST_KIND_COLLECTIVE;
    case MPIDBG_OPERATION_RMA:
      return MPIDBG_REQUEST_KIND_RMA;
    case MPIDBG_OPERATION_FILE:
      return MPIDBG_REQUEST_KIND_FILE;
    case MPIDBG_OPERATION_GENERALIZED:
      return MPIDBG_REQUEST_KIND_GENERALIZED;
    default:
      return MPIDBG_REQUEST_KIND_UNKNOWN;
  }
}

unsigned int request_bits(const mpidbg_operation_record& op) {
  unsigned int bits = 0;
  // MPI_Request_free marks the record and stamps free_serial; either says it.
  if ((op.hdr.flags & MPIDBG_REC_FREED) != 0 || op.free_serial != 0) {
    bits |= MPIDBG_HANDLE_FREED_HANDLE;
  }
  if ((op.hdr.flags & MPIDBG_REC_RELEASED) != 0) bits |= MPIDBG_HANDLE_FREED_OBJECT;
  if ((op.hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0) bits |= MPIDBG_REQUEST_PERSISTENT;
  if ((op.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) bits |= MPIDBG_REQUEST_INACTIVE;
  if (op.status == MPIDBG_OPERATION_MATCHED) bits |= MPIDBG_REQUEST_MATCHED;
  if (op.status == MPIDBG_OPERATION_COMPLETE) bits |= MPIDBG_REQUEST_COMPLETE;
  return bits;
}

// Finds what `handle` denotes: *entry (an operation record), or *is_null; else
// MPIDBG_ERR_NOT_FOUND.
int resolve(const QueryContext& ctx, uint64_t handle, const OperationEntry** entry, bool* is_null) {
  *entry = nullptr;
  *is_null = is_null_handle(ctx, ctx.snapshot->root.request_null_handle, handle);
  if (*is_null) return MPIDBG_SUCCESS;
  *entry = find_request(ctx, handle);
  return *entry != nullptr ? MPIDBG_SUCCESS : MPIDBG_ERR_NOT_FOUND;
}

void fill_base(const QueryContext& ctx, uint64_t handle, bool is_null, mpidbg_request_info_t* out) {
  out->req_bitflags = static_cast<mpidbg_request_info_bitmap_t>(is_null ? MPIDBG_REQUEST_INFO_PREDEFINED : 0);
  out->req_c_handle = static_cast<mqs_taddr_t>(handle);
  // Requests have no Fortran index in the records: known only where it is the C value.
  out->req_fortran_handle = fortran_handle(ctx, -1, handle);
}

void fill_ext(const QueryContext& ctx, const mpidbg_operation_record& op, mpidbg_request_ext_info_t* out) {
  out->req_ext_bitflags = request_bits(op);
  out->req_kind = request_kind(op.direction);
  out->req_creator = op.call;
  set_name(out->req_creator_name, sizeof out->req_creator_name, call_name(op.call));
  out->req_direction = op.direction;
  out->req_mode = op.mode;
  out->req_peer = op.peer;
  out->req_peer_world = op.peer_world;
  out->req_tag = op.tag;
  out->req_actual_source = op.actual_source;
  out->req_actual_tag = op.actual_tag;
  out->req_count = op.count;
  out->req_bytes = op.bytes;
  out->req_actual_bytes = op.actual_bytes;
  out->req_buffer = static_cast<mqs_taddr_t>(op.buffer);
  out->req_datatype = static_cast<mqs_taddr_t>(op.datatype);
  set_name(out->req_datatype_name, sizeof out->req_datatype_name, op.datatype_name);
  out->req_comm = static_cast<mqs_taddr_t>(op.comm_handle);
  out->req_comm_job_id = op.comm_job_id;
  const CommEntry* comm = ctx.snapshot->find_comm(op.comm_job_id, op.comm_handle);
  if (comm != nullptr) {
    mpidbg::plugin::comm_display_name(comm->rec, ctx.snapshot->root, false, out->req_comm_name,
                                      sizeof out->req_comm_name);
  }
  out->req_object = static_cast<mqs_taddr_t>(op.object);
  out->req_file_offset = op.file_offset;
  out->req_target_disp = op.target_disp;
  out->req_extra_state = static_cast<mqs_taddr_t>(op.extra_state);
  out->req_query_fn = static_cast<mqs_taddr_t>(op.query_fn);
  out->req_tid = op.tid;
  out->req_post_time_ns = op.post_time_ns;
  out->req_post_serial = op.post_serial;
}

// Fills the null request's extension fields.
void fill_null_ext(mpidbg_request_ext_info_t* out) {
  out->req_ext_bitflags = MPIDBG_HANDLE_PREDEFINED | MPIDBG_HANDLE_NULL;
  out->req_peer = MPIDBG_RANK_UNKNOWN;
  out->req_peer_world = MPIDBG_RANK_UNKNOWN;
  out->req_file_offset = -1;
}

mpidbg_request_info_t* base_of(mpidbg_request_info_t* info) { return info; }
mpidbg_request_info_t* base_of(mpidbg_request_ext_info_t* info) { return &info->base; }
void fill_more(const QueryContext&, const OperationEntry*, mpidbg_request_info_t*) {}
void fill_more(const QueryContext& ctx, const OperationEntry* entry, mpidbg_request_ext_info_t* out) {
  if (entry == nullptr) {
    fill_null_ext(out);
  } else {
    fill_ext(ctx, entry->rec, out);
  }
}

// The body of mpidbg_request_query and mpidbg_request_query_ext.
template <typename Info>
int query_request(mqs_process* process, mqs_process_info* process_info, mqs_taddr_t request,
                  Info** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const OperationEntry* entry;
  bool is_null;
  rc = resolve(ctx, request, &entry, &is_null);
  if (rc != MPIDBG_SUCCESS) return rc;
  Info* out = new_result<Info>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  fill_base(ctx, is_null ? request : entry->rec.request, is_null, base_of(out));
  fill_more(ctx, is_null ? nullptr : entry, out);
  *info = out;
  return MPIDBG_SUCCESS;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_request_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                       mqs_process_info* process_info, mqs_taddr_t request,
                                       struct mpidbg_request_info_t** info) {
  return query_request(process, process_info, request, info);
}

MPIDBG_EXPORT int mpidbg_request_query_ext(mqs_image*, mqs_image_info*, mqs_process* process,
                                           mqs_process_info* process_info, mqs_taddr_t request,
                                           struct mpidbg_request_ext_info_t** info) {
  return query_request(process, process_info, request, info);
}

MPIDBG_EXPORT int mpidbg_request_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                     mqs_process_info* process_info, mqs_taddr_t f77_request,
                                     mqs_taddr_t* c_request) {
  if (c_request == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  // Only where the Fortran value is the C value (MPICH) can it be converted.
  if (!fortran_is_c(ctx)) return MPIDBG_ERR_NOT_FOUND;
  const uint64_t value = static_cast<uint32_t>(f77_request);
  if (find_request(ctx, value) == nullptr &&
      !is_null_handle(ctx, ctx.snapshot->root.request_null_handle, value)) {
    return MPIDBG_ERR_NOT_FOUND;
  }
  *c_request = static_cast<mqs_taddr_t>(value);
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_request_cxx2c(mqs_image*, mqs_image_info*, mqs_process*,
                                       mqs_process_info*, mqs_taddr_t,
                                       enum mpidbg_request_info_bitmap_t, mqs_taddr_t*) {
  return MPIDBG_ERR_NOT_SUPPORTED;
}
