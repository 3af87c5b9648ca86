// monitor_entry.cc — see monitor_entry.h. Key names are docs/OUTPUT.md's
// "mpidbg.monitor/1"; keys may be added, never renamed or dropped.
#include "rt/monitor/monitor_entry.h"

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

void Field(JsonText* out, const char* key, uint64_t v, bool first = false) {
  if (!first) out->Char(',');
  out->Key(key);
  out->U64(v);
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

void AppendP2p(int peer, const mpidbg_monitor_peer& p, JsonText* out) {
  out->Char('{');
  Field(out, "peer", static_cast<uint64_t>(peer), true);
  Field(out, "sent_messages", p.sent_messages);
  Field(out, "sent_bytes", p.sent_bytes);
  Field(out, "received_messages", p.received_messages);
  Field(out, "received_bytes", p.received_bytes);
  out->Raw(",\"histogram\":{");
  bool first = true;
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) {
    if (p.sent_histogram[b] == 0) continue;
    if (!first) out->Char(',');
    first = false;
    out->Char('"');
    out->U64(BucketLowerBound(b));
    out->Raw("\":");
    out->U64(p.sent_histogram[b]);
  }
  out->Raw("}}");
}

void AppendCollPeer(int peer, const mpidbg_monitor_peer& p, JsonText* out) {
  out->Char('{');
  Field(out, "peer", static_cast<uint64_t>(peer), true);
  Field(out, "messages", p.coll_messages);
  Field(out, "bytes", p.coll_bytes);
  out->Char('}');
}

void AppendRma(int peer, const mpidbg_monitor_peer& p, JsonText* out) {
  out->Char('{');
  Field(out, "peer", static_cast<uint64_t>(peer), true);
  Field(out, "put_messages", p.put_messages);
  Field(out, "put_bytes", p.put_bytes);
  Field(out, "get_messages", p.get_messages);
  Field(out, "get_bytes", p.get_bytes);
  Field(out, "acc_messages", p.acc_messages);
  Field(out, "acc_bytes", p.acc_bytes);
  out->Char('}');
}

// "p2p", "collective_peers" and "rma" in one pass over the peers: each list is built in
// its own buffer, then the three are joined.
bool AppendPeerLists(const MonitorSource& source, int which, JsonText* out) {
  JsonText p2p, coll, rma;
  p2p.Raw(",\"p2p\":[");
  coll.Raw(",\"collective_peers\":[");
  rma.Raw(",\"rma\":[");
  bool first_p2p = true, first_coll = true, first_rma = true;
  if (source.block != nullptr && source.read_peer != nullptr) {
    for (int32_t r = 0; r < source.world_size; ++r) {
      mpidbg_monitor_peer p;
      memset(&p, 0, sizeof p);
      if (source.read_peer(r, which, &p) != 0) continue;
      if (AnyP2p(p)) {
        if (!first_p2p) p2p.Char(',');
        first_p2p = false;
        AppendP2p(r, p, &p2p);
      }
      if ((p.coll_messages | p.coll_bytes) != 0) {
        if (!first_coll) coll.Char(',');
        first_coll = false;
        AppendCollPeer(r, p, &coll);
      }
      if (AnyRma(p)) {
        if (!first_rma) rma.Char(',');
        first_rma = false;
        AppendRma(r, p, &rma);
      }
    }
  }
  p2p.Char(']');
  coll.Char(']');
  rma.Char(']');
  out->Append(p2p);
  out->Append(coll);
  out->Append(rma);
  return p2p.ok() && coll.ok() && rma.ok();
}

void AppendCollectives(const MonitorSource& source, int which, JsonText* out) {
  out->Raw(",\"collectives\":{");
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    mpidbg_monitor_coll c;
    memset(&c, 0, sizeof c);
    if (source.block != nullptr && source.read_collective != nullptr &&
        source.read_collective(k, which, &c) != 0) {
      memset(&c, 0, sizeof c);
    }
    if (k > 0) out->Char(',');
    out->Key(kCollKindNames[k]);
    out->Char('{');
    Field(out, "operations", c.operations, true);
    Field(out, "bytes_sent", c.bytes_sent);
    Field(out, "bytes_received", c.bytes_received);
    out->Char('}');
  }
  out->Char('}');
}

