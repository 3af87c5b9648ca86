// monitor_document.cc — model → the "job" object and "ranks" entries of mpidbg.monitor/1.
#include "host/matrix/monitor_document.h"

#include <string>

namespace mpidbg::monitor {
namespace {

using nlohmann::json;

// Sent messages by size bucket, keyed by the bucket's lower bound ("0", "1", "2", "4",
// ...), non-zero buckets only.
json Histogram(const std::array<uint64_t, kBuckets>& h) {
  json out = json::object();
  for (int b = 0; b < kBuckets; ++b) {
    if (h[b] == 0) continue;
    std::string key = b == 0 ? "0" : std::to_string(uint64_t{1} << (b - 1));
    out[key] = h[b];
  }
  return out;
}

json Collectives(const std::array<CollCounters, kCollKinds>& c) {
  json out = json::object();
  for (int k = 0; k < kCollKinds; ++k) {
    out[kCollKindNames[k]] = {{"operations", c[k].operations},
                              {"bytes_sent", c[k].bytes_sent},
                              {"bytes_received", c[k].bytes_received}};
  }
  return out;
}

json Mpit(const RankMonitor& r) {
  json out = {{"state", r.mpit_state}, {"reason", r.mpit_reason}};
  if (r.mpit_state != "read") return out;
  json peers = json::array();
  for (const auto& [peer, p] : r.mpit_peers) {
    peers.push_back({{"peer", peer},
                     {"pml_messages", p.pml_messages},
                     {"pml_bytes", p.pml_bytes},
                     {"osc_sent_messages", p.osc_sent_messages},
                     {"osc_sent_bytes", p.osc_sent_bytes},
                     {"osc_received_messages", p.osc_received_messages},
                     {"osc_received_bytes", p.osc_received_bytes},
                     {"coll_messages", p.coll_messages},
                     {"coll_bytes", p.coll_bytes}});
  }
  json colls = json::object();
  for (int k = 0; k < kCollKinds; ++k) {
    colls[kCollKindNames[k]] = {{"operations", r.mpit_collectives[k].operations},
                                {"bytes", r.mpit_collectives[k].bytes}};
  }
  out["peers"] = std::move(peers);
  out["collectives"] = std::move(colls);
  return out;
}

}  // namespace

json MonitorJobObject(const JobMonitor& job) {
  return {{"id", job.id},
          {"world_size", job.world_size},
          {"flavour", job.flavour},
          {"mpi_library", job.mpi_library},
          {"written_time_ns", job.written_time_ns},
          {"which", job.which}};
}

json MonitorRankObject(const RankMonitor& r) {
  json p2p = json::array();
  json coll_peers = json::array();
  json rma = json::array();
  for (const auto& [peer, p] : r.peers) {
    if ((p.sent_messages | p.sent_bytes | p.received_messages | p.received_bytes) != 0) {
      p2p.push_back({{"peer", peer},
                     {"sent_messages", p.sent_messages},
                     {"sent_bytes", p.sent_bytes},
                     {"received_messages", p.received_messages},
                     {"received_bytes", p.received_bytes},
                     {"histogram", Histogram(p.histogram)}});
    }
    if ((p.coll_messages | p.coll_bytes) != 0) {
      coll_peers.push_back({{"peer", peer}, {"messages", p.coll_messages}, {"bytes", p.coll_bytes}});
    }
    if ((p.put_messages | p.put_bytes | p.get_messages | p.get_bytes | p.acc_messages |
         p.acc_bytes) != 0) {
      rma.push_back({{"peer", peer},
                     {"put_messages", p.put_messages},
                     {"put_bytes", p.put_bytes},
                     {"get_messages", p.get_messages},
                     {"get_bytes", p.get_bytes},
                     {"acc_messages", p.acc_messages},
                     {"acc_bytes", p.acc_bytes}});
    }
  }
  json files = json::array();
  for (const FileCounters& f : r.files) {
    files.push_back({{"name", f.name},
                     {"opens", f.opens},
                     {"read_operations", f.read_operations},
                     {"read_bytes", f.read_bytes},
                     {"write_operations", f.write_operations},
                     {"write_bytes", f.write_bytes}});
  }
  return {{"rank", r.rank},
          {"pid", r.pid},
          {"host", r.host},
          {"active", r.active},
          {"first_start_time_ns", r.first_start_time_ns},
          {"reset_time_ns", r.reset_time_ns},
          {"starts", r.starts},
          {"stops", r.stops},
          {"resets", r.resets},
          {"p2p", std::move(p2p)},
          {"collective_peers", std::move(coll_peers)},
          {"collectives", Collectives(r.collectives)},
          {"rma", std::move(rma)},
          {"files", std::move(files)},
          {"files_dropped", r.files_dropped},
          {"mpi_t", Mpit(r)}};
}

}  // namespace mpidbg::monitor
