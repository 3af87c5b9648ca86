// threads.cc — process summary and per-thread state of the mpidbg extensions.
#include <cstddef>
#include <cstring>

#include "extensions/operation_info.h"
#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/call_names.h"
#include "plugin/comm_names.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::ProcessSession;
using mpidbg::plugin::RuntimeSnapshot;
using mpidbg::plugin::ThreadEntry;
using namespace mpidbg::plugin;

// The snapshot to answer from, refreshed when the runtime's generation moved on.
int snapshot_for(mqs_process* process, ProcessSession** ps_out, const RuntimeSnapshot** snap) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  *ps_out = ps;
  return mpidbg::plugin::current_snapshot(ps, snap);
}

int thread_at(mqs_process* process, int index, ProcessSession** ps, const RuntimeSnapshot** snap,
              const ThreadEntry** thread) {
  const int rc = snapshot_for(process, ps, snap);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= (*snap)->threads.size()) return kErrNoSuchThread;
  *thread = &(*snap)->threads[static_cast<size_t>(index)];
  return mqs_ok;
}

// Requests a WAIT-class call waits for; 0 for any other call or an absent array.
int32_t waited_count(const mpidbg_thread_record& t, const SnapshotLimits& limits) {
  if (call_class(t.call) != MPIDBG_CLASS_WAIT || t.requests == 0 || t.request_count <= 0) return 0;
  return t.request_count <= limits.max_request_count ? t.request_count : 0;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_ext_version(void) { return MPIDBG_EXT_VERSION; }

MPIDBG_EXPORT int mpidbg_process_get_summary(mqs_process* process, mpidbg_process_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  const RuntimeSnapshot* snap;
  const int rc = snapshot_for(process, &ps, &snap);
  if (rc != mqs_ok) return rc;
  const mpidbg_root& root = snap->root;
  mpidbg_process_summary full;
  std::memset(&full, 0, sizeof full);
  full.flavour = static_cast<int32_t>(root.flavour);
  full.process_state = root.process_state;
  full.world_rank = root.world_rank;
  full.world_size = root.world_size;
  full.thread_level = root.thread_level;
  full.pid = root.pid;
  full.thread_count = static_cast<int32_t>(snap->threads.size());
  full.generation = root.generation;
  full.init_time_ns = root.init_time_ns;
  std::memcpy(full.mpi_library, root.mpi_library, sizeof full.mpi_library);
  std::memcpy(full.hostname, root.hostname, sizeof full.hostname);
  const SnapshotStats& walk = snap->stats;
  full.records_torn = walk.records_torn;
  full.records_bad = walk.records_bad;
  full.tables_damaged = walk.tables_damaged;
  full.rings_damaged = walk.rings_damaged;
  full.live_unreadable = walk.live_unreadable;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_thread_count(mqs_process* process, int* count) {
  if (count == nullptr) return kErrBadArgument;
  ProcessSession* ps;
  const RuntimeSnapshot* snap;
  const int rc = snapshot_for(process, &ps, &snap);
  if (rc != mqs_ok) return rc;
  *count = static_cast<int>(snap->threads.size());
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_thread_get(mqs_process* process, int index, mpidbg_thread_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  const RuntimeSnapshot* snap;
  const ThreadEntry* thread;
  const int rc = thread_at(process, index, &ps, &snap, &thread);
  if (rc != mqs_ok) return rc;
  const mpidbg_thread_record& t = thread->rec;

  mpidbg_thread_info full;
  std::memset(&full, 0, sizeof full);
  full.state = t.state;
  full.tid = t.tid;
  full.entry_time_ns = t.state == MPIDBG_THREAD_NOT_IN_MPI ? 0 : t.entry_time_ns;
  full.calls = t.calls;
  full.comm_id = t.comm_job_id;
  full.comm_handle = t.comm_handle;
  full.count = t.count;
  full.call = t.call;
  full.call_class = call_class(t.call);
  full.root = t.root;
  full.waited_count = waited_count(t, ps->limits);
  full.recording_paused = thread->recording_paused;
  mpidbg::extensions::call_display_name(t.call, full.call_name, sizeof full.call_name);
  if (t.comm_handle != 0 || t.comm_job_id != 0) {
    if (const CommEntry* comm = snap->find_comm(t.comm_job_id, t.comm_handle)) {
      comm_display_name(comm->rec, snap->root, false, full.comm_name, sizeof full.comm_name);
    }
  }
  std::memcpy(full.datatype_name, t.datatype_name, sizeof full.datatype_name);
  if (t.op != 0) {
    // The blocking call's envelope is an operation record; the thread points at it.
    if (const OperationEntry* op = snap->find_operation_at(TargetAddr(t.op))) {
      full.has_operation = 1;
      mpidbg::extensions::fill_operation_info(*snap, *op, &full.operation);
    }
  }
  // The nested structure's size says how much of it the caller's buffer holds.
  const size_t op_offset = offsetof(mpidbg_thread_info, operation);
  full.operation.size =
      n <= op_offset ? 0
                     : static_cast<uint32_t>(n - op_offset < sizeof full.operation
                                                 ? n - op_offset
                                                 : sizeof full.operation);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_thread_waited_operation(mqs_process* process, int index, int k,
                                                 mpidbg_operation_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  const RuntimeSnapshot* snap;
  const ThreadEntry* thread;
  int rc = thread_at(process, index, &ps, &snap, &thread);
  if (rc != mqs_ok) return rc;
  const int32_t count = waited_count(thread->rec, ps->limits);
  if (count == 0) return mqs_no_information;
  if (k < 0 || k >= count) return kErrNoSuchRequest;
  uint64_t handle = 0;
  rc = read_handle_at(ps->reader, TargetAddr(thread->rec.requests), count, k,
                      snap->root.handle_size, &handle);
  if (rc != mqs_ok) return rc;
  // Null, already collected or never recorded: nothing to show.
  const OperationEntry* op = snap->find_operation_by_request(handle);
  if (op == nullptr) return mqs_no_information;
  mpidbg_operation_info full;
  mpidbg::extensions::fill_operation_info(*snap, *op, &full);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}
