// snapshot_json.cc — writing "mpidbg.snapshot/1".
#include "host/snapshot/snapshot_json.h"

#include "host/objects/object_listing.h"

#include "host/util/hex_string.h"

namespace mpidbg::host {

using nlohmann::json;

json RankToJson(const model::Rank& rank) {
  switch (rank.kind) {
    case model::Rank::Kind::kRank:
      return rank.value;
    case model::Rank::Kind::kAnySource:
      return "ANY_SOURCE";
    case model::Rank::Kind::kProcNull:
      return "PROC_NULL";
    default:
      return nullptr;
  }
}

// A world rank, or null: the contract's `peer_world` (OUTPUT.md) names a process, and a
// wildcard or PROC_NULL names none.
json WorldRankToJson(const model::Rank& rank) {
  return rank.kind == model::Rank::Kind::kRank ? json(rank.value) : json(nullptr);
}

json TagToJson(const model::Tag& tag) {
  if (tag.any) return "ANY_TAG";
  return tag.value;
}

namespace {

json StringOrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

template <typename T>
json OptionalToJson(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json OperationsToJson(const std::vector<model::Operation>& ops) {
  json out = json::array();
  for (const model::Operation& op : ops) out.push_back(OperationToJson(op));
  return out;
}

json FrameToJson(const model::Frame& f) {
  return json{{"function", OptionalToJson(f.function)},
              {"file", OptionalToJson(f.file)},
              {"line", OptionalToJson(f.line)},
              {"module", StringOrNull(f.module)},
              {"pc", HexString(f.pc)}};
}

json ThreadToJson(const model::Thread& t) {
  json j;
  j["tid"] = t.tid;
  j["state"] = t.state == "blocked" ? "in_mpi" : t.state;
  j["blocked"] = t.state == "blocked";
  j["call"] = OptionalToJson(t.call);
  j["seconds_in_call"] = OptionalToJson(t.seconds_in_call);
  j["mpi_calls"] = t.mpi_calls;
  j["operation"] = t.operation ? OperationToJson(*t.operation) : json(nullptr);
  j["call_class"] = StringOrNull(t.call_class);
  j["waited"] = OperationsToJson(t.waited);
  j["waited_unknown"] = t.waited_unknown;
  j["comm"] = StringOrNull(t.comm_id);
  j["comm_name"] = StringOrNull(t.comm_name);
  j["root"] = OptionalToJson(t.root);
  json frames = json::array();
  for (const model::Frame& f : t.frames) frames.push_back(FrameToJson(f));
  j["frames"] = std::move(frames);
  j["stack_error"] = OptionalToJson(t.stack_error);
  j["arguments_from"] = StringOrNull(t.arguments_from);
  j["recording_paused"] = t.recording_paused;
  j["state_from"] = StringOrNull(t.state_from);
  return j;
}

json CommunicatorToJson(const model::Communicator& c) {
  json j;
  j["id"] = c.id;
  j["name"] = c.name;
  j["handle"] = HexString(c.handle);
  j["kind"] = c.kind;
  j["size"] = c.size;
  j["rank"] = c.rank;
  j["world_ranks"] = c.world_ranks.ranks();
  j["remote_world_ranks"] = c.remote_world_ranks ? json(c.remote_world_ranks->ranks()) : json(nullptr);
  j["remote_job"] = c.remote_job ? json{{"job_id", c.remote_job->job_id},
                                        {"world_ranks", c.remote_job->world_ranks}}
                                 : json(nullptr);
  j["topology"] = OptionalToJson(c.topology);
  if (c.neighbors) {
    j["neighbors"] = {{"sources", c.neighbors->sources}, {"destinations", c.neighbors->destinations}};
  } else {
    j["neighbors"] = nullptr;
  }
  j["freed"] = c.freed;
  j["predefined"] = c.predefined;
  j["creator"] = StringOrNull(c.creator);
  j["pending_sends"] = OperationsToJson(c.pending_sends);
  j["pending_receives"] = OperationsToJson(c.pending_receives);
  j["unexpected"] = c.unexpected ? OperationsToJson(*c.unexpected) : json(nullptr);
  return j;
}

json HandleOfCommunicator(const model::Communicator& c) {
  json j;
  j["kind"] = "comm";
  j["handle"] = HexString(c.handle);
  j["name"] = StringOrNull(c.name);
  j["freed"] = c.freed;
  j["predefined"] = c.predefined;
  j["comm"] = c.id;
  return j;
}

json TrafficToJson(const model::Traffic& t) {
  json counts = json::array();
  for (const model::TrafficCount& c : t.counts) {
    json j;
    j["comm"] = c.comm_id;
    j["peer"] = c.peer;
    j["peer_world"] = WorldRankToJson(c.peer_world);
    j["tag"] = c.tag;
    j["sends"] = c.sends;
    j["receives"] = c.receives;
    j["send_bytes"] = c.send_bytes;
    j["receive_bytes"] = c.receive_bytes;
    counts.push_back(j);
  }
  json sends = json::array();
  for (const model::LoggedSend& l : t.sends) {
    json j;
    j["call"] = l.call;
    j["comm"] = l.comm_id;
    j["ordinal"] = l.ordinal;
    j["peer"] = l.peer;
    j["peer_world"] = WorldRankToJson(l.peer_world);
    j["tag"] = l.tag;
    j["count"] = l.count;
    j["bytes"] = l.bytes;
    j["mode"] = l.mode;
    j["time_ns"] = l.time_ns;
    sends.push_back(j);
  }
  json j;
  j["counts"] = counts;
  j["sends"] = sends;
  j["log_capacity"] = t.log_capacity;
  j["sends_logged"] = t.sends_logged;
  j["dropped"] = t.dropped;
  return j;
}

json MpitVariableToJson(const model::MpitVariable& v, bool performance) {
  json j;
  j["name"] = v.name;
  j["datatype"] = v.datatype;
  j["verbosity"] = v.verbosity;
  j["bind"] = v.bind;
  j["count"] = v.count;
  if (performance) {
    j["class"] = v.var_class;
    j["readonly"] = v.readonly;
    j["continuous"] = v.continuous;
    j["atomic"] = v.atomic;
  } else {
    j["scope"] = v.scope;
    j["value"] = OptionalToJson(v.value);
  }
  j["description"] = v.description;
  return j;
}

json MpitToJson(const model::MpitCatalogue& m) {
  json cvars = json::array(), pvars = json::array(), categories = json::array();
  for (const model::MpitVariable& v : m.cvars) cvars.push_back(MpitVariableToJson(v, false));
  for (const model::MpitVariable& v : m.pvars) pvars.push_back(MpitVariableToJson(v, true));
  for (const model::MpitCategory& c : m.categories) {
    categories.push_back(json{{"name", c.name},
                              {"description", c.description},
                              {"cvars", c.cvars},
                              {"pvars", c.pvars},
                              {"categories", c.categories}});
  }
  return json{{"available", m.available},       {"refreshes", m.refreshes},
              {"captured_time_ns", m.captured_time_ns}, {"cvars", cvars},
              {"pvars", pvars},                 {"categories", categories}};
}

// metadata.pmi: the contract's keys, then the launcher's full view when recorded.
json PmiToJson(const model::ProcessSnapshot& snap) {
  const model::ProcessInfo& p = snap.process;
  json pmi;
  pmi["rank"] = p.rank;
  pmi["size"] = p.size;
  pmi["hostname"] = p.hostname;
  pmi["pid"] = p.pid;
  if (snap.launch) {
    const model::LaunchInfo& l = *snap.launch;
    pmi["launcher"] = l.launcher;
    pmi["sources"] = l.sources;
    pmi["launcher_rank"] = l.rank;
    pmi["launcher_size"] = l.world_size;
    pmi["local_rank"] = l.local_rank;
    pmi["local_size"] = l.local_size;
    pmi["node_rank"] = l.node_rank;
    pmi["appnum"] = l.appnum;
    pmi["universe_size"] = l.universe_size;
    pmi["job_id"] = l.job_id;
    pmi["host"] = l.host;
    pmi["pmi_interface"] = StringOrNull(l.pmi_interface);
    pmi["mpi_version"] = std::to_string(l.mpi_version) + "." + std::to_string(l.mpi_subversion);
    pmi["thread_level_requested"] = StringOrNull(l.thread_level_requested);
    pmi["debug_gate_hold"] = l.debug_gate_hold;
  }
  return pmi;
}

json OrphansToJson(const model::LaunchInfo& l) {
  return json{{"count", l.orphan_count},     {"budget", l.orphan_budget},
              {"keep_all", l.orphan_keep_all}, {"evictions", l.orphan_evictions},
              {"releases", l.orphan_releases}};
}

}  // namespace

json OperationToJson(const model::Operation& op) {
  json j;
  j["call"] = op.call;
  j["status"] = op.status;
  j["direction"] = op.is_send ? "send" : "receive";
  j["peer"] = RankToJson(op.peer);
  j["peer_world"] = WorldRankToJson(op.peer_world);
  j["tag"] = TagToJson(op.tag);
  j["count"] = op.count;
  j["datatype"] = op.datatype;
  j["bytes"] = op.bytes;
  j["buffer"] = HexString(op.buffer);
  j["mode"] = OptionalToJson(op.mode);
  j["request"] = op.request ? json(HexString(*op.request)) : json(nullptr);
  j["blocking"] = op.blocking;
  j["tid"] = OptionalToJson(op.tid);
  j["comm"] = StringOrNull(op.comm_id);
  j["comm_name"] = StringOrNull(op.comm_name);
  j["post_serial"] = op.post_serial;
  j["persistent"] = op.persistent;
  if (op.partitions) {
    j["partitions"] = {{"count", op.partitions->count},
                       {op.is_send ? "ready" : "arrived", op.partitions->done}};
  } else {
    j["partitions"] = nullptr;
  }
  return j;
}

json DamageToJson(const model::WalkDamage& d) {
  return json{{"partial", d.Partial()},
              {"records_torn", d.records_torn},
              {"records_bad", d.records_bad},
              {"tables_damaged", d.tables_damaged},
              {"rings_damaged", d.rings_damaged},
              {"live_unreadable", d.live_unreadable}};
}

json SnapshotToJson(const model::ProcessSnapshot& snap) {
  const model::ProcessInfo& p = snap.process;
  json doc;
  doc["schema"] = kSnapshotSchema;
  doc["view"] = p.view;
  json process;
  process["pid"] = p.pid;
  process["rank"] = p.rank;
  process["size"] = p.size;
  process["hostname"] = p.hostname;
  process["source"] = p.source;
  process["mpi_library"] = p.mpi_library;
  process["thread_level"] = StringOrNull(p.thread_level);
  process["state"] = StringOrNull(p.state);
  process["plugin"] = StringOrNull(p.plugin);
  process["rank_from"] = StringOrNull(p.rank_from);
  process["damage"] = p.damage ? DamageToJson(*p.damage) : json(nullptr);
  doc["process"] = process;
  json threads = json::array();
  for (const model::Thread& t : snap.threads) threads.push_back(ThreadToJson(t));
  doc["threads"] = threads;
  json comms = json::array();
  json handles = json::array();
  for (const model::Communicator& c : snap.communicators) {
    comms.push_back(CommunicatorToJson(c));
    if (!snap.objects) handles.push_back(HandleOfCommunicator(c));
  }
  if (snap.objects) {
    // Every kind from the listing; a communicator's entry keeps its "comm" id key.
    for (const model::ObjectHandle& o : snap.objects->objects) {
      json j = ObjectToJson(o);
      if (o.kind == "comm") {
        j["comm"] = nullptr;
        for (const model::Communicator& c : snap.communicators) {
          if (c.handle == o.handle && c.freed == o.freed) {
            j["comm"] = c.id;
            break;
          }
        }
      }
      handles.push_back(std::move(j));
    }
  }
  doc["communicators"] = comms;
  doc["handles"] = handles;
  doc["metadata"] = {{"pmi", PmiToJson(snap)},
                     {"mpi_t", snap.mpi_t ? MpitToJson(*snap.mpi_t) : json(nullptr)},
                     {"orphans", snap.launch ? OrphansToJson(*snap.launch) : json(nullptr)}};
  doc["traffic"] = snap.traffic ? TrafficToJson(*snap.traffic) : json(nullptr);
  return doc;
}

}  // namespace mpidbg::host
