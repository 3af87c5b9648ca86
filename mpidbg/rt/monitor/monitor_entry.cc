// monitor_entry.cc — see monitor_entry.h. Key names are docs/OUTPUT.md's
// "mpidbg.monitor/1"; keys may be added, never renamed or dropped.
#include "rt/monitor/monitor_entry.h"

#include <stdio.h>
#include <string.h>

#include "mpidbg/runtime_api.h"

namespace mpidbg::rt {
namespace {

template <typename T>
T Load(const T& field) {
  return __atomic_load_n(&field, __ATOMIC_RELAXED);
}

const char* const kCollKindNames[MPIDBG_COLL_KINDS] = {"one_to_all", "all_to_one",
                                                        "all_to_all", "barrier"};

void Field(JsonWriter* out, const char* key, uint64_t v) {
  out->Key(key);
  out->Uint(v);
}

bool AnyP2p(const mpidbg_monitor_peer& p) {
  if (p.sent_messages | p.sent_bytes | p.received_messages | p.received_bytes) return true;
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) {
    if (p.sent_histogram[b] != 0) return true;
  }
  return false;
}

bool AnyRma(const mpidbg_monitor_peer& p) {
  return (p.put_messages | p.put_bytes | p.get_messages | p.get_bytes | p.acc_messages |
          p.acc_bytes) != 0;
}

// Bucket 0 holds empty messages, bucket k (1..64) sizes [2^(k-1), 2^k): the key is the
// bucket's lower bound in bytes.
uint64_t BucketLowerBound(int bucket) {
  return bucket == 0 ? 0 : uint64_t{1} << (bucket - 1);
}

void AppendP2p(int peer, const mpidbg_monitor_peer& p, JsonWriter* out) {
  out->BeginObject();
  Field(out, "peer", static_cast<uint64_t>(peer));
  Field(out, "sent_messages", p.sent_messages);
  Field(out, "sent_bytes", p.sent_bytes);
  Field(out, "received_messages", p.received_messages);
  Field(out, "received_bytes", p.received_bytes);
  out->Key("histogram");
  out->BeginObject();
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) {
    if (p.sent_histogram[b] == 0) continue;
    char key[24];
    snprintf(key, sizeof key, "%llu", static_cast<unsigned long long>(BucketLowerBound(b)));
    out->Key(key);
    out->Uint(p.sent_histogram[b]);
  }
  out->EndObject();
  out->EndObject();
}

void AppendCollPeer(int peer, const mpidbg_monitor_peer& p, JsonWriter* out) {
  out->BeginObject();
  Field(out, "peer", static_cast<uint64_t>(peer));
  Field(out, "messages", p.coll_messages);
  Field(out, "bytes", p.coll_bytes);
  out->EndObject();
}

void AppendRma(int peer, const mpidbg_monitor_peer& p, JsonWriter* out) {
  out->BeginObject();
  Field(out, "peer", static_cast<uint64_t>(peer));
  Field(out, "put_messages", p.put_messages);
  Field(out, "put_bytes", p.put_bytes);
  Field(out, "get_messages", p.get_messages);
  Field(out, "get_bytes", p.get_bytes);
  Field(out, "acc_messages", p.acc_messages);
  Field(out, "acc_bytes", p.acc_bytes);
  out->EndObject();
}