void AppendFiles(const MonitorSource& source, int which, JsonText* out) {
  out->Raw(",\"files\":[");
  bool first = true;
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
      if (!first) out->Char(',');
      first = false;
      out->Raw("{\"name\":");
      out->String(f.name, sizeof f.name);
      Field(out, "opens", f.opens);
      Field(out, "read_operations", f.read_operations);
      Field(out, "read_bytes", f.read_bytes);
      Field(out, "write_operations", f.write_operations);
      Field(out, "write_bytes", f.write_bytes);
      out->Char('}');
    }
  }
  out->Char(']');
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
void AppendMpit(const MonitorSource& source, JsonText* out) {
  const mpidbg_monitor* b = source.block;
  int32_t state = b != nullptr ? Load(b->mpit_state) : MPIDBG_MONITOR_MPIT_NOT_READ;
  out->Raw(",\"mpi_t\":{\"state\":");
  out->String(MpitStateName(state));
  out->Raw(",\"reason\":");
  if (b != nullptr) {
    out->String(b->mpit_reason, sizeof b->mpit_reason);
  } else {
    out->String("monitoring never started in this process");
  }
  if (b != nullptr && state == MPIDBG_MONITOR_MPIT_READ) {
    out->Raw(",\"time_ns\":");
    out->I64(Load(b->mpit_time_ns));
    out->Raw(",\"peers\":[");
    int32_t count = Load(b->mpit_peer_count);
    uint64_t address = Load(b->mpit_peers);
    if (count > source.world_size) count = source.world_size;
    const mpidbg_monitor_mpit_peer* peers =
        reinterpret_cast<const mpidbg_monitor_mpit_peer*>(static_cast<uintptr_t>(address));
    bool first = true;
    for (int32_t r = 0; peers != nullptr && r < count; ++r) {
      mpidbg_monitor_mpit_peer p = peers[r];
      if ((p.pml_messages | p.pml_bytes | p.osc_sent_messages | p.osc_sent_bytes |
           p.osc_received_messages | p.osc_received_bytes | p.coll_messages | p.coll_bytes) ==
          0) {
        continue;
      }
      if (!first) out->Char(',');
      first = false;
      out->Char('{');
      Field(out, "peer", static_cast<uint64_t>(r), true);
      Field(out, "pml_messages", p.pml_messages);
      Field(out, "pml_bytes", p.pml_bytes);
      Field(out, "osc_sent_messages", p.osc_sent_messages);
      Field(out, "osc_sent_bytes", p.osc_sent_bytes);
      Field(out, "osc_received_messages", p.osc_received_messages);
      Field(out, "osc_received_bytes", p.osc_received_bytes);
      Field(out, "coll_messages", p.coll_messages);
      Field(out, "coll_bytes", p.coll_bytes);
      out->Char('}');
    }
    out->Raw("],\"collectives\":{");
    for (int k = 0; k < MPIDBG_COLL_ALL_TO_ALL + 1; ++k) {
      if (k > 0) out->Char(',');
      out->Key(kCollKindNames[k]);
      out->Char('{');
      Field(out, "operations", Load(b->mpit_coll[k].operations), true);
      Field(out, "bytes", Load(b->mpit_coll[k].bytes_sent));
      out->Char('}');
    }
    out->Char('}');
  }
  out->Char('}');
}

}  // namespace

bool AppendRankEntry(const MonitorSource& source, const RankIdentity& who, int which,
                     JsonText* out) {
  const mpidbg_monitor* b = source.block;
  out->Char('{');
  out->Key("rank");
  out->I64(who.rank);
  out->Raw(",\"pid\":");
  out->I64(who.pid);
  out->Raw(",\"host\":");
  out->String(who.host != nullptr ? who.host : "", 256);
  out->Raw(",\"active\":");
  out->Bool(b != nullptr && Load(b->active) != 0);
  out->Raw(",\"first_start_time_ns\":");
  out->I64(b != nullptr ? Load(b->first_start_time_ns) : 0);
  out->Raw(",\"reset_time_ns\":");
  out->I64(b != nullptr ? Load(b->reset_time_ns) : 0);
  Field(out, "starts", b != nullptr ? Load(b->starts) : 0);
  Field(out, "stops", b != nullptr ? Load(b->stops) : 0);
  Field(out, "resets", b != nullptr ? Load(b->resets) : 0);
  bool lists_ok = AppendPeerLists(source, which, out);
  AppendCollectives(source, which, out);
  AppendFiles(source, which, out);
  AppendMpit(source, out);
  out->Char('}');
  return lists_ok && out->ok();
}

bool AppendFileOpening(const JobIdentity& job, JsonText* out) {
  out->Raw("{\"schema\":\"mpidbg.monitor/1\",\n\"job\":{\"id\":");
  out->String(job.id != nullptr ? job.id : "", 128);
  out->Raw(",\"world_size\":");
  out->I64(job.world_size);
  out->Raw(",\"flavour\":");
  out->String(job.flavour != nullptr ? job.flavour : "");
  out->Raw(",\"mpi_library\":");
  out->String(job.mpi_library != nullptr ? job.mpi_library : "", 256);
  out->Raw(",\"written_time_ns\":");
  out->I64(job.written_time_ns);
  out->Raw(",\"which\":");
  out->String(job.which == MPIDBG_MONITOR_CURRENT ? "current" : "accumulated");
  out->Raw("},\n\"ranks\":[\n");
  return out->ok();
}

const char* MonitorEntrySeparator() { return ",\n"; }
const char* MonitorFileClosing() { return "\n]}\n"; }

}  // namespace mpidbg::rt
