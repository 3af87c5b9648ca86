// object_query.h — what the queries of the extension kinds (datatype, group, op, info,
// window, file, message) share beyond query_support.h: the Fortran handle field,
// the f2c lookup, side arrays copied into a result, and the requests pending on a
// window or file.
#ifndef MPIDBG_HANDLES_OBJECT_QUERY_H
#define MPIDBG_HANDLES_OBJECT_QUERY_H

#include <cstddef>
#include <cstdint>

#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "mpidbg/records.h"
#include "plugin/object_snapshot.h"

namespace mpidbg::handles {

// A record's char field (src_size bytes, terminated or not) into a result's fixed
// char field, bounded by both and always terminated.
inline void copy_field(char* dst, size_t dst_size, const char* src, size_t src_size) {
  if (dst_size == 0) return;
  size_t n = 0;
  while (n + 1 < dst_size && n < src_size && src[n] != '\0') ++n;
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  for (size_t i = n; i < dst_size; ++i) dst[i] = '\0';
}

// A Fortran handle as the debugger passed it: an INTEGER widened with or without sign
// extension (MPICH's are its C handles, often negative as ints). -1 when the value
// cannot be a 32-bit INTEGER (and -1 itself is never a handle).
inline int32_t fortran_index_of(mqs_taddr_t f77) {
  const uint64_t v = static_cast<uint64_t>(f77);
  const uint64_t high = v >> 32;
  if (high != 0 && high != 0xffffffffu) return -1;
  return static_cast<int32_t>(static_cast<uint32_t>(v));
}

// The f2c of every extension kind: the C handle of the record with that Fortran index
// (`find` is one of ObjectSnapshot::find_*_f).
template <typename Entry>
int object_f2c(mqs_process* process, mqs_process_info* process_info, mqs_taddr_t f77,
               mqs_taddr_t* c_handle,
               const Entry* (plugin::ObjectSnapshot::*find)(int32_t) const) {
  if (c_handle == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const int32_t index = fortran_index_of(f77);
  const Entry* e = index != -1 ? (ctx.objects->*find)(index) : nullptr;
  if (e == nullptr) return MPIDBG_ERR_NOT_FOUND;
  *c_handle = e->rec.obj.handle;
  return MPIDBG_SUCCESS;
}

// A side array of int32 copied into a result array (nullptr when empty); *count set.
// MPIDBG_ERR_UNAVAILABLE when the array is damaged, MPIDBG_ERR_NO_MEM.
int copy_int32_array(const QueryContext& ctx, const mpidbg_array& array, int** out, int* count);

// The request handles of the operations pending on a window (MPIDBG_OPERATION_RMA) or a file
// (MPIDBG_OPERATION_FILE): op records naming `object` that are not inactive persistent
// requests, in posting order, copied into a result array.
int pending_requests(const QueryContext& ctx, int32_t direction, uint64_t object,
                     mqs_taddr_t** out, int* count);

}  // namespace mpidbg::handles

#endif  // MPIDBG_HANDLES_OBJECT_QUERY_H
