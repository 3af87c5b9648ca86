#include "runtime_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "errors.h"
#include "record_decode.h"

namespace mpidbg::plugin {
namespace {

// A root must at least reach the end of the three tables to be of any use.
constexpr uint32_t kMinRootSize = offsetof(mpidbg_root, mpi_library);

// Slab addresses already visited in one table walk: open addressing over a
// power-of-two array, so a cycle is caught in constant time per slab.
class AddressSet {
 public:
  // 1 inserted, 0 already present, -1 out of memory.
  int insert(uint64_t value) {
    if ((count_ + 1) * 2 > slots_.size()) {
      if (!grow()) return -1;
    }
    return place(value) ? 1 : 0;
  }

 private:
  static size_t hash(uint64_t v) {
    v ^= v >> 33;
    v *= UINT64_C(0xff51afd7ed558ccd);
    v ^= v >> 33;
    return static_cast<size_t>(v);
  }
  // Zero marks an empty slot; a null slab address never reaches the set.
  bool place(uint64_t value) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(value) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == value) return false;
      if (slots_[i] == 0) {
        slots_[i] = value;
        ++count_;
        return true;
      }
    }
  }
  bool grow() {
    Vec<uint64_t> old;
    old.swap(slots_);
    if (!slots_.resize(old.empty() ? 64 : old.size() * 2)) return false;
    count_ = 0;
    for (uint64_t v : old) {
      if (v != 0) place(v);
    }
    return true;
  }

  Vec<uint64_t> slots_;
  size_t count_ = 0;
};

const char* kind_name(uint32_t kind) {
  switch (kind) {
    case MPIDBG_KIND_COMM:
      return "communicator";
    case MPIDBG_KIND_OP:
      return "operation";
    case MPIDBG_KIND_THREAD:
      return "thread";
    default:
      return "unknown";
  }
}

struct WalkContext {
  TargetReader& reader;
  const SnapshotLimits& limits;
  SnapshotStats& stats;
  uint64_t bytes_left;  // of limits.max_total_bytes
};

// Notes why a table walk ended early; the snapshot stays usable.
void table_damaged(WalkContext& ctx, uint32_t kind, int code, const char* why, uint64_t addr) {
  ++ctx.stats.tables_damaged;
  if (ctx.stats.first_table_error == 0) ctx.stats.first_table_error = code;
  char text[192];
  std::snprintf(text, sizeof text, "mpidbg plugin: %s table walk stopped at slab 0x%llx: %s\n",
                kind_name(kind), static_cast<unsigned long long>(addr), why);
  debug_print(text);
}

bool slab_is_sane(const mpidbg_slab& slab, uint32_t kind, const SnapshotLimits& limits) {
  return slab.magic == MPIDBG_SLAB_MAGIC && slab.kind == kind &&
         slab.record_size >= sizeof(mpidbg_record_header) &&
         slab.record_size <= limits.max_record_size && slab.record_size % 8 == 0 &&
         slab.capacity >= 1 && slab.capacity <= limits.max_capacity &&
         slab.header_size >= sizeof(mpidbg_slab) && slab.header_size <= limits.max_header_size;
}

// Reads a slot that was seen mid-update again, up to limits.torn_retries times. True
// when a consistent (even seq) copy is now in `slot`.
bool reread_torn_slot(WalkContext& ctx, TargetAddr addr, uint8_t* slot, uint32_t size) {
  for (int attempt = 0; attempt < ctx.limits.torn_retries; ++attempt) {
    if (ctx.reader.read(addr, size, slot) != mqs_ok) return false;
    mpidbg_record_header hdr;
    decode_record_header(Decoder(slot, size, ctx.reader.format().swap), &hdr);
    if (hdr.seq % 2 == 0) return true;
  }
  return false;
}

