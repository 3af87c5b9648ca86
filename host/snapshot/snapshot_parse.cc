// snapshot_parse.cc — parsing "mpidbg.snapshot/1".
#include "host/snapshot/snapshot_parse.h"

#include <cstdio>
#include <cstdlib>

#include "host/snapshot/snapshot_schema.h"

namespace mpidbg::host {

using nlohmann::json;

namespace {

// Reading helpers: absent or null keys leave the default; a wrong type throws
// json::type_error, caught once in SnapshotFromJson.
bool Has(const json& j, const char* key) { return j.contains(key) && !j.at(key).is_null(); }

template <typename T>
void Get(const json& j, const char* key, T* out) {
  if (Has(j, key)) *out = j.at(key).get<T>();
}

template <typename T>
void GetOptional(const json& j, const char* key, std::optional<T>* out) {
  if (Has(j, key)) *out = j.at(key).get<T>();
}

uint64_t ParseHex(const json& v) {
  if (v.is_number_unsigned() || v.is_number_integer()) return v.get<uint64_t>();
  std::string s = v.get<std::string>();
  return std::strtoull(s.c_str(), nullptr, 16);  // accepts a 0x prefix
}

model::Rank RankFromJson(const json& v) {
  if (v.is_null()) return model::Rank::Unknown();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s == "ANY_SOURCE") return model::Rank::AnySource();
    if (s == "PROC_NULL") return model::Rank::ProcNull();
    return model::Rank::Unknown();
  }
  return model::Rank::Of(v.get<int>());
}

model::Tag TagFromJson(const json& v) {
  model::Tag tag;
  if (v.is_string() && v.get<std::string>() == "ANY_TAG") {
    tag.any = true;
  } else if (v.is_number()) {
    tag.value = v.get<int>();
  }
  return tag;
}

model::Operation OperationFromJson(const json& j) {
  model::Operation op;
  Get(j, "call", &op.call);
  Get(j, "status", &op.status);
  if (Has(j, "direction")) op.is_send = j.at("direction").get<std::string>() == "send";
  if (j.contains("peer")) op.peer = RankFromJson(j.at("peer"));
  if (j.contains("peer_world")) op.peer_world = RankFromJson(j.at("peer_world"));
  if (j.contains("tag")) op.tag = TagFromJson(j.at("tag"));
  Get(j, "count", &op.count);
  Get(j, "datatype", &op.datatype);
  Get(j, "bytes", &op.bytes);
  if (Has(j, "buffer")) op.buffer = ParseHex(j.at("buffer"));
  GetOptional(j, "mode", &op.mode);
  if (Has(j, "request")) op.request = ParseHex(j.at("request"));
  Get(j, "blocking", &op.blocking);
  GetOptional(j, "tid", &op.tid);
  Get(j, "comm", &op.comm_id);
  Get(j, "comm_name", &op.comm_name);
  Get(j, "post_serial", &op.post_serial);
  Get(j, "persistent", &op.persistent);
  if (Has(j, "partitions")) {
    const json& p = j.at("partitions");
    model::Operation::Partitions parts;
    Get(p, "count", &parts.count);
    Get(p, op.is_send ? "ready" : "arrived", &parts.done);
    op.partitions = parts;
  }
  return op;
}

std::vector<model::Operation> OperationsFromJson(const json& j) {
  std::vector<model::Operation> ops;
  if (!j.is_array()) return ops;
  for (const json& e : j) ops.push_back(OperationFromJson(e));
  return ops;
}

model::Frame FrameFromJson(const json& j) {
  model::Frame f;
  GetOptional(j, "function", &f.function);
  GetOptional(j, "file", &f.file);
  GetOptional(j, "line", &f.line);
  Get(j, "module", &f.module);
  if (Has(j, "pc")) f.pc = ParseHex(j.at("pc"));
  return f;
}

model::Thread ThreadFromJson(const json& j) {
  model::Thread t;
  Get(j, "tid", &t.tid);
  Get(j, "state", &t.state);
  if (Has(j, "blocked") && j.at("blocked").get<bool>()) t.state = "blocked";
  GetOptional(j, "call", &t.call);
  GetOptional(j, "seconds_in_call", &t.seconds_in_call);
  Get(j, "mpi_calls", &t.mpi_calls);
  if (Has(j, "operation")) t.operation = OperationFromJson(j.at("operation"));
  Get(j, "call_class", &t.call_class);
  if (Has(j, "waited")) t.waited = OperationsFromJson(j.at("waited"));
  Get(j, "waited_unknown", &t.waited_unknown);
  Get(j, "comm", &t.comm_id);
  Get(j, "comm_name", &t.comm_name);
  GetOptional(j, "root", &t.root);
  if (Has(j, "frames") && j.at("frames").is_array()) {
    for (const json& f : j.at("frames")) t.frames.push_back(FrameFromJson(f));
  }
  GetOptional(j, "stack_error", &t.stack_error);
  Get(j, "arguments_from", &t.arguments_from);
  Get(j, "recording_paused", &t.recording_paused);
  Get(j, "state_from", &t.state_from);
  return t;
}

