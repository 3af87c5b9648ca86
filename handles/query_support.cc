#include "handles/query_support.h"

#include "plugin/call_names.h"
#include "plugin/errors.h"
#include "plugin/thread_live.h"

namespace mpidbg::handles {

using plugin::CommEntry;
using plugin::OperationEntry;
using plugin::RuntimeSnapshot;

namespace {

int decode_code(int rc) { return rc == plugin::kErrNoMemory ? MPIDBG_ERR_NO_MEM : MPIDBG_ERR_UNAVAILABLE; }

// The runtime snapshot current at `generation`: the mqs side's when it is current (it
// is re-decoded at every stop), else the handle side's own, decoded afresh when stale.
// A reused one has its threads' live words merged again: they move without the
// generation (the latest time counts a thread's entry into a call).
int current_runtime(plugin::ProcessSession* ps, uint64_t generation, const RuntimeSnapshot** out) {
  if (ps->snapshot != nullptr && ps->snapshot->root.generation == generation) {
    plugin::merge_thread_live(ps->reader, ps->snapshot);
    *out = ps->snapshot;
    return mqs_ok;
  }
  if (ps->handle_snapshot != nullptr && ps->handle_snapshot->root.generation == generation) {
    plugin::merge_thread_live(ps->reader, ps->handle_snapshot);
    *out = ps->handle_snapshot;
    return mqs_ok;
  }
  RuntimeSnapshot* fresh = plugin::debugger_new<RuntimeSnapshot>();
  if (fresh == nullptr) return plugin::kErrNoMemory;
  const int rc = plugin::decode_snapshot(ps->reader, ps->root_addr, ps->limits, fresh);
  if (rc != mqs_ok) {
    plugin::debugger_delete(fresh);
    return rc;
  }
  plugin::debugger_delete(ps->handle_snapshot);
  ps->handle_snapshot = fresh;
  *out = fresh;
  return mqs_ok;
}

int current_objects(plugin::ProcessSession* ps, uint64_t generation,
                    const plugin::ObjectSnapshot** out) {
  if (ps->objects != nullptr && ps->objects->generation == generation) {
    *out = ps->objects;
    return mqs_ok;
  }
  plugin::ObjectSnapshot* fresh = plugin::debugger_new<plugin::ObjectSnapshot>();
  if (fresh == nullptr) return plugin::kErrNoMemory;
  const int rc = plugin::decode_objects(ps->reader, ps->root_addr, ps->limits, fresh);
  if (rc != mqs_ok) {
    plugin::debugger_delete(fresh);
    return rc;
  }
  plugin::debugger_delete(ps->objects);
  ps->objects = fresh;
  *out = fresh;
  return mqs_ok;
}

bool is_live(uint32_t flags) { return (flags & MPIDBG_REC_FREED) == 0; }

}  // namespace

int open_query(mqs_process* process, mqs_process_info* process_info, QueryContext* ctx) {
  forget_result_allocations();
  *ctx = QueryContext();
  if (process_info == nullptr) {
    const mqs_basic_callbacks* basic = plugin::basic_callbacks();
    if (basic == nullptr || basic->mqs_get_process_info_fp == nullptr || process == nullptr) {
      return MPIDBG_ERR_NOT_SUPPORTED;
    }
    process_info = basic->mqs_get_process_info_fp(process);
  }
  if (!plugin::is_live_process_info(process_info)) return MPIDBG_ERR_NOT_SUPPORTED;
  plugin::ProcessSession* ps = &process_info->state;
  int rc = plugin::ensure_root(ps);
  if (rc == plugin::kErrNoRuntime || rc == plugin::kErrNoCallbacks) return MPIDBG_ERR_NOT_SUPPORTED;
  if (rc != mqs_ok) return decode_code(rc);
  // One small read decides whether the cached decodes are still current.
  uint64_t generation = 0;
  rc = plugin::read_root_generation(ps->reader, ps->root_addr, &generation);
  if (rc != mqs_ok) return MPIDBG_ERR_UNAVAILABLE;
  const RuntimeSnapshot* snapshot = nullptr;
  rc = current_runtime(ps, generation, &snapshot);
  if (rc != mqs_ok) return decode_code(rc);
  if (snapshot->root.process_state == MPIDBG_PROCESS_BEFORE_INIT) return MPIDBG_ERR_UNAVAILABLE;
  const plugin::ObjectSnapshot* objects = nullptr;
  rc = current_objects(ps, generation, &objects);
  if (rc != mqs_ok) return decode_code(rc);
  ctx->ps = ps;
  ctx->snapshot = snapshot;
  ctx->objects = objects;
  return MPIDBG_SUCCESS;
}

void set_name(char* dst, size_t dst_size, const char* src) {
  if (dst_size == 0) return;
  if (src == nullptr) src = "";
  size_t n = 0;
  while (n + 1 < dst_size && src[n] != '\0') ++n;
  std::memcpy(dst, src, n);
  std::memset(dst + n, 0, dst_size - n);
}

unsigned int object_bits(uint32_t record_flags) {
  unsigned int bits = 0;
  if ((record_flags & MPIDBG_REC_PREDEFINED) != 0) bits |= MPIDBG_HANDLE_PREDEFINED;
  if ((record_flags & MPIDBG_REC_FREED) != 0) bits |= MPIDBG_HANDLE_FREED_HANDLE;
  if ((record_flags & MPIDBG_REC_RELEASED) != 0) bits |= MPIDBG_HANDLE_FREED_OBJECT;
  return bits;
}

const char* call_name(int32_t call) {
  const char* name = plugin::call_name(call);
  return name != nullptr ? name : "";
}

int handle_code(int plugin_rc) {
  switch (plugin_rc) {
    case mqs_ok:
      return MPIDBG_SUCCESS;
    case plugin::kErrNoMemory:
      return MPIDBG_ERR_NO_MEM;
    case plugin::kErrNoRuntime:
    case plugin::kErrNoCallbacks:
      return MPIDBG_ERR_NOT_SUPPORTED;
    default:
      return MPIDBG_ERR_UNAVAILABLE;
  }
}

bool same(const QueryContext& ctx, uint64_t a, uint64_t b) {
  return plugin::same_handle(a, b, ctx.snapshot->root.handle_size);
}

const char* predefined_comm_name(const QueryContext& ctx, const mpidbg_comm_record& c) {
  const mpidbg_root& root = ctx.snapshot->root;
  if (root.comm_world_handle != 0 && same(ctx, c.handle, root.comm_world_handle)) {
    return "MPI_COMM_WORLD";
  }
  if (root.comm_self_handle != 0 && same(ctx, c.handle, root.comm_self_handle)) {
    return "MPI_COMM_SELF";
  }
  return "";
}

bool fortran_is_c(const QueryContext& ctx) {
  const mpidbg_root& root = ctx.snapshot->root;
  return root.flavour == MPIDBG_FLAVOUR_MPICH && root.handle_size == 4;
}

int fortran_handle(const QueryContext& ctx, int32_t fortran_index, uint64_t c_handle) {
  // MPICH's Fortran handles are its C handles, often negative as ints: only -1 means
  // "not known".
  if (fortran_index != -1) return fortran_index;
  if (fortran_is_c(ctx)) return static_cast<int>(static_cast<uint32_t>(c_handle));
  return MPIDBG_ERR_UNAVAILABLE;
}

bool is_null_handle(const QueryContext& ctx, uint64_t null_handle, uint64_t handle) {
  return null_handle != 0 && same(ctx, null_handle, handle);
}

namespace {

// Live over orphan; among live the one created last; among orphans the one freed last.
bool better_comm(const CommEntry& c, const CommEntry* best) {
  if (best == nullptr) return true;
  const bool c_live = is_live(c.rec.hdr.flags);
  const bool b_live = is_live(best->rec.hdr.flags);
  if (c_live != b_live) return c_live;
  if (c_live) return c.rec.create_serial >= best->rec.create_serial;
  return c.rec.free_serial >= best->rec.free_serial;
}

bool request_freed(const mpidbg_operation_record& op) {
  return (op.hdr.flags & MPIDBG_REC_FREED) != 0 || op.free_serial != 0;
}

}  // namespace

const CommEntry* find_comm(const QueryContext& ctx, uint64_t handle) {
  const CommEntry* best = nullptr;
  for (const CommEntry& c : ctx.snapshot->comms) {
    if (same(ctx, c.rec.handle, handle) && better_comm(c, best)) best = &c;
  }
  return best;
}

const CommEntry* find_comm_f(const QueryContext& ctx, int32_t index) {
  if (index == -1) return nullptr;  // "not known", never an index
  const CommEntry* best = nullptr;
  for (const CommEntry& c : ctx.snapshot->comms) {
    if (c.rec.fortran_index == index && better_comm(c, best)) best = &c;
  }
  return best;
}

const OperationEntry* find_request(const QueryContext& ctx, uint64_t request) {
  const OperationEntry* best = nullptr;
  for (const OperationEntry& op : ctx.snapshot->operations) {
    if (op.rec.request == 0 || !same(ctx, op.rec.request, request)) continue;
    if (best == nullptr) {
      best = &op;
      continue;
    }
    const bool o_live = !request_freed(op.rec);
    const bool b_live = !request_freed(best->rec);
    if (o_live != b_live) {
      if (o_live) best = &op;
    } else if (o_live ? op.rec.post_serial >= best->rec.post_serial
                      : op.rec.free_serial >= best->rec.free_serial) {
      best = &op;
    }
  }
  return best;
}

}  // namespace mpidbg::handles
