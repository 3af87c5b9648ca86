// monitor_plugin.cc — reading the monitoring blocks through the plugin. Counts from the
// target are bounded before they size anything: a world size above kMaxWorldSize or a
// file count above the getters' answers ends the walk.
#include "host/matrix/monitor_plugin.h"

#include <cstdio>
#include <cstring>

#include "host/util/json_fields.h"

namespace mpidbg::monitor {
namespace {

using extensions::Bounded;
using extensions::ExtensionTarget;
using extensions::ReadEachTarget;
using extensions::ReadProcessSummary;
using extensions::Sized;
using host::kMaxWorldSize;

constexpr int kMaxFiles = 4096;

std::string MpitStateName(int32_t state) {
  switch (state) {
    case MPIDBG_MONITOR_MPIT_READ: return "read";
    case MPIDBG_MONITOR_MPIT_UNAVAILABLE: return "unavailable";
    default: return "not_read";
  }
}

PeerCounters FromRecord(const mpidbg_monitor_peer& c) {
  PeerCounters p;
  p.sent_messages = c.sent_messages;
  p.sent_bytes = c.sent_bytes;
  p.received_messages = c.received_messages;
  p.received_bytes = c.received_bytes;
  p.coll_messages = c.coll_messages;
  p.coll_bytes = c.coll_bytes;
  p.put_messages = c.put_messages;
  p.put_bytes = c.put_bytes;
  p.get_messages = c.get_messages;
  p.get_bytes = c.get_bytes;
  p.acc_messages = c.acc_messages;
  p.acc_bytes = c.acc_bytes;
  for (int b = 0; b < kBuckets; ++b) p.histogram[b] = c.sent_histogram[b];
  return p;
}

bool AnyCount(const PeerCounters& p) {
  uint64_t any = p.sent_messages | p.sent_bytes | p.received_messages | p.received_bytes |
                 p.coll_messages | p.coll_bytes | p.put_messages | p.put_bytes | p.get_messages |
                 p.get_bytes | p.acc_messages | p.acc_bytes;
  return any != 0;
}

void ReadMpit(ExtensionTarget& t, const mpidbg_monitor_summary& s, int world_size, RankMonitor* r) {
  const host::ExtensionFunctions& e = t.dll.extensions();
  r->mpit_state = MpitStateName(s.mpit_state);
  r->mpit_reason = Bounded(s.mpit_reason, sizeof s.mpit_reason);
  if (s.mpit_state != MPIDBG_MONITOR_MPIT_READ) return;
  if (e.monitor_mpit_peer_get != nullptr) {
    int count = std::min(s.mpit_peer_count, world_size);
    for (int i = 0; i < count; ++i) {
      auto info = Sized<mpidbg_monitor_mpit_peer_info>();
      if (e.monitor_mpit_peer_get(t.session.process(), i, &info) != mqs_ok) continue;
      const mpidbg_monitor_mpit_peer& c = info.counters;
      MpitPeer p{c.pml_messages,          c.pml_bytes,          c.osc_sent_messages,
                 c.osc_sent_bytes,        c.osc_received_messages, c.osc_received_bytes,
                 c.coll_messages,         c.coll_bytes};
      bool any = (p.pml_messages | p.pml_bytes | p.osc_sent_messages | p.osc_sent_bytes |
                  p.osc_received_messages | p.osc_received_bytes | p.coll_messages |
                  p.coll_bytes) != 0;
      int peer = info.world_rank >= 0 && info.world_rank < world_size ? info.world_rank : i;
      if (any) r->mpit_peers[peer] = p;
    }
  }
  if (e.monitor_mpit_coll_get != nullptr) {
    for (int k = 0; k < kCollKinds; ++k) {
      auto info = Sized<mpidbg_monitor_coll_info>();
      if (e.monitor_mpit_coll_get(t.session.process(), k, &info) != mqs_ok) continue;
      r->mpit_collectives[k].operations = info.counters.operations;
      r->mpit_collectives[k].bytes = info.counters.bytes_sent;
    }
  }
}

}  // namespace

host::Result<RankMonitor> ReadRankMonitor(ExtensionTarget& t, int which, int* world_size) {
  const host::ExtensionFunctions& e = t.dll.extensions();
  if (!t.dll.has_monitor_extension()) {
    return host::Status::NoSupport("the plugin " + t.dll.path() +
                                   " does not report monitoring (no mpidbg_monitor_read)");
  }
  mqs_process* proc = t.session.process();
  RankMonitor r;
  mpidbg_process_summary summary;
  if (ReadProcessSummary(t, &summary)) {
    r.rank = summary.world_rank;
    r.pid = summary.pid;
    r.host = Bounded(summary.hostname, sizeof summary.hostname);
  }
  auto s = Sized<mpidbg_monitor_summary>();
  int rc = e.monitor_read(proc, &s);
  if (rc == mqs_no_information) {
    return host::Status::NoSupport(
        "monitoring never started in this process (run the job with `mpidbg run --monitor` "
        "or call mpidbg_monitor_start)");
  }
  if (rc != mqs_ok) {
    return host::Status::Unreadable("cannot read the monitoring counters: " +
                                    t.session.Explain(rc));
  }
  if (s.world_size < 1 || s.world_size > kMaxWorldSize) {
    return host::Status::Unreadable("the monitoring block gives a world size of " +
                                    std::to_string(s.world_size));
  }
  *world_size = s.world_size;
  r.present = true;
  r.active = s.active != 0;
  r.starts = s.starts;
  r.stops = s.stops;
  r.resets = s.resets;
  r.first_start_time_ns = s.first_start_time_ns;
  r.reset_time_ns = s.reset_time_ns;
  r.files_dropped = s.files_dropped;
  for (int peer = 0; peer < s.world_size; ++peer) {
    auto info = Sized<mpidbg_monitor_peer_info>();
    rc = e.monitor_peer_get(proc, peer, which, &info);
    if (rc == mqs_no_information) continue;
    if (rc != mqs_ok) {
      return host::Status::Unreadable("cannot read the counters for peer " +
                                      std::to_string(peer) + ": " + t.session.Explain(rc));
    }
    PeerCounters p = FromRecord(info.counters);
    if (AnyCount(p)) r.peers[peer] = p;
  }
  for (int k = 0; k < kCollKinds; ++k) {
    auto info = Sized<mpidbg_monitor_coll_info>();
    if (e.monitor_coll_get(proc, k, which, &info) != mqs_ok) continue;
    r.collectives[k] = {info.counters.operations, info.counters.bytes_sent,
                        info.counters.bytes_received};
  }
  int files = std::min(s.file_count, kMaxFiles);
  for (int i = 0; i < files; ++i) {
    auto info = Sized<mpidbg_monitor_file_info>();
    if (e.monitor_file_get(proc, i, which, &info) != mqs_ok) continue;
    const mpidbg_monitor_file& c = info.counters;
    r.files.push_back({Bounded(c.name, sizeof c.name), c.opens, c.read_operations, c.read_bytes,
                       c.write_operations, c.write_bytes});
  }
  ReadMpit(t, s, s.world_size, &r);
  return r;
}

host::Result<TargetMonitor> ReadTargetMonitor(const host::TargetSpec& spec, int which) {
  host::Result<TargetMonitor> out = host::Status::Unreadable("not read");
  host::Status st = extensions::WithExtensionTarget(spec, [&](ExtensionTarget& t) {
    TargetMonitor m;
    auto rank = ReadRankMonitor(t, which, &m.world_size);
    if (!rank.ok()) return rank.status();
    if (rank->rank < 0 || rank->rank >= m.world_size) {
      return host::Status::Unreadable("the process names no world rank of its job");
    }
    m.rank = std::move(rank.value());
    out = std::move(m);
    return host::Status::Ok();
  });
  if (!st.ok()) return st;
  return out;
}

host::Result<JobMonitor> ReadJobMonitor(const std::vector<host::TargetSpec>& targets, int which) {
  std::vector<RankMonitor> read;
  JobMonitor job;
  job.which = which == MPIDBG_MONITOR_CURRENT ? "current" : "accumulated";
  job.source = "live";
  int world_size = 0;
  int size = 0;
  host::Status st = ReadEachTarget<RankMonitor>(
      targets, &job.source, [&](ExtensionTarget& t) { return ReadRankMonitor(t, which, &size); },
      [&](size_t i, RankMonitor& rank) {
        // Without a process summary the rank is the target's place in the list.
        if (rank.rank < 0) rank.rank = static_cast<int>(i);
        world_size = std::max(world_size, size);
        read.push_back(std::move(rank));
      });
  if (!st.ok()) return st;
  job.world_size = world_size;
  job.ranks.resize(static_cast<size_t>(world_size));
  for (int i = 0; i < world_size; ++i) job.ranks[static_cast<size_t>(i)].rank = i;
  for (RankMonitor& r : read) {
    if (r.rank < 0 || r.rank >= world_size) {
      std::fprintf(stderr, "mpidbg: rank %d is outside the %d-rank job and is left out\n", r.rank,
                   world_size);
      continue;
    }
    if (job.ranks[static_cast<size_t>(r.rank)].present) {
      std::fprintf(stderr, "mpidbg: rank %d was given twice; the first is kept\n", r.rank);
      continue;
    }
    job.ranks[static_cast<size_t>(r.rank)] = std::move(r);
  }
  return job;
}

}  // namespace mpidbg::monitor