// Walks one table and calls visit(decoder, slot address) for every consistent record of
// `kind`. visit returns false when it ran out of memory.
template <typename Visit>
int walk_table(WalkContext& ctx, const mpidbg_table& table, uint32_t kind, Visit visit) {
  if (table.first_slab == 0) return mqs_ok;
  if (table.kind != kind) {
    table_damaged(ctx, kind, kErrBadMagic, "the table's kind does not match", table.first_slab);
    return mqs_ok;
  }
  AddressSet visited;
  Vec<uint8_t> slots;
  const bool swap = ctx.reader.format().swap;
  TargetAddr cur(table.first_slab);
  for (uint32_t steps = 0; !cur.is_null(); ++steps) {
    if (steps >= ctx.limits.max_slabs) {
      table_damaged(ctx, kind, kErrReadFailed, "too many slabs", cur.value());
      break;
    }
    const int fresh = visited.insert(cur.value());
    if (fresh < 0) return kErrNoMemory;
    if (fresh == 0) {
      table_damaged(ctx, kind, kErrReadFailed, "the slab chain has a cycle", cur.value());
      break;
    }
    uint8_t head[sizeof(mpidbg_slab)];
    int rc = ctx.reader.read(cur, sizeof head, head);
    if (rc != mqs_ok) {
      table_damaged(ctx, kind, rc, "the slab cannot be read", cur.value());
      break;
    }
    mpidbg_slab slab;
    decode_slab(Decoder(head, sizeof head, swap), &slab);
    if (!slab_is_sane(slab, kind, ctx.limits)) {
      table_damaged(ctx, kind, kErrBadMagic, "bad slab header", cur.value());
      break;
    }
    const uint64_t bytes = uint64_t{slab.capacity} * slab.record_size;
    TargetAddr first_slot;
    if (bytes > ctx.limits.max_slab_bytes || bytes > ctx.bytes_left ||
        !cur.offset_by(slab.header_size, &first_slot)) {
      table_damaged(ctx, kind, kErrReadFailed, "the slab exceeds the size limits", cur.value());
      break;
    }
    ctx.bytes_left -= bytes;
    if (!slots.resize(static_cast<size_t>(bytes))) return kErrNoMemory;
    // All slots of the slab in one fetch.
    rc = ctx.reader.read(first_slot, static_cast<size_t>(bytes), slots.data());
    if (rc != mqs_ok) {
      table_damaged(ctx, kind, rc, "the slab's records cannot be read", cur.value());
      break;
    }
    ++ctx.stats.slabs_read;
    for (uint32_t i = 0; i < slab.capacity; ++i) {
      uint8_t* slot = slots.data() + size_t{i} * slab.record_size;
      const TargetAddr slot_addr(first_slot.value() + uint64_t{i} * slab.record_size);
      mpidbg_record_header hdr;
      decode_record_header(Decoder(slot, slab.record_size, swap), &hdr);
      if (hdr.kind == MPIDBG_KIND_FREE) continue;
      if (hdr.kind != kind || hdr.size < sizeof(mpidbg_record_header)) {
        ++ctx.stats.records_bad;
        continue;
      }
      if (hdr.seq % 2 != 0) {
        if (!reread_torn_slot(ctx, slot_addr, slot, slab.record_size)) {
          ++ctx.stats.records_torn;
          continue;
        }
        decode_record_header(Decoder(slot, slab.record_size, swap), &hdr);
        if (hdr.kind != kind || hdr.size < sizeof(mpidbg_record_header)) continue;
      }
      // Fields beyond what the writer wrote (hdr.size) read as zero.
      const uint32_t written = hdr.size < slab.record_size ? hdr.size : slab.record_size;
      if (!visit(Decoder(slot, written, swap), slot_addr)) return kErrNoMemory;
    }
    cur = TargetAddr(slab.next);
  }
  return mqs_ok;
}

bool same_handle(uint64_t a, uint64_t b, uint32_t handle_size) {
  if (handle_size == 4) return static_cast<uint32_t>(a) == static_cast<uint32_t>(b);
  return a == b;
}

// Counts, per communicator, the operations that still refer to it and are not
// inactive persistent requests.
int count_pending_ops(RuntimeSnapshot* snap) {
  Vec<uint32_t> by_key;
  if (!by_key.resize(snap->comms.size())) return kErrNoMemory;
  for (size_t i = 0; i < by_key.size(); ++i) by_key[i] = static_cast<uint32_t>(i);
  const auto key_less = [snap](uint32_t a, uint32_t b) {
    const mpidbg_comm_record& x = snap->comms[a].rec;
    const mpidbg_comm_record& y = snap->comms[b].rec;
    return x.job_id != y.job_id ? x.job_id < y.job_id : x.handle < y.handle;
  };
  std::sort(by_key.begin(), by_key.end(), key_less);
  for (const OpEntry& op : snap->ops) {
    if ((op.rec.hdr.flags & MPIDBG_OP_INACTIVE) != 0) continue;
    const uint32_t* it = std::lower_bound(
        by_key.begin(), by_key.end(), op.rec, [snap](uint32_t i, const mpidbg_op_record& r) {
          const mpidbg_comm_record& c = snap->comms[i].rec;
          return c.job_id != r.comm_job_id ? c.job_id < r.comm_job_id
                                           : c.handle < r.comm_handle;
        });
    // Every record with the same key counts it (duplicates only in damaged targets).
    for (; it != by_key.end(); ++it) {
      CommEntry& comm = snap->comms[*it];
      if (comm.rec.job_id != op.rec.comm_job_id || comm.rec.handle != op.rec.comm_handle) break;
      ++comm.pending_ops;
    }
  }
  return mqs_ok;
}

}  // namespace

