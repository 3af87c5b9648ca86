// monitor_json.cc — the "mpidbg.matrix/1" document.
#include "host/matrix/monitor_json.h"

#include <sstream>

namespace mpidbg::monitor {
namespace {

using nlohmann::json;

// `"key": [[...],\n [...]]`: rows = senders, columns = receivers, one row per line.
void WriteDense(std::ostream& out, const char* indent, const std::string& key, const Matrix& m) {
  out << indent << json(key).dump() << ": [";
  size_t next = 0;
  for (int i = 0; i < m.size; ++i) {
    out << (i == 0 ? "\n" : ",\n") << indent << " [";
    int column = 0;
    for (; next < m.cells.size() && m.cells[next].from == i; ++next) {
      for (; column < m.cells[next].to; ++column) out << (column == 0 ? "0" : ",0");
      out << (column == 0 ? "" : ",") << m.cells[next].value;
      ++column;
    }
    for (; column < m.size; ++column) out << (column == 0 ? "0" : ",0");
    out << "]";
  }
  out << "\n" << indent << "]";
}

// `"key": value`; an array of objects or arrays gets one element per line.
void WriteMember(std::ostream& out, const char* indent, const std::string& key, const json& value) {
  out << indent << json(key).dump() << ": ";
  if (!value.is_array() || value.empty() || !(value[0].is_object() || value[0].is_array())) {
    out << value.dump();
    return;
  }
  out << "[";
  for (size_t i = 0; i < value.size(); ++i) {
    out << (i == 0 ? "\n" : ",\n") << indent << " " << value[i].dump();
  }
  out << "\n" << indent << "]";
}

// The members of `object` named in `keys`, in that order, each on its line.
void WriteMembers(std::ostream& out, const char* indent, const json& object,
                  std::initializer_list<const char*> keys, bool* first) {
  for (const char* key : keys) {
    if (!object.contains(key)) continue;
    out << (*first ? "\n" : ",\n");
    WriteMember(out, indent, key, object[key]);
    *first = false;
  }
}

json CollJson(const CollCounters& c) {
  return {{"operations", c.operations},
          {"bytes_sent", c.bytes_sent},
          {"bytes_received", c.bytes_received}};
}

json RanksJson(const JobMonitor& job) {
  json ranks = json::array();
  for (const RankMonitor& r : job.ranks) {
    json e = {{"rank", r.rank}, {"present", r.present}};
    if (r.present) {
      PeerCounters sum;
      for (const auto& entry : r.peers) {
        sum.sent_messages += entry.second.sent_messages;
        sum.sent_bytes += entry.second.sent_bytes;
        sum.received_messages += entry.second.received_messages;
        sum.received_bytes += entry.second.received_bytes;
      }
      e.update({{"pid", r.pid},
                {"host", r.host},
                {"active", r.active},
                {"starts", r.starts},
                {"stops", r.stops},
                {"resets", r.resets},
                {"first_start_time_ns", r.first_start_time_ns},
                {"reset_time_ns", r.reset_time_ns},
                {"sent_messages", sum.sent_messages},
                {"sent_bytes", sum.sent_bytes},
                {"received_messages", sum.received_messages},
                {"received_bytes", sum.received_bytes},
                {"files_dropped", r.files_dropped},
                {"mpi_t_state", r.mpit_state}});
      json colls = json::object();
      for (int k = 0; k < kCollKinds; ++k) colls[kCollKindNames[k]] = CollJson(r.collectives[k]);
      e["collectives"] = colls;
    }
    ranks.push_back(e);
  }
  return ranks;
}

json MpitJson(const JobMonitor& job) {
  json out;
  bool read = AnyMpitRead(job);
  const RankMonitor* speaker = MpitSpeaker(job);
  std::string state = speaker != nullptr ? speaker->mpit_state : "not_read";
  std::string reason = speaker != nullptr ? speaker->mpit_reason : "";
  out["state"] = state;
  out["reason"] = reason.empty() ? json(nullptr) : json(reason);
  if (!read) return out;
  json colls = json::object();
  for (int k = 0; k < kCollKinds - 1; ++k) {
    MpitColl sum;
    for (const RankMonitor& r : job.ranks) {
      sum.operations += r.mpit_collectives[k].operations;
      sum.bytes += r.mpit_collectives[k].bytes;
    }
    colls[kCollKindNames[k]] = {{"operations", sum.operations}, {"bytes", sum.bytes}};
  }
  out["collectives"] = colls;
  return out;
}


// Everything but the matrices.
json SmallParts(const JobMonitor& job) {
  json doc;
  doc["schema"] = "mpidbg.matrix/1";
  doc["source"] = job.source;
  doc["which"] = job.which;
  doc["world_size"] = job.world_size;
  doc["job"] = {{"id", job.id.empty() ? json(nullptr) : json(job.id)},
                {"flavour", job.flavour.empty() ? json(nullptr) : json(job.flavour)},
                {"mpi_library", job.mpi_library.empty() ? json(nullptr) : json(job.mpi_library)},
                {"written_time_ns", job.written_time_ns}};
  json hist = json::array();
  for (const RankMonitor& r : job.ranks) hist.push_back(RankHistogram(r));
  doc["histogram"] = hist;
  json labels = json::array();
  for (int b = 0; b < kBuckets; ++b) labels.push_back(BucketLabel(b));
  doc["histogram_buckets"] = labels;
  auto colls = JobCollectives(job);
  json cj = json::object();
  for (int k = 0; k < kCollKinds; ++k) cj[kCollKindNames[k]] = CollJson(colls[k]);
  doc["collectives"] = cj;
  json files = json::array();
  for (const JobFile& f : JobFiles(job)) {
    files.push_back({{"name", f.counters.name},
                     {"opens", f.counters.opens},
                     {"read_operations", f.counters.read_operations},
                     {"read_bytes", f.counters.read_bytes},
                     {"write_operations", f.counters.write_operations},
                     {"write_bytes", f.counters.write_bytes},
                     {"ranks", f.ranks}});
  }
  doc["files"] = files;
  doc["ranks"] = RanksJson(job);
  return doc;
}

}  // namespace

void WriteMonitorJson(std::ostream& out, const JobMonitor& job) {
  out << "{";
  bool first = true;
  json small = SmallParts(job);
  WriteMembers(out, " ", small, {"schema", "source", "which", "world_size", "job"}, &first);
  static const std::pair<const char*, View> kViews[] = {
      {"p2p", View::kP2p}, {"coll", View::kColl}, {"put", View::kPut},
      {"get", View::kGet}, {"acc", View::kAcc}};
  for (const auto& [name, view] : kViews) {
    for (Metric metric : {Metric::kMessages, Metric::kBytes}) {
      out << ",\n";
      WriteDense(out, " ", std::string(name) + "_" + MetricName(metric),
                 BuildMatrix(job, view, metric));
    }
  }
  WriteMembers(out, " ", small,
               {"histogram", "histogram_buckets", "collectives", "files", "ranks"}, &first);
  out << ",\n \"mpi_t\": {";
  bool first_mpit = true;
  WriteMembers(out, "  ", MpitJson(job), {"state", "reason", "collectives"}, &first_mpit);
  if (AnyMpitRead(job)) {
    for (const char* layer : {"pml", "osc", "coll"}) {
      for (Metric metric : {Metric::kMessages, Metric::kBytes}) {
        out << ",\n";
        WriteDense(out, "  ", std::string(layer) + "_" + MetricName(metric),
                   BuildMpitMatrix(job, layer, metric));
      }
    }
  }
  out << "\n }\n}\n";
}

json MonitorToJson(const JobMonitor& job) {
  std::ostringstream text;
  WriteMonitorJson(text, job);
  return json::parse(text.str());
}

}  // namespace mpidbg::monitor