model::Communicator CommunicatorFromJson(const json& j) {
  model::Communicator c;
  Get(j, "id", &c.id);
  Get(j, "name", &c.name);
  if (Has(j, "handle")) c.handle = ParseHex(j.at("handle"));
  Get(j, "kind", &c.kind);
  Get(j, "size", &c.size);
  Get(j, "rank", &c.rank);
  if (Has(j, "world_ranks")) c.world_ranks = j.at("world_ranks").get<std::vector<int>>();
  if (Has(j, "remote_world_ranks")) {
    c.remote_world_ranks = model::RankList(j.at("remote_world_ranks").get<std::vector<int>>());
  }
  if (Has(j, "remote_job") && j.at("remote_job").is_object()) {
    model::Communicator::RemoteJob remote;
    Get(j.at("remote_job"), "job_id", &remote.job_id);
    if (Has(j.at("remote_job"), "world_ranks")) {
      remote.world_ranks = j.at("remote_job").at("world_ranks").get<std::vector<int>>();
    }
    c.remote_job = std::move(remote);
  }
  GetOptional(j, "topology", &c.topology);
  if (Has(j, "neighbors")) {
    const json& n = j.at("neighbors");
    c.neighbors = model::Neighbors{n.at("sources").get<std::vector<int>>(),
                                   n.at("destinations").get<std::vector<int>>()};
  }
  Get(j, "freed", &c.freed);
  Get(j, "predefined", &c.predefined);
  Get(j, "creator", &c.creator);
  if (Has(j, "pending_sends")) c.pending_sends = OperationsFromJson(j.at("pending_sends"));
  if (Has(j, "pending_receives")) c.pending_receives = OperationsFromJson(j.at("pending_receives"));
  if (Has(j, "unexpected")) c.unexpected = OperationsFromJson(j.at("unexpected"));
  return c;
}

model::MpitVariable MpitVariableFromJson(const json& j) {
  model::MpitVariable v;
  Get(j, "name", &v.name);
  Get(j, "datatype", &v.datatype);
  Get(j, "verbosity", &v.verbosity);
  Get(j, "bind", &v.bind);
  Get(j, "count", &v.count);
  Get(j, "class", &v.var_class);
  Get(j, "readonly", &v.readonly);
  Get(j, "continuous", &v.continuous);
  Get(j, "atomic", &v.atomic);
  Get(j, "scope", &v.scope);
  GetOptional(j, "value", &v.value);
  Get(j, "description", &v.description);
  return v;
}

model::MpitCatalogue MpitFromJson(const json& j) {
  model::MpitCatalogue m;
  Get(j, "available", &m.available);
  Get(j, "refreshes", &m.refreshes);
  Get(j, "captured_time_ns", &m.captured_time_ns);
  if (Has(j, "cvars")) {
    for (const json& v : j.at("cvars")) m.cvars.push_back(MpitVariableFromJson(v));
  }
  if (Has(j, "pvars")) {
    for (const json& v : j.at("pvars")) m.pvars.push_back(MpitVariableFromJson(v));
  }
  if (Has(j, "categories")) {
    for (const json& c : j.at("categories")) {
      model::MpitCategory cat;
      Get(c, "name", &cat.name);
      Get(c, "description", &cat.description);
      Get(c, "cvars", &cat.cvars);
      Get(c, "pvars", &cat.pvars);
      Get(c, "categories", &cat.categories);
      m.categories.push_back(std::move(cat));
    }
  }
  return m;
}

void LaunchFromJson(const json& pmi, const json* orphans, model::ProcessSnapshot* snap) {
  if (!Has(pmi, "launcher")) return;
  model::LaunchInfo l;
  Get(pmi, "launcher", &l.launcher);
  Get(pmi, "sources", &l.sources);
  Get(pmi, "launcher_rank", &l.rank);
  Get(pmi, "launcher_size", &l.world_size);
  Get(pmi, "local_rank", &l.local_rank);
  Get(pmi, "local_size", &l.local_size);
  Get(pmi, "node_rank", &l.node_rank);
  Get(pmi, "appnum", &l.appnum);
  Get(pmi, "universe_size", &l.universe_size);
  Get(pmi, "job_id", &l.job_id);
  Get(pmi, "host", &l.host);
  Get(pmi, "pmi_interface", &l.pmi_interface);
  Get(pmi, "thread_level_requested", &l.thread_level_requested);
  Get(pmi, "debug_gate_hold", &l.debug_gate_hold);
  std::string version;
  Get(pmi, "mpi_version", &version);
  std::sscanf(version.c_str(), "%d.%d", &l.mpi_version, &l.mpi_subversion);
  if (orphans != nullptr) {
    Get(*orphans, "count", &l.orphan_count);
    Get(*orphans, "budget", &l.orphan_budget);
    Get(*orphans, "keep_all", &l.orphan_keep_all);
    Get(*orphans, "evictions", &l.orphan_evictions);
    Get(*orphans, "releases", &l.orphan_releases);
  }
  snap->launch = std::move(l);
}

