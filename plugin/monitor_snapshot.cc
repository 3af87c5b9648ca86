// monitor_snapshot.cc — see monitor_snapshot.h.
#include "plugin/monitor_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "plugin/element_chunks.h"
#include "plugin/errors.h"

namespace mpidbg::plugin {
namespace {

// The least of the block a runtime can have written: everything up to the MPI_T part.
constexpr uint32_t kMinBlock = offsetof(mpidbg_monitor, mpit_state);
// A peer element must hold its counters; the histogram is read as far as it goes.
constexpr uint32_t kMinPeer = offsetof(mpidbg_monitor_peer, sent_histogram);
constexpr uint32_t kMinFile = offsetof(mpidbg_monitor_file, name) + 1;
// No array is read past this many bytes, whatever its count and element size say.
constexpr uint64_t kMaxArrayBytes = uint64_t{4} << 30;

void decode_coll(const Decoder& d, mpidbg_monitor_coll* out) {
  out->operations = d.u64(offsetof(mpidbg_monitor_coll, operations));
  out->bytes_sent = d.u64(offsetof(mpidbg_monitor_coll, bytes_sent));
  out->bytes_received = d.u64(offsetof(mpidbg_monitor_coll, bytes_received));
  out->reserved = d.u64(offsetof(mpidbg_monitor_coll, reserved));
}

void decode_header(const Decoder& d, mpidbg_monitor* out) {
  std::memset(out, 0, sizeof *out);
#define MON(field, getter) out->field = d.getter(offsetof(mpidbg_monitor, field))
  MON(size, u32);
  MON(peer_size, u32);
  MON(file_size, u32);
  MON(buckets, u32);
  MON(world_size, i32);
  MON(active, i32);
  MON(reset_seq, u32);
  MON(file_capacity, u32);
  MON(starts, u64);
  MON(stops, u64);
  MON(resets, u64);
  MON(first_start_time_ns, i64);
  MON(reset_time_ns, i64);
  MON(accumulated_peers, u64);
  MON(baseline_peers, u64);
  MON(accumulated_files, u64);
  MON(baseline_files, u64);
  MON(files_dropped, u64);
  MON(mpit_state, i32);
  MON(mpit_peer_count, i32);
  MON(mpit_time_ns, i64);
  MON(mpit_peers, u64);
#undef MON
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    const size_t at = sizeof(mpidbg_monitor_coll) * static_cast<size_t>(k);
    decode_coll(d.sub(offsetof(mpidbg_monitor, accumulated_coll) + at, sizeof(mpidbg_monitor_coll)),
                &out->accumulated_coll[k]);
    decode_coll(d.sub(offsetof(mpidbg_monitor, baseline_coll) + at, sizeof(mpidbg_monitor_coll)),
                &out->baseline_coll[k]);
    decode_coll(d.sub(offsetof(mpidbg_monitor, mpit_coll) + at, sizeof(mpidbg_monitor_coll)),
                &out->mpit_coll[k]);
  }
  d.str(offsetof(mpidbg_monitor, mpit_reason), sizeof out->mpit_reason, out->mpit_reason);
  d.str(offsetof(mpidbg_monitor, output_path), sizeof out->output_path, out->output_path);
}

void decode_peer(const Decoder& d, uint32_t buckets, mpidbg_monitor_peer* out) {
  std::memset(out, 0, sizeof *out);
#define PEER(field) out->field = d.u64(offsetof(mpidbg_monitor_peer, field))
  PEER(sent_messages);
  PEER(sent_bytes);
  PEER(received_messages);
  PEER(received_bytes);
  PEER(coll_messages);
  PEER(coll_bytes);
  PEER(put_messages);
  PEER(put_bytes);
  PEER(get_messages);
  PEER(get_bytes);
  PEER(acc_messages);
  PEER(acc_bytes);
#undef PEER
  // A runtime with more buckets than this plugin knows: the extra ones are left out.
  const uint32_t n = buckets < MPIDBG_MONITOR_BUCKETS ? buckets : MPIDBG_MONITOR_BUCKETS;
  for (uint32_t b = 0; b < n; ++b) {
    out->sent_histogram[b] = d.u64(offsetof(mpidbg_monitor_peer, sent_histogram) + 8 * size_t{b});
  }
}

void decode_file(const Decoder& d, mpidbg_monitor_file* out) {
  std::memset(out, 0, sizeof *out);
#define FILE_FIELD(field, getter) out->field = d.getter(offsetof(mpidbg_monitor_file, field))
  FILE_FIELD(state, u32);
  FILE_FIELD(opens, u64);
  FILE_FIELD(read_operations, u64);
  FILE_FIELD(read_bytes, u64);
  FILE_FIELD(write_operations, u64);
  FILE_FIELD(write_bytes, u64);
#undef FILE_FIELD
  d.str(offsetof(mpidbg_monitor_file, name), sizeof out->name, out->name);
}

void decode_mpit_peer(const Decoder& d, mpidbg_monitor_mpit_peer* out) {
#define MPIT(field) out->field = d.u64(offsetof(mpidbg_monitor_mpit_peer, field))
  MPIT(pml_messages);
  MPIT(pml_bytes);
  MPIT(osc_sent_messages);
  MPIT(osc_sent_bytes);
  MPIT(osc_received_messages);
  MPIT(osc_received_bytes);
  MPIT(coll_messages);
  MPIT(coll_bytes);
#undef MPIT
}

template <typename T>
bool all_zero(const T& v) {
  static const T zero{};
  return std::memcmp(&v, &zero, sizeof v) == 0;
}

int damaged(const char* what, unsigned long long value) {
  set_error_detail(kErrMetadataDamaged,
                   "the runtime's monitoring block is damaged: %s %llu is implausible", what, value);
  return kErrMetadataDamaged;
}

// Sizes and counts the header claims, checked before anything is read by them.
int check_header(const mpidbg_monitor& h, const MonitorLimits& limits) {
  if (h.world_size < 0 || h.world_size > limits.max_world_size) {
    return damaged("world size", static_cast<uint32_t>(h.world_size));
  }
  if (h.world_size > 0) {
    if (h.peer_size < kMinPeer || h.peer_size > limits.max_element_size || h.peer_size % 8 != 0) {
      return damaged("peer element size", h.peer_size);
    }
    if (h.buckets == 0 || h.buckets > limits.max_buckets ||
        offsetof(mpidbg_monitor_peer, sent_histogram) + 8 * uint64_t{h.buckets} > h.peer_size) {
      return damaged("histogram buckets", h.buckets);
    }
    if (uint64_t{h.peer_size} * static_cast<uint32_t>(h.world_size) > kMaxArrayBytes) {
      return damaged("peer array size",
                     uint64_t{h.peer_size} * static_cast<uint32_t>(h.world_size));
    }
    if (h.accumulated_peers == 0) return damaged("peer array address", 0);
  }
  if (h.file_capacity > limits.max_files) {
    return damaged("file capacity", h.file_capacity);
  }
  if (h.file_capacity > 0) {
    if (h.file_size < kMinFile || h.file_size > limits.max_element_size || h.file_size % 8 != 0) {
      return damaged("file element size", h.file_size);
    }
    if (h.accumulated_files == 0) return damaged("file array address", 0);
  }
  if (h.mpit_state == MPIDBG_MONITOR_MPIT_READ) {
    if (h.mpit_peer_count < 0 || h.mpit_peer_count > limits.max_mpit_peers) {
      return damaged("MPI_T peer count", static_cast<uint32_t>(h.mpit_peer_count));
    }
    if (h.mpit_peer_count > 0 && h.mpit_peers == 0) return damaged("MPI_T peer array address", 0);
  }
  return mqs_ok;
}

int read_header(TargetReader& reader, TargetAddr block, const MonitorLimits& limits,
                mpidbg_monitor* out) {
  uint8_t raw[sizeof(mpidbg_monitor)];
  // An older, smaller block may end at the edge of a mapping: then the size word first.
  uint32_t written = 0;
  int rc = reader.read_u32(block, &written);
  if (rc != mqs_ok) return rc;
  if (written < kMinBlock || written > limits.max_block_size) {
    return damaged("block size", written);
  }
  const size_t len = written < sizeof raw ? written : sizeof raw;
  rc = reader.read(block, len, raw);
  if (rc != mqs_ok) return rc;
  decode_header(Decoder(raw, len, reader.format().swap), out);
  return check_header(*out, limits);
}

// Peers: baseline then accumulated, chunk by chunk (baseline first, so that without a
// reset in between accumulated >= baseline).
int read_peers(TargetReader& reader, const mpidbg_monitor& h, bool with_baseline,
               MonitorSnapshot* out) {
  const uint32_t count = static_cast<uint32_t>(h.world_size);
  const bool baseline = with_baseline && h.baseline_peers != 0;
  ElementChunks acc(reader, TargetAddr(h.accumulated_peers), count, h.peer_size);
  ElementChunks base(reader, TargetAddr(h.baseline_peers), count, h.peer_size);
  for (uint32_t first = 0; first < count; first += acc.per_chunk()) {
    int rc = baseline ? base.load(first) : mqs_ok;
    if (rc != mqs_ok) return rc;
    rc = acc.load(first);
    if (rc != mqs_ok) return rc;
    for (uint32_t i = first; i < acc.loaded_end(); ++i) {
      MonitorPeer p;
      std::memset(&p, 0, sizeof p);
      decode_peer(acc.element(i), h.buckets, &p.accumulated);
      if (all_zero(p.accumulated)) continue;
      if (baseline) decode_peer(base.element(i), h.buckets, &p.baseline);
      p.world_rank = static_cast<int32_t>(i);
      if (!out->peers.push_back(p)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

int read_files(TargetReader& reader, const mpidbg_monitor& h, bool with_baseline,
               MonitorSnapshot* out) {
  const bool baseline = with_baseline && h.baseline_files != 0;
  ElementChunks acc(reader, TargetAddr(h.accumulated_files), h.file_capacity, h.file_size);
  ElementChunks base(reader, TargetAddr(h.baseline_files), h.file_capacity, h.file_size);
  for (uint32_t first = 0; first < h.file_capacity; first += acc.per_chunk()) {
    int rc = baseline ? base.load(first) : mqs_ok;
    if (rc != mqs_ok) return rc;
    rc = acc.load(first);
    if (rc != mqs_ok) return rc;
    for (uint32_t i = first; i < acc.loaded_end(); ++i) {
      MonitorFile f;
      std::memset(&f, 0, sizeof f);
      decode_file(acc.element(i), &f.accumulated);
      // EMPTY slots are unused, CLAIMED ones being filled (their name may be partial).
      if (f.accumulated.state != MPIDBG_MONITOR_FILE_READY) continue;
      if (baseline) decode_file(base.element(i), &f.baseline);
      f.baseline.name[0] = '\0';
      f.slot = i;
      if (!out->files.push_back(f)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

int read_mpit_peers(TargetReader& reader, const mpidbg_monitor& h, MonitorSnapshot* out) {
  if (h.mpit_state != MPIDBG_MONITOR_MPIT_READ || h.mpit_peer_count <= 0) return mqs_ok;
  const uint32_t count = static_cast<uint32_t>(h.mpit_peer_count);
  ElementChunks peers(reader, TargetAddr(h.mpit_peers), count, sizeof(mpidbg_monitor_mpit_peer));
  for (uint32_t first = 0; first < count; first += peers.per_chunk()) {
    const int rc = peers.load(first);
    if (rc != mqs_ok) return rc;
    for (uint32_t i = first; i < peers.loaded_end(); ++i) {
      MonitorMpitPeer p;
      std::memset(&p, 0, sizeof p);
      decode_mpit_peer(peers.element(i), &p.counters);
      if (all_zero(p.counters)) continue;
      p.world_rank = static_cast<int32_t>(i);
      if (!out->mpit_peers.push_back(p)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

void clear(MonitorSnapshot* out) {
  std::memset(&out->header, 0, sizeof out->header);
  out->current_valid = false;
  out->peers.clear();
  out->files.clear();
  out->mpit_peers.clear();
}

template <typename Entry>
const Entry* find_by_rank(const Vec<Entry>& v, int32_t world_rank) {
  const Entry* it = std::lower_bound(v.begin(), v.end(), world_rank,
                                     [](const Entry& e, int32_t r) { return e.world_rank < r; });
  return it != v.end() && it->world_rank == world_rank ? it : nullptr;
}

uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

const MonitorPeer* MonitorSnapshot::find_peer(int32_t world_rank) const {
  return find_by_rank(peers, world_rank);
}

const MonitorMpitPeer* MonitorSnapshot::find_mpit_peer(int32_t world_rank) const {
  return find_by_rank(mpit_peers, world_rank);
}

int decode_monitor(TargetReader& reader, TargetAddr block, const MonitorLimits& limits,
                   MonitorSnapshot* out) {
  clear(out);
  if (block.is_null()) return kErrNoMetadata;
  TargetAddr seq_at;
  if (!block.offset_by(offsetof(mpidbg_monitor, reset_seq), &seq_at)) return kErrReadFailed;
  const int attempts = limits.torn_retries < 0 ? 1 : limits.torn_retries + 1;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    clear(out);
    int rc = read_header(reader, block, limits, &out->header);
    if (rc != mqs_ok) return rc;
    const bool last = attempt + 1 == attempts;
    const uint32_t seq_before = out->header.reset_seq;
    if (seq_before % 2 != 0 && !last) continue;  // a reset is copying: try again
    const bool with_baseline = seq_before % 2 == 0;
    rc = read_peers(reader, out->header, with_baseline, out);
    if (rc == mqs_ok) rc = read_files(reader, out->header, with_baseline, out);
    if (rc == mqs_ok) rc = read_mpit_peers(reader, out->header, out);
    if (rc != mqs_ok) return rc;
    uint32_t seq_after = 0;
    rc = reader.read_u32(seq_at, &seq_after);
    if (rc != mqs_ok) return rc;
    if (with_baseline && seq_after == seq_before) {
      out->current_valid = true;
      return mqs_ok;
    }
  }
  // Every attempt raced a reset: the accumulated counters stand, the current ones do not.
  out->current_valid = false;
  for (MonitorPeer& p : out->peers) std::memset(&p.baseline, 0, sizeof p.baseline);
  for (MonitorFile& f : out->files) std::memset(&f.baseline, 0, sizeof f.baseline);
  std::memset(out->header.baseline_coll, 0, sizeof out->header.baseline_coll);
  return mqs_ok;
}

mpidbg_monitor_peer monitor_peer_minus(const mpidbg_monitor_peer& a, const mpidbg_monitor_peer& b) {
  mpidbg_monitor_peer r;
  std::memset(&r, 0, sizeof r);
  r.sent_messages = minus(a.sent_messages, b.sent_messages);
  r.sent_bytes = minus(a.sent_bytes, b.sent_bytes);
  r.received_messages = minus(a.received_messages, b.received_messages);
  r.received_bytes = minus(a.received_bytes, b.received_bytes);
  r.coll_messages = minus(a.coll_messages, b.coll_messages);
  r.coll_bytes = minus(a.coll_bytes, b.coll_bytes);
  r.put_messages = minus(a.put_messages, b.put_messages);
  r.put_bytes = minus(a.put_bytes, b.put_bytes);
  r.get_messages = minus(a.get_messages, b.get_messages);
  r.get_bytes = minus(a.get_bytes, b.get_bytes);
  r.acc_messages = minus(a.acc_messages, b.acc_messages);
  r.acc_bytes = minus(a.acc_bytes, b.acc_bytes);
  for (int k = 0; k < MPIDBG_MONITOR_BUCKETS; ++k) {
    r.sent_histogram[k] = minus(a.sent_histogram[k], b.sent_histogram[k]);
  }
  return r;
}

mpidbg_monitor_coll monitor_coll_minus(const mpidbg_monitor_coll& a, const mpidbg_monitor_coll& b) {
  mpidbg_monitor_coll r;
  std::memset(&r, 0, sizeof r);
  r.operations = minus(a.operations, b.operations);
  r.bytes_sent = minus(a.bytes_sent, b.bytes_sent);
  r.bytes_received = minus(a.bytes_received, b.bytes_received);
  return r;
}

mpidbg_monitor_file monitor_file_minus(const mpidbg_monitor_file& a, const mpidbg_monitor_file& b) {
  mpidbg_monitor_file r = a;  // state and name are the accumulated entry's
  r.reserved = 0;
  r.opens = minus(a.opens, b.opens);
  r.read_operations = minus(a.read_operations, b.read_operations);
  r.read_bytes = minus(a.read_bytes, b.read_bytes);
  r.write_operations = minus(a.write_operations, b.write_operations);
  r.write_bytes = minus(a.write_bytes, b.write_bytes);
  return r;
}

}  // namespace mpidbg::plugin