// "p2p", "collective_peers" and "rma" in one pass over the peers: each list is built in
// its own buffer, then the three are joined.
bool AppendPeerLists(const MonitorSource& source, int which, JsonWriter* out) {
  JsonWriter p2p(JsonLayout::kCompact), coll(JsonLayout::kCompact), rma(JsonLayout::kCompact);
  p2p.BeginArray();
  coll.BeginArray();
  rma.BeginArray();
  if (source.block != nullptr && source.read_peer != nullptr) {
    for (int32_t r = 0; r < source.world_size; ++r) {
      mpidbg_monitor_peer p;
      memset(&p, 0, sizeof p);
      if (source.read_peer(r, which, &p) != 0) continue;
      if (AnyP2p(p)) AppendP2p(r, p, &p2p);
      if ((p.coll_messages | p.coll_bytes) != 0) AppendCollPeer(r, p, &coll);
      if (AnyRma(p)) AppendRma(r, p, &rma);
    }
  }
  p2p.EndArray();
  coll.EndArray();
  rma.EndArray();
  out->Key("p2p");
  out->Raw(p2p.Data(), p2p.Size());
  out->Key("collective_peers");
  out->Raw(coll.Data(), coll.Size());
  out->Key("rma");
  out->Raw(rma.Data(), rma.Size());
  return p2p.ok() && coll.ok() && rma.ok();
}

void AppendCollectives(const MonitorSource& source, int which, JsonWriter* out) {
  out->Key("collectives");
  out->BeginObject();
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    mpidbg_monitor_coll c;
    memset(&c, 0, sizeof c);
    if (source.block != nullptr && source.read_collective != nullptr &&
        source.read_collective(k, which, &c) != 0) {
      memset(&c, 0, sizeof c);
    }
    out->Key(kCollKindNames[k]);
    out->BeginObject();
    Field(out, "operations", c.operations);
    Field(out, "bytes_sent", c.bytes_sent);
    Field(out, "bytes_received", c.bytes_received);
    out->EndObject();
  }
  out->EndObject();
}

void AppendFiles(const MonitorSource& source, int which, JsonWriter* out) {
  out->Key("files");
  out->BeginArray();
  if (source.block != nullptr && source.read_file != nullptr) {
    uint32_t capacity = Load(source.block->file_capacity);
    for (uint32_t i = 0; i < capacity; ++i) {
      mpidbg_monitor_file f;
      memset(&f, 0, sizeof f);
      if (source.read_file(static_cast<int>(i), which, &f) != 0) break;  // past the last
      if (f.name[0] == '\0') continue;                                     // being filled
      if ((f.opens | f.read_operations | f.read_bytes | f.write_operations | f.write_bytes) ==
          0) {
        continue;
      }
      out->BeginObject();
      out->Key("name");
      out->BoundedString(f.name, sizeof f.name);
      Field(out, "opens", f.opens);
      Field(out, "read_operations", f.read_operations);
      Field(out, "read_bytes", f.read_bytes);
      Field(out, "write_operations", f.write_operations);
      Field(out, "write_bytes", f.write_bytes);
      out->EndObject();
    }
  }
  out->EndArray();
  Field(out, "files_dropped", source.block != nullptr ? Load(source.block->files_dropped) : 0);
}

const char* MpitStateName(int32_t state) {
  switch (state) {
    case MPIDBG_MONITOR_MPIT_READ: return "read";
    case MPIDBG_MONITOR_MPIT_UNAVAILABLE: return "unavailable";
    default: return "not_read";
  }
}

