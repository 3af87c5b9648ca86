// monitor_file.cc — reading "mpidbg.monitor/1". Unknown keys are ignored and optional
// keys may be missing; wrong types, ranks or peers out of range, duplicate ranks and
// histogram keys that are no bucket bound are errors.
#include "host/matrix/monitor_file.h"

#include <cerrno>
#include <cstdlib>

#include "host/util/json_fields.h"

namespace mpidbg::monitor {
namespace {

using host::CheckSchema;
using host::CheckWorldSize;
using host::ForEachElement;
using host::JoinPath;
using host::JsonFields;
using host::kMaxWorldSize;
using host::LoadJsonFile;
using host::RankOf;
using host::ReadRanks;
using nlohmann::json;

constexpr const char* kSchema = "mpidbg.monitor/1";

// A histogram key is a bucket's lower bound: "0", or a power of two 2^e (bucket e+1).
bool BucketOfKey(const std::string& key, int* bucket) {
  if (key.empty() || key.size() > 20) return false;
  for (char c : key) {
    if (c < '0' || c > '9') return false;
  }
  if (key == "0") {
    *bucket = 0;
    return true;
  }
  errno = 0;
  unsigned long long v = std::strtoull(key.c_str(), nullptr, 10);
  if (errno != 0 || v == 0 || (v & (v - 1)) != 0) return false;
  *bucket = 1 + __builtin_ctzll(v);
  return true;
}

// Each entry of the array `key` of `obj` with the world rank its "peer" names:
// `read(entry, at, peer)`. Stops at the first error.
template <typename Read>
void ForEachPeerEntry(JsonFields& f, const json& obj, const std::string& where, const char* key,
                      int world_size, Read read) {
  ForEachElement(f, obj, where, key, [&](const json& e, const std::string& at) {
    int peer = 0;
    if (RankOf(f, e, at, "peer", world_size, &peer)) read(e, at, peer);
  });
}

// Each collective kind present in the object "collectives" of `obj`: `read(kind, entry, at)`.
template <typename Read>
void ForEachCollKind(JsonFields& f, const json& obj, const std::string& where, Read read) {
  const json* colls = f.Object(obj, where, "collectives");
  if (colls == nullptr) return;
  std::string path = JoinPath(where, "collectives");
  for (int k = 0; k < kCollKinds && f.ok(); ++k) {
    const json* c = f.Object(*colls, path, kCollKindNames[k]);
    if (c == nullptr) continue;
    read(k, *c, JoinPath(path, kCollKindNames[k]));
  }
}

void ReadP2p(JsonFields& f, const json& rank, const std::string& where, int world_size,
             RankMonitor* out) {
  ForEachPeerEntry(f, rank, where, "p2p", world_size,
                   [&](const json& e, const std::string& at, int peer) {
    PeerCounters& p = out->peers[peer];
    f.U64(e, at, "sent_messages", &p.sent_messages);
    f.U64(e, at, "sent_bytes", &p.sent_bytes);
    f.U64(e, at, "received_messages", &p.received_messages);
    f.U64(e, at, "received_bytes", &p.received_bytes);
    const json* hist = f.Object(e, at, "histogram");
    if (hist == nullptr) return;
    std::string hpath = JoinPath(at, "histogram");
    for (auto it = hist->begin(); it != hist->end() && f.ok(); ++it) {
      int bucket = 0;
      if (!BucketOfKey(it.key(), &bucket)) {
        f.Fail(JoinPath(hpath, "\"" + it.key() + "\"") +
               " is no bucket bound (\"0\" or a power of two)");
        return;
      }
      f.U64(*hist, hpath, it.key().c_str(), &p.histogram[bucket]);
    }
  });
}

void ReadCollectivePeers(JsonFields& f, const json& rank, const std::string& where,
                         int world_size, RankMonitor* out) {
  ForEachPeerEntry(f, rank, where, "collective_peers", world_size,
                   [&](const json& e, const std::string& at, int peer) {
    PeerCounters& p = out->peers[peer];
    f.U64(e, at, "messages", &p.coll_messages);
    f.U64(e, at, "bytes", &p.coll_bytes);
  });
}

void ReadRma(JsonFields& f, const json& rank, const std::string& where, int world_size,
             RankMonitor* out) {
  ForEachPeerEntry(f, rank, where, "rma", world_size,
                   [&](const json& e, const std::string& at, int peer) {
    PeerCounters& p = out->peers[peer];
    f.U64(e, at, "put_messages", &p.put_messages);
    f.U64(e, at, "put_bytes", &p.put_bytes);
    f.U64(e, at, "get_messages", &p.get_messages);
    f.U64(e, at, "get_bytes", &p.get_bytes);
    f.U64(e, at, "acc_messages", &p.acc_messages);
    f.U64(e, at, "acc_bytes", &p.acc_bytes);
  });
}

void ReadCollectives(JsonFields& f, const json& rank, const std::string& where,
                     RankMonitor* out) {
  ForEachCollKind(f, rank, where, [&](int k, const json& c, const std::string& at) {
    f.U64(c, at, "operations", &out->collectives[k].operations);
    f.U64(c, at, "bytes_sent", &out->collectives[k].bytes_sent);
    f.U64(c, at, "bytes_received", &out->collectives[k].bytes_received);
  });
}

void ReadFiles(JsonFields& f, const json& rank, const std::string& where, RankMonitor* out) {
  f.U64(rank, where, "files_dropped", &out->files_dropped);
  ForEachElement(f, rank, where, "files", [&](const json& e, const std::string& at) {
    FileCounters file;
    f.String(e, at, "name", &file.name, true);
    f.U64(e, at, "opens", &file.opens);
    f.U64(e, at, "read_operations", &file.read_operations);
    f.U64(e, at, "read_bytes", &file.read_bytes);
    f.U64(e, at, "write_operations", &file.write_operations);
    f.U64(e, at, "write_bytes", &file.write_bytes);
    if (f.ok()) out->files.push_back(std::move(file));
  });
}

void ReadMpit(JsonFields& f, const json& rank, const std::string& where, int world_size,
              RankMonitor* out) {
  const json* mpit = f.Object(rank, where, "mpi_t");
  if (mpit == nullptr) return;
  std::string path = JoinPath(where, "mpi_t");
  f.String(*mpit, path, "state", &out->mpit_state);
  f.String(*mpit, path, "reason", &out->mpit_reason);
  if (!f.ok()) return;
  if (out->mpit_state != "read" && out->mpit_state != "unavailable" &&
      out->mpit_state != "not_read") {
    f.Fail(JoinPath(path, "state") + " is \"" + out->mpit_state +
           "\", not \"read\", \"unavailable\" or \"not_read\"");
    return;
  }
  ForEachPeerEntry(f, *mpit, path, "peers", world_size,
                   [&](const json& e, const std::string& at, int peer) {
    MpitPeer& p = out->mpit_peers[peer];
    f.U64(e, at, "pml_messages", &p.pml_messages);
    f.U64(e, at, "pml_bytes", &p.pml_bytes);
    f.U64(e, at, "osc_sent_messages", &p.osc_sent_messages);
    f.U64(e, at, "osc_sent_bytes", &p.osc_sent_bytes);
    f.U64(e, at, "osc_received_messages", &p.osc_received_messages);
    f.U64(e, at, "osc_received_bytes", &p.osc_received_bytes);
    f.U64(e, at, "coll_messages", &p.coll_messages);
    f.U64(e, at, "coll_bytes", &p.coll_bytes);
  });
  ForEachCollKind(f, *mpit, path, [&](int k, const json& c, const std::string& at) {
    f.U64(c, at, "operations", &out->mpit_collectives[k].operations);
    f.U64(c, at, "bytes", &out->mpit_collectives[k].bytes);
  });
}

// One entry of "ranks", its rank already claimed.
void ReadRank(JsonFields& f, const json& entry, const std::string& at, int world_size,
              RankMonitor* r) {
  f.I64(entry, at, "pid", &r->pid);
  f.String(entry, at, "host", &r->host);
  f.Bool(entry, at, "active", &r->active);
  f.I64(entry, at, "first_start_time_ns", &r->first_start_time_ns);
  f.I64(entry, at, "reset_time_ns", &r->reset_time_ns);
  f.U64(entry, at, "starts", &r->starts);
  f.U64(entry, at, "stops", &r->stops);
  f.U64(entry, at, "resets", &r->resets);
  ReadP2p(f, entry, at, world_size, r);
  ReadCollectivePeers(f, entry, at, world_size, r);
  ReadRma(f, entry, at, world_size, r);
  ReadCollectives(f, entry, at, r);
  ReadFiles(f, entry, at, r);
  ReadMpit(f, entry, at, world_size, r);
}

void ReadJob(JsonFields& f, const json& j, const std::string& at, JobMonitor* job) {
  f.String(j, at, "id", &job->id);
  f.Int(j, at, "world_size", &job->world_size, true);
  f.String(j, at, "flavour", &job->flavour);
  f.String(j, at, "mpi_library", &job->mpi_library);
  f.I64(j, at, "written_time_ns", &job->written_time_ns);
  f.String(j, at, "which", &job->which);
  CheckWorldSize(f, job->world_size, kMaxWorldSize);
  if (f.ok() && job->which != "accumulated" && job->which != "current") {
    f.Fail(JoinPath(at, "which") + " is \"" + job->which + "\", not \"accumulated\" or \"current\"");
  }
}

}  // namespace

host::Result<JobMonitor> MonitorFromJson(const json& doc, const std::string& name) {
  JsonFields f;
  JobMonitor job;
  host::Status schema = CheckSchema(f, doc, name, kSchema);
  if (!schema.ok()) return schema;
  const json* j = f.Object(doc, "", "job", true);
  if (j != nullptr) ReadJob(f, *j, "job", &job);
  ReadRanks(f, doc, job.world_size, &job.ranks,
            [&](const json& entry, const std::string& at, RankMonitor* r) {
              ReadRank(f, entry, at, job.world_size, r);
            });
  if (!f.ok()) return host::Status::Unreadable(name + ": " + f.error());
  job.source = "file";
  return job;
}

host::Status MonitorJobFromJson(const json& job_object, JobMonitor* job) {
  JsonFields f;
  JobMonitor read;
  ReadJob(f, job_object, "job", &read);
  if (!f.ok()) return host::Status::Unreadable(f.error());
  if (job->ranks.empty()) {
    job->id = read.id;
    job->flavour = read.flavour;
    job->mpi_library = read.mpi_library;
    job->which = read.which;
  } else if (read.which != job->which) {
    return host::Status::Unreadable("holds " + read.which + " counters, the job's are " + job->which);
  }
  // Every node should tell the same world size; the largest is kept so no rank of any
  // node is out of range.
  if (read.world_size > job->world_size) {
    job->world_size = read.world_size;
    std::size_t had = job->ranks.size();
    job->ranks.resize(static_cast<size_t>(read.world_size));
    for (std::size_t i = had; i < job->ranks.size(); ++i) job->ranks[i].rank = static_cast<int>(i);
  }
  return host::Status::Ok();
}

host::Status AddMonitorRankFromJson(const json& entry, JobMonitor* job) {
  JsonFields f;
  if (RankMonitor* r = host::ClaimRank(f, entry, "rank", &job->ranks)) {
    ReadRank(f, entry, "rank", job->world_size, r);
    if (!f.ok()) {
      const int rank = r->rank;
      *r = RankMonitor();  // not present: a rank whose entry failed shows no data
      r->rank = rank;
    }
  }
  return f.ok() ? host::Status::Ok() : host::Status::Unreadable(f.error());
}

host::Result<JobMonitor> LoadMonitorFile(const std::string& path) {
  return LoadJsonFile(path, &MonitorFromJson);
}

}  // namespace mpidbg::monitor
