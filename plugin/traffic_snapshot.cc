// traffic_snapshot.cc — see traffic_snapshot.h.
#include "plugin/traffic_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <tuple>

#include "plugin/errors.h"
#include "plugin/record_decode.h"
#include "plugin/ring_sends.h"

namespace mpidbg::plugin {
namespace {

// Reads `count` slots of `slot_size` bytes from `base` in reads no larger than the
// reader's cap, calling visit(decoder, index) for each.
template <typename Visit>
int read_slots(TargetReader& reader, TargetAddr base, uint32_t count, uint32_t slot_size,
               Visit visit) {
  if (count == 0) return mqs_ok;
  if (slot_size == 0) return kErrNoTraffic;  // damaged: nothing can be read as slots
  Vec<uint8_t> buf;
  const uint32_t per_read =
      static_cast<uint32_t>(TargetReader::kMaxReadBytes / slot_size) == 0
          ? 1
          : static_cast<uint32_t>(TargetReader::kMaxReadBytes / slot_size);
  for (uint32_t first = 0; first < count; first += per_read) {
    const uint32_t n = count - first < per_read ? count - first : per_read;
    TargetAddr at;
    if (!base.offset_by(uint64_t{first} * slot_size, &at)) return kErrReadFailed;
    if (!buf.resize(size_t{n} * slot_size)) return kErrNoMemory;
    const int rc = reader.read(at, size_t{n} * slot_size, buf.data());
    if (rc != mqs_ok) return rc;
    for (uint32_t i = 0; i < n; ++i) {
      const Decoder d(buf.data() + size_t{i} * slot_size, slot_size, reader.format().swap);
      if (!visit(d, first + i)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

bool sane_slots(uint64_t address, uint32_t count, uint32_t slot_size, uint32_t min_size,
                uint32_t max_count, const TrafficLimits& limits) {
  if (count == 0) return true;
  return address != 0 && count <= max_count && slot_size >= min_size &&
         slot_size <= limits.max_entry_size && slot_size % 8 == 0;
}

// The send log's sends still in its ring, oldest first, into out->sends (torn slots
// counted in out->torn). kErrNoTraffic when its geometry is damaged.
int read_send_log(TargetReader& reader, const mpidbg_traffic& h, const TrafficLimits& limits,
                  TrafficSnapshot* out) {
  // Slot i % capacity holds send i; the ring holds the last `capacity` sends.
  const uint32_t min_log = offsetof(mpidbg_send_log_entry, mode) + sizeof(int32_t);
  if (!sane_slots(h.log, h.log_capacity, h.log_entry_size, min_log, limits.max_log, limits)) {
    set_error_detail(kErrNoTraffic, "the runtime's send log is damaged (%u slots of %u bytes)",
                     h.log_capacity, h.log_entry_size);
    return kErrNoTraffic;
  }
  if (h.log_capacity == 0 || h.log_head == 0) return mqs_ok;
  const uint64_t kept = h.log_head < h.log_capacity ? h.log_head : h.log_capacity;
  const uint64_t oldest = h.log_head - kept;
  Vec<mpidbg_send_log_entry> ring;
  if (!ring.resize(h.log_capacity)) return kErrNoMemory;
  const int rc = read_slots(reader, TargetAddr(h.log), h.log_capacity, h.log_entry_size,
                            [&](const Decoder& d, uint32_t i) {
                              decode_send_log_entry(d, &ring[i]);
                              return true;
                            });
  if (rc != mqs_ok) return rc;
  for (uint64_t n = oldest; n < h.log_head; ++n) {
    const mpidbg_send_log_entry& e = ring[static_cast<uint32_t>(n % h.log_capacity)];
    // A slot holding send n has seq 2n+2; odd is mid-write, anything else an older send
    // still in the slot (the newer write has not begun).
    if (e.seq % 2 != 0) {
      ++out->torn;
      continue;
    }
    if (e.seq != static_cast<uint32_t>(2 * n + 2) || e.ordinal == 0) continue;  // seq wraps with n
    if (!out->sends.push_back(e)) return kErrNoMemory;
  }
  return mqs_ok;
}

// Sends by posting time; sends posted in the same nanosecond by flow and ordinal, so
// that any two distinct sends have an order.
bool posted_before(const mpidbg_send_log_entry& a, const mpidbg_send_log_entry& b) {
  return std::make_tuple(a.time_ns, a.comm_job_id, a.peer_world, a.tag, a.ordinal) <
         std::make_tuple(b.time_ns, b.comm_job_id, b.peer_world, b.tag, b.ordinal);
}

// Puts the ring's sends among the log's (`sends`, oldest first) by posting time: each
// goes before the first log send posted after it. The log's own order stays as it is,
// since it is the order of posting even where the clock stepped back.
int merge_by_time(Vec<mpidbg_send_log_entry>* ring, Vec<mpidbg_send_log_entry>* sends) {
  if (ring->empty()) return mqs_ok;
  std::sort(ring->begin(), ring->end(), posted_before);
  Vec<mpidbg_send_log_entry> merged;
  if (!merged.reserve(sends->size() + ring->size())) return kErrNoMemory;
  size_t r = 0;
  for (const mpidbg_send_log_entry& logged : *sends) {
    while (r < ring->size() && (*ring)[r].time_ns < logged.time_ns) {
      merged.push_back((*ring)[r++]);
    }
    merged.push_back(logged);
  }
  while (r < ring->size()) merged.push_back((*ring)[r++]);
  sends->swap(merged);
  return mqs_ok;
}

}  // namespace

int decode_traffic(TargetReader& reader, const mpidbg_root& root, const TrafficLimits& limits,
                   const SnapshotLimits& ring_limits, TrafficSnapshot* out) {
  out->entries.clear();
  out->sends.clear();
  out->torn = 0;
  out->rings = SnapshotStats();
  std::memset(&out->header, 0, sizeof out->header);
  if (root.traffic == 0) return kErrNoTraffic;

  uint8_t raw[sizeof(mpidbg_traffic)];
  int rc = reader.read(TargetAddr(root.traffic), sizeof raw, raw);
  if (rc != mqs_ok) return rc;
  const bool swap = reader.format().swap;
  const uint32_t written = Decoder(raw, sizeof raw, swap).u32(offsetof(mpidbg_traffic, size));
  if (written < offsetof(mpidbg_traffic, log_head) + sizeof(uint64_t) || written > (1u << 16)) {
    set_error_detail(kErrNoTraffic, "the runtime's traffic block has an implausible size (%u)",
                     written);
    return kErrNoTraffic;
  }
  mpidbg_traffic& h = out->header;
  decode_traffic_header(Decoder(raw, written < sizeof raw ? written : sizeof raw, swap), &h);

  // Counters: READY slots only (EMPTY are unused, CLAIMED are being filled).
  const uint32_t min_entry = offsetof(mpidbg_traffic_entry, receive_bytes) + sizeof(uint64_t);
  if (!sane_slots(h.entries, h.capacity, h.entry_size, min_entry, limits.max_entries, limits)) {
    set_error_detail(kErrNoTraffic, "the runtime's traffic counters are damaged (%u slots of %u "
                     "bytes at 0x%llx)", h.capacity, h.entry_size,
                     static_cast<unsigned long long>(h.entries));
    return kErrNoTraffic;
  }
  rc = read_slots(reader, TargetAddr(h.entries), h.capacity, h.entry_size,
                  [out](const Decoder& d, uint32_t) {
                    mpidbg_traffic_entry e;
                    decode_traffic_entry(d, &e);
                    if (e.state != MPIDBG_TRAFFIC_READY) return true;
                    return out->entries.push_back(e);
                  });
  if (rc != mqs_ok) return rc;

  rc = read_send_log(reader, h, limits, out);
  if (rc != mqs_ok) return rc;

  // Layout 2: the sends of requests posted into flight rings are logged there instead.
  Vec<mpidbg_send_log_entry> ring;
  rc = read_ring_sends(reader, root, ring_limits, &out->rings, &ring);
  if (rc != mqs_ok) return rc;
  return merge_by_time(&ring, &out->sends);
}

}  // namespace mpidbg::plugin