// The MPI's own counters: absolute values as the MPI keeps them (OUTPUT.md), whatever
// `which` says (mpidbg/doc/monitoring_mpit.md).
void AppendMpit(const MonitorSource& source, JsonWriter* out) {
  const mpidbg_monitor* b = source.block;
  int32_t state = b != nullptr ? Load(b->mpit_state) : MPIDBG_MONITOR_MPIT_NOT_READ;
  out->Key("mpi_t");
  out->BeginObject();
  out->Key("state");
  out->String(MpitStateName(state));
  out->Key("reason");
  if (b != nullptr) {
    out->BoundedString(b->mpit_reason, sizeof b->mpit_reason);
  } else {
    out->String("monitoring never started in this process");
  }
  if (b != nullptr && state == MPIDBG_MONITOR_MPIT_READ) {
    out->Key("time_ns");
    out->Int(Load(b->mpit_time_ns));
    out->Key("peers");
    out->BeginArray();
    int32_t count = Load(b->mpit_peer_count);
    uint64_t address = Load(b->mpit_peers);
    if (count > source.world_size) count = source.world_size;
    const mpidbg_monitor_mpit_peer* peers =
        reinterpret_cast<const mpidbg_monitor_mpit_peer*>(static_cast<uintptr_t>(address));
    for (int32_t r = 0; peers != nullptr && r < count; ++r) {
      mpidbg_monitor_mpit_peer p = peers[r];
      if ((p.pml_messages | p.pml_bytes | p.osc_sent_messages | p.osc_sent_bytes |
           p.osc_received_messages | p.osc_received_bytes | p.coll_messages | p.coll_bytes) ==
          0) {
        continue;
      }
      out->BeginObject();
      Field(out, "peer", static_cast<uint64_t>(r));
      Field(out, "pml_messages", p.pml_messages);
      Field(out, "pml_bytes", p.pml_bytes);
      Field(out, "osc_sent_messages", p.osc_sent_messages);
      Field(out, "osc_sent_bytes", p.osc_sent_bytes);
      Field(out, "osc_received_messages", p.osc_received_messages);
      Field(out, "osc_received_bytes", p.osc_received_bytes);
      Field(out, "coll_messages", p.coll_messages);
      Field(out, "coll_bytes", p.coll_bytes);
      out->EndObject();
    }
    out->EndArray();
    out->Key("collectives");
    out->BeginObject();
    for (int k = 0; k < MPIDBG_COLL_ALL_TO_ALL + 1; ++k) {
      out->Key(kCollKindNames[k]);
      out->BeginObject();
      Field(out, "operations", Load(b->mpit_coll[k].operations));
      Field(out, "bytes", Load(b->mpit_coll[k].bytes_sent));
      out->EndObject();
    }
    out->EndObject();
  }
  out->EndObject();
}

}  // namespace

bool AppendRankEntry(const MonitorSource& source, const RankIdentity& who, int which,
                     JsonWriter* out) {
  const mpidbg_monitor* b = source.block;
  out->BeginObject();
  out->Key("rank");
  out->Int(who.rank);
  out->Key("pid");
  out->Int(who.pid);
  out->Key("host");
  out->BoundedString(who.host != nullptr ? who.host : "", 256);
  out->Key("active");
  out->Bool(b != nullptr && Load(b->active) != 0);
  out->Key("first_start_time_ns");
  out->Int(b != nullptr ? Load(b->first_start_time_ns) : 0);
  out->Key("reset_time_ns");
  out->Int(b != nullptr ? Load(b->reset_time_ns) : 0);
  Field(out, "starts", b != nullptr ? Load(b->starts) : 0);
  Field(out, "stops", b != nullptr ? Load(b->stops) : 0);
  Field(out, "resets", b != nullptr ? Load(b->resets) : 0);
  bool lists_ok = AppendPeerLists(source, which, out);
  AppendCollectives(source, which, out);
  AppendFiles(source, which, out);
  AppendMpit(source, out);
  out->EndObject();
  return lists_ok && out->ok();
}

bool AppendFileOpening(const JobIdentity& job, JsonWriter* out) {
  out->Verbatim("{\"schema\":\"mpidbg.monitor/1\",\n\"job\":");
  out->BeginObject();
  out->Key("id");
  out->BoundedString(job.id != nullptr ? job.id : "", 128);
  out->Key("world_size");
  out->Int(job.world_size);
  out->Key("flavour");
  out->String(job.flavour != nullptr ? job.flavour : "");
  out->Key("mpi_library");
  out->BoundedString(job.mpi_library != nullptr ? job.mpi_library : "", 256);
  out->Key("written_time_ns");
  out->Int(job.written_time_ns);
  out->Key("which");
  out->String(job.which == MPIDBG_MONITOR_CURRENT ? "current" : "accumulated");
  out->EndObject();
  out->Verbatim(",\n\"ranks\":[\n");
  return out->ok();
}

const char* MonitorEntrySeparator() { return ",\n"; }
const char* MonitorFileClosing() { return "\n]}\n"; }

}  // namespace mpidbg::rt
