// monitor.cc — communication monitoring (mpidbg_ext.h, version 3).
//
// mpidbg_monitor_read decodes the monitoring block afresh (plugin/monitor_snapshot.h);
// the getters answer from that decode. CURRENT counters are accumulated - baseline,
// never below 0. When every attempt of the read raced a reset in progress, the read
// still succeeds with the accumulated counters and every CURRENT request answers
// kErrMetadataDamaged ("a reset was in progress"): read again for current values.
// Peers answer for every world rank below world_size (all zero when never talked to);
// files are the READY entries in slot order, `index` echoing the getter's index; the
// summary's mpit_peer_count is 0 unless the MPI's monitoring was read (state READ).
#include <cstdio>
#include <cstring>

#include "extensions/fresh_block.h"
#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

const char* const kKindNames[MPIDBG_COLL_KINDS] = {"one_to_all", "all_to_one", "all_to_all",
                                                   "barrier"};

// The decode of the last mpidbg_monitor_read, or kErrOutOfOrder when there is none.
int last_monitor(mqs_process* process, const MonitorSnapshot** out) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr || ps->monitor == nullptr) return kErrOutOfOrder;
  *out = ps->monitor;
  return mqs_ok;
}

// The decode of the last mpidbg_monitor_read, when it can answer for `which`.
int last_monitor_for(mqs_process* process, int which, const MonitorSnapshot** out) {
  const int rc = last_monitor(process, out);
  if (rc != mqs_ok) return rc;
  if (which == MPIDBG_MONITOR_ACCUMULATED) return mqs_ok;
  if (which != MPIDBG_MONITOR_CURRENT) return kErrBadArgument;
  if ((*out)->current_valid) return mqs_ok;
  set_error_detail(kErrMetadataDamaged,
                   "current monitoring counters unavailable: a reset was in progress while "
                   "they were read (read again)");
  return kErrMetadataDamaged;
}

void fill_coll(int kind, const mpidbg_monitor_coll& counters, mpidbg_monitor_coll_info* full) {
  std::memset(full, 0, sizeof *full);
  full->kind = kind;
  full->counters = counters;
  std::snprintf(full->kind_name, sizeof full->kind_name, "%s", kKindNames[kind]);
}

// The MPI's own monitoring, when the runtime read it (state READ).
int last_mpit(mqs_process* process, const MonitorSnapshot** out) {
  const int rc = last_monitor(process, out);
  if (rc != mqs_ok) return rc;
  return (*out)->header.mpit_state == MPIDBG_MONITOR_MPIT_READ ? mqs_ok : mqs_no_information;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_monitor_read(mqs_process* process, mpidbg_monitor_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps = nullptr;
  const int rc = mpidbg::extensions::read_block_afresh(process, mpidbg::plugin::replace_monitor,
                                                mpidbg::plugin::drop_monitor, &ps);
  if (rc != mqs_ok) return rc;
  const MonitorSnapshot& m = *ps->monitor;
  const mpidbg_monitor& h = m.header;
  mpidbg_monitor_summary full;
  std::memset(&full, 0, sizeof full);
  full.world_size = h.world_size;
  full.active = h.active;
  full.file_count = mpidbg::extensions::clamp_count(m.files.size());
  full.starts = h.starts;
  full.stops = h.stops;
  full.resets = h.resets;
  full.first_start_time_ns = h.first_start_time_ns;
  full.reset_time_ns = h.reset_time_ns;
  full.files_dropped = h.files_dropped;
  full.mpit_state = h.mpit_state;
  full.mpit_peer_count = h.mpit_state == MPIDBG_MONITOR_MPIT_READ ? h.mpit_peer_count : 0;
  full.mpit_time_ns = h.mpit_time_ns;
  static_assert(sizeof full.mpit_reason == sizeof h.mpit_reason, "same field widths");
  static_assert(sizeof full.output_path == sizeof h.output_path, "same field widths");
  std::memcpy(full.mpit_reason, h.mpit_reason, sizeof full.mpit_reason);
  std::memcpy(full.output_path, h.output_path, sizeof full.output_path);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_monitor_peer_get(mqs_process* process, int world_rank, int which,
                                          mpidbg_monitor_peer_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MonitorSnapshot* m;
  const int rc = last_monitor_for(process, which, &m);
  if (rc != mqs_ok) return rc;
  if (world_rank < 0 || world_rank >= m->header.world_size) return kErrNoSuchEntry;
  mpidbg_monitor_peer_info full;
  std::memset(&full, 0, sizeof full);
  full.world_rank = world_rank;
  if (const MonitorPeer* p = m->find_peer(world_rank)) {
    full.counters = which == MPIDBG_MONITOR_CURRENT
                        ? monitor_peer_minus(p->accumulated, p->baseline)
                        : p->accumulated;
  }
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_monitor_coll_get(mqs_process* process, int kind, int which,
                                          mpidbg_monitor_coll_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MonitorSnapshot* m;
  const int rc = last_monitor_for(process, which, &m);
  if (rc != mqs_ok) return rc;
  if (kind < 0 || kind >= MPIDBG_COLL_KINDS) return kErrNoSuchEntry;
  const mpidbg_monitor& h = m->header;
  mpidbg_monitor_coll_info full;
  fill_coll(kind,
            which == MPIDBG_MONITOR_CURRENT
                ? monitor_coll_minus(h.accumulated_coll[kind], h.baseline_coll[kind])
                : h.accumulated_coll[kind],
            &full);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_monitor_file_get(mqs_process* process, int index, int which,
                                          mpidbg_monitor_file_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MonitorSnapshot* m;
  const int rc = last_monitor_for(process, which, &m);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= m->files.size()) return kErrNoSuchEntry;
  const MonitorFile& f = m->files[static_cast<size_t>(index)];
  mpidbg_monitor_file_info full;
  std::memset(&full, 0, sizeof full);
  full.index = index;
  full.counters = which == MPIDBG_MONITOR_CURRENT ? monitor_file_minus(f.accumulated, f.baseline)
                                                  : f.accumulated;
  full.counters.reserved = 0;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_monitor_mpit_peer_get(mqs_process* process, int world_rank,
                                               mpidbg_monitor_mpit_peer_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MonitorSnapshot* m;
  const int rc = last_mpit(process, &m);
  if (rc != mqs_ok) return rc;
  if (world_rank < 0 || world_rank >= m->header.mpit_peer_count) return kErrNoSuchEntry;
  mpidbg_monitor_mpit_peer_info full;
  std::memset(&full, 0, sizeof full);
  full.world_rank = world_rank;
  if (const MonitorMpitPeer* p = m->find_mpit_peer(world_rank)) full.counters = p->counters;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_monitor_mpit_coll_get(mqs_process* process, int kind,
                                               mpidbg_monitor_coll_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MonitorSnapshot* m;
  const int rc = last_mpit(process, &m);
  if (rc != mqs_ok) return rc;
  if (kind < 0 || kind >= MPIDBG_COLL_KINDS) return kErrNoSuchEntry;
  // The MPI counts operations and bytes sent only (coll_monitoring_*_count / _size).
  mpidbg_monitor_coll counters;
  std::memset(&counters, 0, sizeof counters);
  counters.operations = m->header.mpit_coll[kind].operations;
  counters.bytes_sent = m->header.mpit_coll[kind].bytes_sent;
  mpidbg_monitor_coll_info full;
  fill_coll(kind, counters, &full);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}
