// traffic.cc — the runtime's traffic counters and send log (mpidbg_ext.h, version 2).
#include <cstring>

#include "extensions/operation_info.h"
#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/call_names.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

// The traffic of the last mpidbg_traffic_read, or an error when there was none.
int last_traffic(mqs_process* process, const TrafficSnapshot** out) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  if (ps->traffic == nullptr) return kErrOutOfOrder;
  *out = ps->traffic;
  return mqs_ok;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_traffic_read(mqs_process* process, mpidbg_traffic_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  // The root is re-read: the traffic block appears at MPI_Init.
  ProcessSession* ps;
  mpidbg_root root;
  int rc = mpidbg::plugin::read_current_root(process, &ps, &root);
  if (rc != mqs_ok) return rc;
  rc = mpidbg::plugin::replace_traffic(ps, root, &ps->traffic);
  if (rc != mqs_ok) return rc == kErrNoTraffic && root.traffic == 0 ? mqs_no_information : rc;
  const TrafficSnapshot* fresh = ps->traffic;
  mpidbg_traffic_summary full;
  std::memset(&full, 0, sizeof full);
  full.entries = mpidbg::extensions::clamp_count(fresh->entries.size());
  full.logged_sends = mpidbg::extensions::clamp_count(fresh->sends.size());
  full.log_capacity = static_cast<int32_t>(fresh->header.log_capacity);
  full.sends_logged = fresh->header.log_head;
  full.dropped = fresh->header.dropped;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_traffic_get(mqs_process* process, int index, mpidbg_traffic_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const TrafficSnapshot* t;
  const int rc = last_traffic(process, &t);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= t->entries.size()) return kErrNoSuchEntry;
  const mpidbg_traffic_entry& e = t->entries[static_cast<size_t>(index)];
  mpidbg_traffic_info full;
  std::memset(&full, 0, sizeof full);
  full.tag = e.tag;
  full.comm_id = e.comm_job_id;
  full.peer = e.peer;
  full.peer_world = e.peer_world;
  full.sends = e.sends;
  full.receives = e.receives;
  full.send_bytes = e.send_bytes;
  full.receive_bytes = e.receive_bytes;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_logged_send_get(mqs_process* process, int index,
                                         mpidbg_logged_send_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const TrafficSnapshot* t;
  const int rc = last_traffic(process, &t);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= t->sends.size()) return kErrNoSuchEntry;
  const mpidbg_send_log_entry& e = t->sends[static_cast<size_t>(index)];
  mpidbg_logged_send_info full;
  std::memset(&full, 0, sizeof full);
  full.call = e.call;
  full.comm_id = e.comm_job_id;
  full.ordinal = e.ordinal;
  full.bytes = e.bytes;
  full.time_ns = e.time_ns;
  full.datatype = e.datatype;
  full.count = e.count;
  full.peer = e.peer;
  full.peer_world = e.peer_world;
  full.tag = e.tag;
  full.mode = e.mode;
  mpidbg::extensions::call_display_name(e.call, full.call_name, sizeof full.call_name);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}
