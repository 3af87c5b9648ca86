#include "plugin/flight_rings.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

#include "plugin/errors.h"
#include "plugin/record_decode.h"

namespace mpidbg::plugin {
namespace {

// An entry must reach the end of the last field a pending operation needs; a longer one
// comes from a newer runtime that appended fields. `ordinal` came later: an entry that
// ends before it reads ordinal 0, a send not counted.
constexpr uint32_t kMinEntrySize = offsetof(mpidbg_flight_entry, create_pc) + sizeof(uint64_t);

bool is_power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

void ring_damaged(TableWalker& walker, const mpidbg_thread_record& thread, const char* why) {
  ++walker.stats().rings_damaged;
  char text[192];
  std::snprintf(text, sizeof text,
                "mpidbg plugin: flight ring of thread %llu at 0x%llx skipped: %s\n",
                static_cast<unsigned long long>(thread.tid),
                static_cast<unsigned long long>(thread.flight_entries), why);
  debug_print(text);
}

// The operation record the runtime would have written for a pending post: the entry's
// fields, tid from the thread, and the values records.h gives the rest (datatype_name
// is filled later, from the datatype table).
OperationEntry operation_of(const FlightEntry& f) {
  OperationEntry op{};
  mpidbg_operation_from_flight(&f.entry, f.tid, &op.rec);
  op.addr = f.addr;
  return op;
}

bool is_posted(const mpidbg_flight_entry& e) { return e.state == MPIDBG_FLIGHT_POSTED; }

// One thread's ring into `out`. A damaged ring adds nothing and sets *damage to why;
// the return value is mqs_ok or kErrNoMemory.
int read_ring(TargetReader& reader, const SnapshotLimits& limits, TableWalker& walker,
              const mpidbg_thread_record& thread, FlightFilter keep, Vec<uint8_t>* buffer,
              Vec<FlightEntry>* out, const char** damage) {
  *damage = nullptr;
  // No ring yet (the thread never posted), or a layout-1 thread record.
  if (thread.flight_entries == 0) return mqs_ok;
  if (!is_power_of_two(thread.flight_capacity) ||
      thread.flight_capacity > limits.max_flight_capacity) {
    *damage = "its capacity is not a power of two within the limit";
    return mqs_ok;
  }
  if (thread.flight_entry_size < kMinEntrySize ||
      thread.flight_entry_size > limits.max_flight_entry_size) {
    *damage = "its entry size is implausible";
    return mqs_ok;
  }
  const uint64_t capacity = thread.flight_capacity;
  const uint64_t entry_size = thread.flight_entry_size;
  const uint64_t head = thread.flight_head;
  // Posts [first, head) may still be in the ring. While head < capacity only entries
  // 0 .. head-1 were ever written, so only those are read.
  const uint64_t first = head > capacity ? head - capacity : 0;
  const uint64_t slots = head - first;
  if (slots == 0) return mqs_ok;
  const uint64_t bytes = slots * entry_size;  // at most 2^20 * 4096: no overflow
  const TargetAddr ring(thread.flight_entries);
  TargetAddr end;
  if (!ring.offset_by(bytes, &end)) {
    *damage = "its address range wraps around";
    return mqs_ok;
  }
  if (!walker.spend(bytes)) {
    *damage = "it exceeds the snapshot's byte budget";
    return mqs_ok;
  }
  // Whole entries per fetch, as many as one read may carry: usually the ring in one read.
  const uint64_t per_read = std::max<uint64_t>(1, TargetReader::kMaxReadBytes / entry_size);
  const uint64_t chunk = std::min(slots, per_read);
  if (!buffer->resize(static_cast<size_t>(chunk * entry_size))) return kErrNoMemory;
  const size_t kept_before = out->size();
  const bool swap = reader.format().swap;
  for (uint64_t slot = 0; slot < slots; slot += chunk) {
    const uint64_t n = std::min(chunk, slots - slot);
    const TargetAddr at(ring.value() + slot * entry_size);
    if (reader.read(at, static_cast<size_t>(n * entry_size), buffer->data()) != mqs_ok) {
      out->resize(kept_before);
      *damage = "it cannot be read";
      return mqs_ok;
    }
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t s = slot + i;
      const uint64_t post = first + ((s - first) & (capacity - 1));  // the post s holds
      FlightEntry f;
      decode_flight_entry(Decoder(buffer->data() + i * entry_size, entry_size, swap), &f.entry);
      // Only a whole entry of this very post counts: odd is mid-write, any other even
      // value an older post not yet overwritten or a newer one past our head.
      if (f.entry.seq != static_cast<uint32_t>(2 * (post + 1))) continue;
      if (!keep(f.entry)) continue;
      f.tid = thread.tid;
      f.addr = TargetAddr(at.value() + i * entry_size);
      if (!out->push_back(f)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

}  // namespace

int read_flight_entries(TargetReader& reader, const SnapshotLimits& limits, TableWalker& walker,
                        const Vec<ThreadEntry>& threads, FlightFilter keep,
                        Vec<FlightEntry>* out) {
  Vec<uint8_t> buffer;  // reused across rings
  for (const ThreadEntry& thread : threads) {
    const char* damage = nullptr;
    const int rc = read_ring(reader, limits, walker, thread.rec, keep, &buffer, out, &damage);
    if (rc != mqs_ok) return rc;
    if (damage != nullptr) ring_damaged(walker, thread.rec, damage);
  }
  return mqs_ok;
}

int read_flight_rings(TargetReader& reader, const SnapshotLimits& limits, TableWalker& walker,
                      const Vec<ThreadEntry>& threads, Vec<OperationEntry>* out) {
  Vec<FlightEntry> posted;
  const int rc = read_flight_entries(reader, limits, walker, threads, is_posted, &posted);
  if (rc != mqs_ok) return rc;
  if (!out->reserve(out->size() + posted.size())) return kErrNoMemory;
  for (const FlightEntry& f : posted) out->push_back(operation_of(f));
  return mqs_ok;
}

int merge_flight_ops(const Vec<OperationEntry>& flight, Vec<OperationEntry>* operations) {
  if (flight.empty()) return mqs_ok;
  Vec<uint64_t> recorded;
  if (!recorded.reserve(operations->size())) return kErrNoMemory;
  for (const OperationEntry& op : *operations) recorded.push_back(op.rec.post_serial);
  std::sort(recorded.begin(), recorded.end());
  // The records a persistent request's start applies to (records.h, MPIDBG_FLIGHT_START),
  // by request handle.
  Vec<uint32_t> inactive;
  for (size_t i = 0; i < operations->size(); ++i) {
    const mpidbg_operation_record& rec = (*operations)[i].rec;
    if (mpidbg_operation_takes_start(&rec, rec.request) &&
        !inactive.push_back(static_cast<uint32_t>(i))) {
      return kErrNoMemory;
    }
  }
  auto by_request = [operations](uint32_t a, uint32_t b) {
    return (*operations)[a].rec.request < (*operations)[b].rec.request;
  };
  std::sort(inactive.begin(), inactive.end(), by_request);
  for (const OperationEntry& op : flight) {
    if (std::binary_search(recorded.begin(), recorded.end(), op.rec.post_serial)) continue;
    if ((op.rec.hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0) {
      const uint32_t* it = std::lower_bound(
          inactive.begin(), inactive.end(), op.rec.request,
          [operations](uint32_t i, uint64_t request) { return (*operations)[i].rec.request < request; });
      if (it != inactive.end() && (*operations)[*it].rec.request == op.rec.request) {
        // The start, as the runtime applies it when it carries one: the entry's serial
        // and time, its thread (what the derived record holds of the entry).
        mpidbg_flight_entry start{};
        start.post_serial = op.rec.post_serial;
        start.post_time_ns = op.rec.post_time_ns;
        mpidbg_operation_apply_start(&start, op.rec.tid, &(*operations)[*it].rec);
        continue;
      }
    }
    if (!operations->push_back(op)) return kErrNoMemory;
  }
  return mqs_ok;
}

}  // namespace mpidbg::plugin
