// info_query.cc — mpidbg_info_query and mpidbg_info_f2c: an MPI_Info's key/value pairs.
//
// The runtime keeps them as one byte array, "key\0value\0" per pair, nkeys pairs. The
// bytes come from the target: the array is bounded by ObjectLimits.max_info_bytes and
// a pair that runs past its end, or a count the bytes cannot hold, is damage.
#include <cstring>

#include "handles/object_query.h"
#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/debugger_memory.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::InfoEntry;
using mpidbg::plugin::Vec;

// The NUL-terminated string at bytes[*pos], advancing *pos past its NUL; nullptr when
// no NUL follows within the array.
const char* next_string(const Vec<uint8_t>& bytes, size_t* pos) {
  if (*pos >= bytes.size()) return nullptr;
  const void* nul = std::memchr(bytes.data() + *pos, 0, bytes.size() - *pos);
  if (nul == nullptr) return nullptr;
  const char* s = reinterpret_cast<const char*>(bytes.data() + *pos);
  *pos = static_cast<size_t>(static_cast<const uint8_t*>(nul) - bytes.data()) + 1;
  return s;
}

int fill_pairs(const QueryContext& ctx, const mpidbg_info_record& r, mpidbg_info_info_t* info) {
  if (r.nkeys == 0) return MPIDBG_SUCCESS;
  const mpidbg_array& a = r.entries;
  if (r.nkeys < 0 || a.elem_size != 1 || a.count > ctx.limits.max_info_bytes ||
      static_cast<uint64_t>(r.nkeys) * 2 > a.count)
    return MPIDBG_ERR_UNAVAILABLE;
  Vec<uint8_t> bytes;
  const int rc = mpidbg::plugin::read_side_array(ctx.ps->reader, a, 1, ctx.limits, &bytes);
  if (rc != mqs_ok) return handle_code(rc);
  const size_t n = static_cast<size_t>(r.nkeys);
  auto* pairs = static_cast<mpidbg_info_pair_t*>(result_alloc(n * sizeof(mpidbg_info_pair_t)));
  if (pairs == nullptr) return MPIDBG_ERR_NO_MEM;
  std::memset(static_cast<void*>(pairs), 0, n * sizeof(mpidbg_info_pair_t));
  info->info_pairs = pairs;
  size_t pos = 0;
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    const char* key = next_string(bytes, &pos);
    const char* value = key != nullptr ? next_string(bytes, &pos) : nullptr;
    if (value == nullptr) return MPIDBG_ERR_UNAVAILABLE;
    pairs[i].key = copy_string(key, &ok);
    pairs[i].value = copy_string(value, &ok);
    if (!ok) return MPIDBG_ERR_NO_MEM;
  }
  info->info_num_pairs = r.nkeys;
  return MPIDBG_SUCCESS;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_info_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                    mqs_process_info* process_info, mqs_taddr_t info_handle,
                                    mpidbg_info_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const InfoEntry* e = ctx.objects->find_info(info_handle);
  const bool null = is_null_handle(ctx, ctx.snapshot->root.info_null_handle, info_handle);
  if (e == nullptr && !null) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_info_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e == nullptr) {  // MPI_INFO_NULL has no record
    out->info_bitflags = MPIDBG_HANDLE_NULL;
    out->info_c_handle = info_handle;
    out->info_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
    *info = out;
    return MPIDBG_SUCCESS;
  }
  const mpidbg_info_record& r = e->rec;
  out->info_bitflags = object_bits(r.obj.hdr.flags);
  if (null) out->info_bitflags |= MPIDBG_HANDLE_NULL;
  out->info_c_handle = r.obj.handle;
  out->info_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  rc = fill_pairs(ctx, r, out);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_info_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                  mqs_process_info* process_info, mqs_taddr_t f77_info,
                                  mqs_taddr_t* c_info) {
  return object_f2c(process, process_info, f77_info, c_info,
                    &mpidbg::plugin::ObjectSnapshot::find_info_f);
}
