// status_query.cc — MPI_Status variables of the program: mpidbg_status_query (version
// 1) and mpidbg_status_query_ext with the status's contents, decoded with the layout
// the runtime recorded in its root (status_* fields) and the target's byte order.
#include "handles/query_support.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::Decoder;
using mpidbg::plugin::TargetAddr;

// No MPI's status is anywhere near this; a larger recorded size is damage.
constexpr uint32_t kMaxStatusSize = 256;

struct StatusBytes {
  uint8_t bytes[kMaxStatusSize];
  uint32_t size = 0;
};

// Reads the status variable at `addr` (root.status_size bytes).
int read_status(const QueryContext& ctx, uint64_t addr, StatusBytes* out) {
  const uint32_t size = ctx.snapshot->root.status_size;
  if (size == 0 || size > kMaxStatusSize) return MPIDBG_ERR_UNAVAILABLE;  // layout not known
  if (addr == 0) return MPIDBG_ERR_NOT_FOUND;
  if (ctx.ps->reader.read(TargetAddr(addr), size, out->bytes) != mqs_ok) {
    return MPIDBG_ERR_UNAVAILABLE;
  }
  out->size = size;
  return MPIDBG_SUCCESS;
}

// An int field at a recorded offset; false when the offset is absent or outside.
bool int_at(const Decoder& d, int32_t offset, int* out) {
  if (offset < 0 || !d.has(static_cast<size_t>(offset), 4)) return false;
  *out = d.i32(static_cast<size_t>(offset));
  return true;
}

void decode_count(const QueryContext& ctx, const Decoder& d, mpidbg_status_ext_info_t* out) {
  const mpidbg_root& root = ctx.snapshot->root;
  out->status_bytes = -1;
  out->status_cancelled = -1;
  const int32_t at = root.status_count_offset;
  switch (root.status_count_encoding) {
    case MPIDBG_STATUS_COUNT_LO_HI_CANCELLED: {
      // count_lo, then count_hi_and_cancelled: 31 high bits of the count and the flag.
      if (at < 0 || !d.has(static_cast<size_t>(at), 8)) return;
      const uint32_t lo = d.u32(static_cast<size_t>(at));
      const uint32_t hi = d.u32(static_cast<size_t>(at) + 4);
      out->status_bytes = static_cast<int64_t>(uint64_t{lo} | (uint64_t{hi >> 1} << 32));
      int flag_word = static_cast<int>(hi);
      if (root.status_cancelled_offset >= 0) int_at(d, root.status_cancelled_offset, &flag_word);
      out->status_cancelled = flag_word & 1;
      return;
    }
    case MPIDBG_STATUS_COUNT_SIZE_T: {
      // size_t _ucount: the target's pointer width; int _cancelled apart.
      const size_t width = ctx.ps->reader.format().pointer_size == 4 ? 4 : 8;
      if (at >= 0 && d.has(static_cast<size_t>(at), width)) {
        out->status_bytes = width == 4 ? static_cast<int64_t>(d.u32(static_cast<size_t>(at)))
                                       : static_cast<int64_t>(d.u64(static_cast<size_t>(at)));
      }
      int flag = 0;
      if (int_at(d, root.status_cancelled_offset, &flag)) out->status_cancelled = flag != 0 ? 1 : 0;
      return;
    }
    default:
      return;
  }
}

int query(mqs_process* process, mqs_process_info* process_info, mqs_taddr_t status,
          mpidbg_status_ext_info_t* out) {
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  StatusBytes raw;
  rc = read_status(ctx, status, &raw);
  if (rc != MPIDBG_SUCCESS) return rc;
  const Decoder d(raw.bytes, raw.size, ctx.ps->reader.format().swap);
  const mpidbg_root& root = ctx.snapshot->root;
  if (!int_at(d, root.status_source_offset, &out->status_source) ||
      !int_at(d, root.status_tag_offset, &out->status_tag) ||
      !int_at(d, root.status_error_offset, &out->status_error)) {
    return MPIDBG_ERR_UNAVAILABLE;
  }
  decode_count(ctx, d, out);
  // A status is a value, never a predefined object.
  out->base.status_bitflags = static_cast<mpidbg_status_info_bitmap_t>(0);
  return MPIDBG_SUCCESS;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_status_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                      mqs_process_info* process_info, mqs_taddr_t status,
                                      struct mpidbg_status_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  mpidbg_status_ext_info_t full{};
  const int rc = query(process, process_info, status, &full);
  if (rc != MPIDBG_SUCCESS) return rc;
  auto* out = new_result<mpidbg_status_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  *out = full.base;
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_status_query_ext(mqs_image*, mqs_image_info*, mqs_process* process,
                                          mqs_process_info* process_info, mqs_taddr_t status,
                                          struct mpidbg_status_ext_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  mpidbg_status_ext_info_t full{};
  const int rc = query(process, process_info, status, &full);
  if (rc != MPIDBG_SUCCESS) return rc;
  auto* out = new_result<mpidbg_status_ext_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  *out = full;
  *info = out;
  return MPIDBG_SUCCESS;
}

// A Fortran status is an INTEGER array with its own layout, and a C++ status is gone
// with the C++ bindings: neither has a C status variable to point at.
MPIDBG_EXPORT int mpidbg_status_f2c(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                                    mqs_taddr_t, mqs_taddr_t*) {
  return MPIDBG_ERR_NOT_SUPPORTED;
}

MPIDBG_EXPORT int mpidbg_status_cxx2c(mqs_image*, mqs_image_info*, mqs_process*,
                                      mqs_process_info*, mqs_taddr_t, mqs_taddr_t*) {
  return MPIDBG_ERR_NOT_SUPPORTED;
}
