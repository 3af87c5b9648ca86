#include "process_info.h"

#include "plugin/debugger_memory.h"
#include "plugin/errors.h"

namespace mpidbg::mqs {

using plugin::debugger_delete;
using plugin::debugger_new;

ProcessState* process_state(mqs_process* process) {
  const mqs_basic_callbacks* basic = plugin::basic_callbacks();
  if (basic == nullptr || basic->mqs_get_process_info_fp == nullptr || process == nullptr) {
    return nullptr;
  }
  _mqs_process_info* info = basic->mqs_get_process_info_fp(process);
  return info != nullptr ? &info->state : nullptr;
}

int ensure_root(ProcessState* ps) {
  if (ps->root_known) return mqs_ok;
  TargetAddr addr;
  int rc = plugin::find_runtime_root(ps->image, &ps->image_cb, &addr);
  if (rc != mqs_ok) return rc;
  mpidbg_root root;
  rc = plugin::read_runtime_root(ps->reader, addr, ps->limits, &root);
  if (rc != mqs_ok) return rc;
  ps->root_addr = addr;
  ps->root_known = true;
  return mqs_ok;
}

int read_current_root(mqs_process* process, ProcessState** ps, mpidbg_root* root) {
  *ps = process_state(process);
  if (*ps == nullptr) return plugin::kErrOutOfOrder;
  const int rc = ensure_root(*ps);
  if (rc != mqs_ok) return rc;
  return plugin::read_runtime_root((*ps)->reader, (*ps)->root_addr, (*ps)->limits, root);
}

static void reset_iterators(ProcessState* ps) {
  ps->comm_cursor = Cursor::kNotSetUp;
  ps->comm_index = 0;
  ps->op_cursor = Cursor::kNotSetUp;
  ps->op_next = 0;
  ps->last_op = SIZE_MAX;
}

int refresh_snapshot(ProcessState* ps) {
  int rc = ensure_root(ps);
  if (rc != mqs_ok) return rc;
  RuntimeSnapshot* fresh = debugger_new<RuntimeSnapshot>();
  if (fresh == nullptr) return plugin::kErrNoMemory;
  rc = plugin::decode_snapshot(ps->reader, ps->root_addr, ps->limits, fresh);
  if (rc != mqs_ok) {
    debugger_delete(fresh);
    return rc;
  }
  debugger_delete(ps->snapshot);
  ps->snapshot = fresh;
  reset_iterators(ps);
  return mqs_ok;
}

int current_snapshot(ProcessState* ps, const RuntimeSnapshot** out) {
  if (ps->snapshot != nullptr) {
    uint64_t generation = 0;
    const int rc = plugin::read_root_generation(ps->reader, ps->root_addr, &generation);
    if (rc == mqs_ok && generation == ps->snapshot->root.generation) {
      *out = ps->snapshot;
      return mqs_ok;
    }
  }
  const int rc = refresh_snapshot(ps);
  if (rc != mqs_ok) return rc;
  *out = ps->snapshot;
  return mqs_ok;
}

bool comm_is_listed(const CommEntry& comm) {
  return (comm.rec.hdr.flags & MPIDBG_REC_FREED) == 0 || comm.pending_ops > 0;
}

const CommEntry* current_comm(const ProcessState* ps) {
  if (ps->comm_cursor != Cursor::kOn || ps->snapshot == nullptr ||
      ps->comm_index >= ps->snapshot->comms.size()) {
    return nullptr;
  }
  return &ps->snapshot->comms[ps->comm_index];
}

void destroy_process_state(_mqs_process_info* info) {
  if (info == nullptr) return;
  debugger_delete(info->state.snapshot);
  info->state.snapshot = nullptr;
  debugger_delete(info->state.traffic);
  info->state.traffic = nullptr;
  debugger_delete(info->state.mpit);
  info->state.mpit = nullptr;
  debugger_delete(info);
}

}  // namespace mpidbg::mqs