const CommEntry* RuntimeSnapshot::find_comm(uint64_t job_id, uint64_t handle) const {
  for (const CommEntry& c : comms) {
    if (c.rec.job_id == job_id && c.rec.handle == handle) return &c;
  }
  return nullptr;
}

const OpEntry* RuntimeSnapshot::find_op_at(TargetAddr addr) const {
  for (const OpEntry& op : ops) {
    if (op.addr == addr) return &op;
  }
  return nullptr;
}

const OpEntry* RuntimeSnapshot::find_op_by_request(uint64_t request) const {
  if (request == 0) return nullptr;
  for (const OpEntry& op : ops) {
    if (op.rec.request != 0 && same_handle(op.rec.request, request, root.handle_size)) return &op;
  }
  return nullptr;
}

int find_runtime_root(mqs_image* image, const mqs_image_callbacks* cb, TargetAddr* out) {
  if (cb == nullptr || cb->mqs_find_symbol_fp == nullptr) return kErrNoCallbacks;
  char name[] = MPIDBG_ROOT_SYMBOL;
  mqs_taddr_t addr = 0;
  if (cb->mqs_find_symbol_fp(image, name, &addr) != mqs_ok || addr == 0) return kErrNoRuntime;
  *out = TargetAddr(addr);
  return mqs_ok;
}

int read_runtime_root(TargetReader& reader, TargetAddr addr, const SnapshotLimits& limits,
                      mpidbg_root* out) {
  // Usually one fetch of the whole structure. An older, smaller root may end at the edge
  // of a mapping; then the fixed head first, and only as many bytes as it says.
  uint8_t body[sizeof(mpidbg_root)];
  constexpr size_t kHead = offsetof(mpidbg_root, generation);
  bool have_body = reader.read(addr, sizeof body, body) == mqs_ok;
  if (!have_body) {
    const int rc = reader.read(addr, kHead, body);
    if (rc != mqs_ok) return rc;
  }
  uint64_t raw_magic;
  std::memcpy(&raw_magic, body, sizeof raw_magic);
  bool swap;
  if (raw_magic == MPIDBG_ROOT_MAGIC) {
    swap = false;
  } else if (byte_swap64(raw_magic) == MPIDBG_ROOT_MAGIC) {
    swap = true;
  } else {
    set_error_detail(kErrBadMagic,
                     "runtime root at 0x%llx has a bad magic 0x%016llx (not an mpidbg runtime, "
                     "or memory is corrupt)",
                     static_cast<unsigned long long>(addr.value()),
                     static_cast<unsigned long long>(raw_magic));
    return kErrBadMagic;
  }
  if (swap != reader.format().swap) {
    // The magic is the runtime's own word on its byte order; it wins.
    debug_print("mpidbg plugin: the root magic contradicts the debugger's byte order; "
                "using the magic's\n");
    reader.set_swap(swap);
  }
  const Decoder head(body, kHead, swap);
  const uint32_t size = head.u32(offsetof(mpidbg_root, size));
  const uint32_t version = head.u32(offsetof(mpidbg_root, layout_version));
  if (size < kMinRootSize || size > limits.max_root_size) {
    set_error_detail(kErrBadRootSize, "runtime root has an implausible size of %u bytes", size);
    return kErrBadRootSize;
  }
  // Layouts only grow by appending fields, so every version from 1 on is readable.
  if (version < 1) {
    set_error_detail(kErrLayoutVersion,
                     "runtime layout version %u is not understood by this plugin (it reads "
                     "version %d and later)",
                     version, MPIDBG_LAYOUT_VERSION);
    return kErrLayoutVersion;
  }
  const size_t written = size < sizeof body ? size : sizeof body;
  if (!have_body) {
    const int rc = reader.read(addr, written, body);
    if (rc != mqs_ok) return rc;
  }
  // What an older runtime did not write reads as zero.
  decode_root(Decoder(body, written, swap), out);
  return mqs_ok;
}

int read_root_generation(TargetReader& reader, TargetAddr root, uint64_t* out) {
  TargetAddr at;
  if (!root.offset_by(offsetof(mpidbg_root, generation), &at)) return kErrReadFailed;
  return reader.read_u64(at, out);
}