model::Traffic TrafficFromJson(const json& j) {
  model::Traffic t;
  if (Has(j, "counts")) {
    for (const json& e : j.at("counts")) {
      model::TrafficCount c;
      Get(e, "comm", &c.comm_id);
      Get(e, "peer", &c.peer);
      if (Has(e, "peer_world")) c.peer_world = RankFromJson(e.at("peer_world"));
      Get(e, "tag", &c.tag);
      Get(e, "sends", &c.sends);
      Get(e, "receives", &c.receives);
      Get(e, "send_bytes", &c.send_bytes);
      Get(e, "receive_bytes", &c.receive_bytes);
      t.counts.push_back(c);
    }
  }
  if (Has(j, "sends")) {
    for (const json& e : j.at("sends")) {
      model::LoggedSend l;
      Get(e, "call", &l.call);
      Get(e, "comm", &l.comm_id);
      Get(e, "ordinal", &l.ordinal);
      Get(e, "peer", &l.peer);
      if (Has(e, "peer_world")) l.peer_world = RankFromJson(e.at("peer_world"));
      Get(e, "tag", &l.tag);
      Get(e, "count", &l.count);
      Get(e, "bytes", &l.bytes);
      Get(e, "mode", &l.mode);
      Get(e, "time_ns", &l.time_ns);
      t.sends.push_back(l);
    }
  }
  Get(j, "log_capacity", &t.log_capacity);
  Get(j, "sends_logged", &t.sends_logged);
  Get(j, "dropped", &t.dropped);
  return t;
}

}  // namespace

Result<model::ProcessSnapshot> SnapshotFromJson(const json& doc) {
  if (!doc.is_object()) return Status::Usage("a snapshot document must be a JSON object");
  std::string schema = doc.value("schema", std::string());
  if (schema != kSnapshotSchema) {
    return Status::Usage("not a snapshot document: schema is \"" + schema + "\", expected \"" +
                         kSnapshotSchema + "\"");
  }
  model::ProcessSnapshot snap;
  try {
    Get(doc, "view", &snap.process.view);  // absent in older documents: "records"
    if (snap.process.view != "stacks") snap.process.view = "records";
    if (Has(doc, "process")) {
      const json& p = doc.at("process");
      Get(p, "pid", &snap.process.pid);
      Get(p, "rank", &snap.process.rank);
      Get(p, "size", &snap.process.size);
      Get(p, "hostname", &snap.process.hostname);
      Get(p, "source", &snap.process.source);
      Get(p, "mpi_library", &snap.process.mpi_library);
      Get(p, "thread_level", &snap.process.thread_level);
      Get(p, "state", &snap.process.state);
      Get(p, "plugin", &snap.process.plugin);
      Get(p, "rank_from", &snap.process.rank_from);
      if (Has(p, "damage")) {
        const json& d = p.at("damage");
        model::WalkDamage damage;
        Get(d, "records_torn", &damage.records_torn);
        Get(d, "records_bad", &damage.records_bad);
        Get(d, "tables_damaged", &damage.tables_damaged);
        Get(d, "rings_damaged", &damage.rings_damaged);
        Get(d, "live_unreadable", &damage.live_unreadable);
        snap.process.damage = damage;
      }
    }
    if (Has(doc, "threads")) {
      for (const json& t : doc.at("threads")) snap.threads.push_back(ThreadFromJson(t));
    }
    if (Has(doc, "communicators")) {
      for (const json& c : doc.at("communicators")) {
        snap.communicators.push_back(CommunicatorFromJson(c));
      }
    }
    if (Has(doc, "traffic")) snap.traffic = TrafficFromJson(doc.at("traffic"));
    if (Has(doc, "metadata")) {
      const json& md = doc.at("metadata");
      if (Has(md, "pmi")) {
        LaunchFromJson(md.at("pmi"), Has(md, "orphans") ? &md.at("orphans") : nullptr, &snap);
      }
      if (Has(md, "mpi_t")) snap.mpi_t = MpitFromJson(md.at("mpi_t"));
    }
  } catch (const json::exception& e) {
    return Status::Usage(std::string("malformed snapshot document: ") + e.what());
  }
  return snap;
}

}  // namespace mpidbg::host
