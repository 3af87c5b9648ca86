#include "plugin/session.h"

#include "plugin/debugger_memory.h"
#include "plugin/errors.h"
#include "plugin/result_memory.h"
#include "plugin/thread_live.h"

namespace mpidbg::plugin {

ProcessSession* process_session(mqs_process* process) {
  const mqs_basic_callbacks* basic = basic_callbacks();
  if (basic == nullptr || basic->mqs_get_process_info_fp == nullptr || process == nullptr) {
    return nullptr;
  }
  _mqs_process_info* info = basic->mqs_get_process_info_fp(process);
  return info != nullptr ? &info->state : nullptr;
}

int ensure_root(ProcessSession* ps) {
  if (ps->root_known) return mqs_ok;
  TargetAddr addr;
  int rc = find_runtime_root(ps->image, &ps->image_cb, &addr);
  if (rc != mqs_ok) return rc;
  mpidbg_root root;
  rc = read_runtime_root(ps->reader, addr, ps->limits, &root);
  if (rc != mqs_ok) return rc;
  ps->root_addr = addr;
  ps->root_known = true;
  return mqs_ok;
}

int read_current_root(mqs_process* process, ProcessSession** ps, mpidbg_root* root) {
  *ps = process_session(process);
  if (*ps == nullptr) return kErrOutOfOrder;
  const int rc = ensure_root(*ps);
  if (rc != mqs_ok) return rc;
  return read_runtime_root((*ps)->reader, (*ps)->root_addr, (*ps)->limits, root);
}

static void reset_iterators(ProcessSession* ps) {
  ps->comm_cursor = Cursor::kNotSetUp;
  ps->comm_index = 0;
  ps->op_cursor = Cursor::kNotSetUp;
  ps->op_next = 0;
  ps->last_op = SIZE_MAX;
}

int refresh_snapshot(ProcessSession* ps) {
  int rc = ensure_root(ps);
  if (rc != mqs_ok) return rc;
  RuntimeSnapshot* fresh = debugger_new<RuntimeSnapshot>();
  if (fresh == nullptr) return kErrNoMemory;
  rc = decode_snapshot(ps->reader, ps->root_addr, ps->limits, fresh);
  if (rc != mqs_ok) {
    debugger_delete(fresh);
    return rc;
  }
  debugger_delete(ps->snapshot);
  ps->snapshot = fresh;
  reset_iterators(ps);
  return mqs_ok;
}

int replace_traffic(ProcessSession* ps, const mpidbg_root& root, TrafficSnapshot** slot) {
  TrafficSnapshot* fresh = debugger_new<TrafficSnapshot>();
  if (fresh == nullptr) return kErrNoMemory;
  const int rc = decode_traffic(ps->reader, root, ps->traffic_limits, ps->limits, fresh);
  if (rc != mqs_ok) {
    debugger_delete(fresh);
    return rc;
  }
  debugger_delete(*slot);
  *slot = fresh;
  return mqs_ok;
}

namespace {

// Decodes the block at `block` (a root field; 0 when the runtime keeps none, or its root
// is older and ends before the field) into a fresh T with `decode` and swaps it into
// *slot; the old one goes either way.
template <typename T, typename Limits, typename Decode>
int replace_block(ProcessSession* ps, uint64_t block, const Limits& limits, Decode decode,
                  T** slot) {
  debugger_delete(*slot);
  *slot = nullptr;
  T* fresh = debugger_new<T>();
  if (fresh == nullptr) return kErrNoMemory;
  const int rc = decode(ps->reader, TargetAddr(block), limits, fresh);
  if (rc != mqs_ok) {
    debugger_delete(fresh);
    return rc;
  }
  *slot = fresh;
  return mqs_ok;
}

}  // namespace

void drop_monitor(ProcessSession* ps) {
  debugger_delete(ps->monitor);
  ps->monitor = nullptr;
}

void drop_profile(ProcessSession* ps) {
  debugger_delete(ps->profile);
  ps->profile = nullptr;
}

int replace_monitor(ProcessSession* ps, const mpidbg_root& root) {
  return replace_block(ps, root.monitor, ps->monitor_limits, decode_monitor,
                       &ps->monitor);
}

int replace_profile(ProcessSession* ps, const mpidbg_root& root) {
  return replace_block(ps, root.profile, ps->profile_limits, decode_profile,
                       &ps->profile);
}

int update_snapshot(ProcessSession* ps) {
  if (ps->snapshot != nullptr) {
    uint64_t generation = 0;
    const int rc = read_root_generation(ps->reader, ps->root_addr, &generation);
    if (rc == mqs_ok && generation == ps->snapshot->root.generation) {
      // The live words move without the generation: merged again on every reuse.
      merge_thread_live(ps->reader, ps->snapshot);
      reset_iterators(ps);
      return mqs_ok;
    }
  }
  return refresh_snapshot(ps);
}

int current_snapshot(ProcessSession* ps, const RuntimeSnapshot** out) {
  if (ps->snapshot != nullptr) {
    uint64_t generation = 0;
    const int rc = read_root_generation(ps->reader, ps->root_addr, &generation);
    if (rc == mqs_ok && generation == ps->snapshot->root.generation) {
      merge_thread_live(ps->reader, ps->snapshot);
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

const CommEntry* current_comm(const ProcessSession* ps) {
  if (ps->comm_cursor != Cursor::kOn || ps->snapshot == nullptr ||
      ps->comm_index >= ps->snapshot->comms.size()) {
    return nullptr;
  }
  return &ps->snapshot->comms[ps->comm_index];
}

namespace {

_mqs_image_info* g_image_infos = nullptr;
_mqs_process_info* g_process_infos = nullptr;

template <typename Info>
void link(Info** head, Info* info) {
  info->prev = nullptr;
  info->next = *head;
  if (*head != nullptr) (*head)->prev = info;
  *head = info;
}

template <typename Info>
void unlink(Info** head, Info* info) {
  if (info->prev != nullptr) info->prev->next = info->next;
  if (info->next != nullptr) info->next->prev = info->prev;
  if (*head == info) *head = info->next;
  info->prev = info->next = nullptr;
}

template <typename Info>
bool on_list(const Info* head, const Info* info) {
  if (info == nullptr) return false;
  for (const Info* i = head; i != nullptr; i = i->next) {
    if (i == info) return true;
  }
  return false;
}

uint8_t bit(InfoUser user) { return static_cast<uint8_t>(user); }

}  // namespace

void destroy_process_session(_mqs_process_info* info) {
  if (info == nullptr) return;
  if (on_list(g_process_infos, info)) unlink(&g_process_infos, info);
  debugger_delete(info->state.snapshot);
  info->state.snapshot = nullptr;
  debugger_delete(info->state.traffic);
  info->state.traffic = nullptr;
  debugger_delete(info->state.mpit);
  info->state.mpit = nullptr;
  drop_monitor(&info->state);
  drop_profile(&info->state);
  debugger_delete(info->state.handle_snapshot);
  info->state.handle_snapshot = nullptr;
  debugger_delete(info->state.objects);
  info->state.objects = nullptr;
  debugger_delete(info->state.sender_traffic);
  info->state.sender_traffic = nullptr;
  debugger_delete(info);
  // The bookkeeping of results handed to the debugger is DLL-wide; it goes with the
  // last process.
  if (g_process_infos == nullptr) release_result_tracking();
}

bool is_live_image_info(const _mqs_image_info* info) { return on_list(g_image_infos, info); }
bool is_live_process_info(const _mqs_process_info* info) {
  return on_list(g_process_infos, info);
}
bool any_process_info() { return g_process_infos != nullptr; }
_mqs_process_info* first_process_info() { return g_process_infos; }

int acquire_image_info(mqs_image* image, const mqs_image_callbacks* cb, InfoUser user,
                       _mqs_image_info** out) {
  const mqs_basic_callbacks* basic = basic_callbacks();
  if (basic == nullptr || basic->mqs_put_image_info_fp == nullptr || cb == nullptr) {
    return kErrNoCallbacks;
  }
  _mqs_image_info* info = nullptr;
  if (basic->mqs_get_image_info_fp != nullptr) {
    _mqs_image_info* attached = basic->mqs_get_image_info_fp(image);
    if (is_live_image_info(attached) && attached->image == image) info = attached;
  }
  if (info == nullptr) {
    info = debugger_new<_mqs_image_info>();
    if (info == nullptr) return kErrNoMemory;
    info->image = image;
    link(&g_image_infos, info);
    basic->mqs_put_image_info_fp(image, info);
  }
  info->cb = *cb;
  info->users |= bit(user);
  *out = info;
  return mqs_ok;
}

void release_image_info(_mqs_image_info* info, InfoUser user) {
  if (!is_live_image_info(info)) return;
  info->users &= static_cast<uint8_t>(~bit(user));
  if (info->users != 0) return;
  unlink(&g_image_infos, info);
  debugger_delete(info);
}

int acquire_process_info(mqs_process* process, const mqs_process_callbacks* cb, InfoUser user,
                         _mqs_process_info** out) {
  const mqs_basic_callbacks* basic = basic_callbacks();
  if (basic == nullptr || basic->mqs_put_process_info_fp == nullptr ||
      basic->mqs_get_process_info_fp == nullptr || basic->mqs_get_image_info_fp == nullptr ||
      cb == nullptr || cb->mqs_get_image_fp == nullptr || cb->mqs_fetch_data_fp == nullptr) {
    return kErrNoCallbacks;
  }
  mqs_image* image = cb->mqs_get_image_fp(process);
  _mqs_image_info* image_info = basic->mqs_get_image_info_fp(image);
  if (!is_live_image_info(image_info)) return kErrOutOfOrder;  // image first

  _mqs_process_info* info = basic->mqs_get_process_info_fp(process);
  if (!is_live_process_info(info) || info->state.process != process) {
    info = debugger_new<_mqs_process_info>();
    if (info == nullptr) return kErrNoMemory;
    link(&g_process_infos, info);
    basic->mqs_put_process_info_fp(process, info);
  }
  ProcessSession& ps = info->state;
  ps.process = process;
  ps.cb = *cb;
  ps.image = image;
  ps.image_cb = image_info->cb;
  // Byte order as the debugger says; the root's magic confirms or corrects it later.
  TargetFormat format;
  bool swap = false;
  format.swap = byte_order_from_debugger(process, &ps.cb, &swap) && swap;
  format.pointer_size = pointer_size_from_debugger(process, &ps.image_cb, 8);
  if ((info->users & ~bit(user)) != 0 && ps.root_known) {
    // The other interface set this process up and found the root: the magic settled the
    // byte order then; keep it.
    format.swap = ps.reader.format().swap;
  }
  ps.reader = TargetReader(process, &ps.cb, format);
  info->users |= bit(user);
  *out = info;
  return mqs_ok;
}

void release_process_info(_mqs_process_info* info, InfoUser user) {
  if (!is_live_process_info(info)) return;
  info->users &= static_cast<uint8_t>(~bit(user));
  if (info->users != 0) return;
  destroy_process_session(info);
}

}  // namespace mpidbg::plugin
