// object_query.cc — see object_query.h.
#include "handles/object_query.h"

#include "plugin/session.h"
#include "plugin/debugger_memory.h"

namespace mpidbg::handles {

int copy_int32_array(const QueryContext& ctx, const mpidbg_array& array, int** out, int* count) {
  *out = nullptr;
  *count = 0;
  plugin::Vec<int32_t> values;
  const int rc = plugin::read_int32_array(ctx.ps->reader, array, ctx.limits, &values);
  if (rc != mqs_ok) return handle_code(rc);
  bool ok = true;
  static_assert(sizeof(int) == sizeof(int32_t), "int arrays of the interface are int32");
  *out = copy_out(reinterpret_cast<const int*>(values.data()), values.size(), &ok);
  if (!ok) return MPIDBG_ERR_NO_MEM;
  *count = static_cast<int>(values.size());
  return MPIDBG_SUCCESS;
}

int pending_requests(const QueryContext& ctx, int32_t direction, uint64_t object,
                     mqs_taddr_t** out, int* count) {
  *out = nullptr;
  *count = 0;
  plugin::Vec<mqs_taddr_t> found;
  for (const plugin::OperationEntry& op : ctx.snapshot->operations) {
    const mpidbg_operation_record& r = op.rec;
    if (r.direction != direction || r.request == 0 || !same(ctx, r.object, object)) continue;
    if ((r.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) continue;
    if (!found.push_back(r.request)) return MPIDBG_ERR_NO_MEM;
  }
  bool ok = true;
  *out = copy_out(found.data(), found.size(), &ok);
  if (!ok) return MPIDBG_ERR_NO_MEM;
  *count = static_cast<int>(found.size());
  return MPIDBG_SUCCESS;
}

}  // namespace mpidbg::handles