int decode_snapshot(TargetReader& reader, TargetAddr root_addr, const SnapshotLimits& limits,
                    RuntimeSnapshot* out) {
  out->comms.clear();
  out->ops.clear();
  out->threads.clear();
  out->stats = SnapshotStats();
  out->root_addr = root_addr;
  int rc = read_runtime_root(reader, root_addr, limits, &out->root);
  if (rc != mqs_ok) return rc;

  WalkContext ctx{reader, limits, out->stats, limits.max_total_bytes};
  rc = walk_table(ctx, out->root.comms, MPIDBG_KIND_COMM, [out](const Decoder& d, TargetAddr a) {
    CommEntry e{};
    decode_comm(d, &e.rec);
    e.addr = a;
    return out->comms.push_back(e);
  });
  if (rc != mqs_ok) return rc;
  rc = walk_table(ctx, out->root.ops, MPIDBG_KIND_OP, [out](const Decoder& d, TargetAddr a) {
    OpEntry e{};
    decode_op(d, &e.rec);
    e.addr = a;
    return out->ops.push_back(e);
  });
  if (rc != mqs_ok) return rc;
  rc = walk_table(ctx, out->root.threads, MPIDBG_KIND_THREAD,
                  [out](const Decoder& d, TargetAddr a) {
                    ThreadEntry e{};
                    decode_thread(d, &e.rec);
                    e.addr = a;
                    return out->threads.push_back(e);
                  });
  if (rc != mqs_ok) return rc;

  // Ties (only in damaged targets) fall back to the slot address, so the order is stable
  // without std::stable_sort's heap buffer.
  std::sort(out->comms.begin(), out->comms.end(), [](const CommEntry& a, const CommEntry& b) {
    if (a.rec.create_serial != b.rec.create_serial) return a.rec.create_serial < b.rec.create_serial;
    return a.addr < b.addr;
  });
  std::sort(out->ops.begin(), out->ops.end(), [](const OpEntry& a, const OpEntry& b) {
    if (a.rec.post_serial != b.rec.post_serial) return a.rec.post_serial < b.rec.post_serial;
    return a.addr < b.addr;
  });
  std::sort(out->threads.begin(), out->threads.end(),
            [](const ThreadEntry& a, const ThreadEntry& b) {
              if (a.rec.tid != b.rec.tid) return a.rec.tid < b.rec.tid;
              return a.addr < b.addr;
            });
  return count_pending_ops(out);
}

int read_rank_array(TargetReader& reader, TargetAddr array, int32_t count,
                    const SnapshotLimits& limits, int* out) {
  static_assert(sizeof(int) == sizeof(int32_t), "world ranks are int32 on both sides");
  if (count < 0 || count > limits.max_group_size || (count > 0 && array.is_null())) {
    set_error_detail(kErrGroupUnavailable,
                     "the communicator's group cannot be read (size %d, rank array at 0x%llx)",
                     count, static_cast<unsigned long long>(array.value()));
    return kErrGroupUnavailable;
  }
  if (count == 0) return mqs_ok;
  const int rc = reader.read(array, size_t(count) * sizeof(int32_t), out);
  if (rc != mqs_ok) return rc;
  if (reader.format().swap) {
    for (int32_t i = 0; i < count; ++i) {
      out[i] = static_cast<int>(byte_swap32(static_cast<uint32_t>(out[i])));
    }
  }
  return mqs_ok;
}

int read_rank_at(TargetReader& reader, TargetAddr array, int32_t count, int32_t index,
                 int32_t* out) {
  TargetAddr at;
  if (array.is_null() || index < 0 || index >= count ||
      !array.offset_by(uint64_t(index) * sizeof(int32_t), &at)) {
    return kErrGroupUnavailable;
  }
  uint32_t v;
  const int rc = reader.read_u32(at, &v);
  if (rc != mqs_ok) return rc;
  *out = static_cast<int32_t>(v);
  return mqs_ok;
}

int read_handle_at(TargetReader& reader, TargetAddr array, int32_t count, int32_t index,
                   uint32_t handle_size, uint64_t* out) {
  TargetAddr at;
  if (handle_size != 4 && handle_size != 8) return kErrBadArgument;
  if (array.is_null() || index < 0 || index >= count ||
      !array.offset_by(uint64_t(index) * handle_size, &at)) {
    return kErrNoSuchRequest;
  }
  if (handle_size == 8) return reader.read_u64(at, out);
  uint32_t v;
  const int rc = reader.read_u32(at, &v);
  if (rc != mqs_ok) return rc;
  *out = v;
  return mqs_ok;
}

}  // namespace mpidbg::plugin
