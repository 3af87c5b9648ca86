#include "plugin/runtime_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "plugin/datatype_names.h"
#include "plugin/errors.h"
#include "plugin/flight_rings.h"
#include "plugin/object_snapshot.h"
#include "plugin/record_decode.h"
#include "plugin/thread_live.h"

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
    case MPIDBG_KIND_OPERATION:
      return "operation";
    case MPIDBG_KIND_THREAD:
      return "thread";
    case MPIDBG_KIND_GROUP:
      return "group";
    case MPIDBG_KIND_DATATYPE:
      return "datatype";
    case MPIDBG_KIND_REDUCE_OP:
      return "reduction op";
    case MPIDBG_KIND_ERRHANDLER:
      return "errhandler";
    case MPIDBG_KIND_INFO:
      return "info";
    case MPIDBG_KIND_WINDOW:
      return "window";
    case MPIDBG_KIND_FILE:
      return "file";
    case MPIDBG_KIND_MESSAGE:
      return "message";
    case MPIDBG_KIND_SESSION:
      return "session";
    case MPIDBG_KIND_PARTITIONS:
      return "partition";
    default:
      return "unknown";
  }
}

bool slab_is_sane(const mpidbg_slab& slab, uint32_t kind, const SnapshotLimits& limits) {
  return slab.magic == MPIDBG_SLAB_MAGIC && slab.kind == kind &&
         slab.record_size >= sizeof(mpidbg_record_header) &&
         slab.record_size <= limits.max_record_size && slab.record_size % 8 == 0 &&
         slab.capacity >= 1 && slab.capacity <= limits.max_capacity &&
         slab.header_size >= sizeof(mpidbg_slab) && slab.header_size <= limits.max_header_size;
}

}  // namespace

// Notes why a table walk ended early; the snapshot stays usable.
void TableWalker::damaged(uint32_t kind, int code, const char* why, uint64_t addr) {
  ++stats_.tables_damaged;
  if (stats_.first_table_error == 0) stats_.first_table_error = code;
  char text[192];
  std::snprintf(text, sizeof text, "mpidbg plugin: %s table walk stopped at slab 0x%llx: %s\n",
                kind_name(kind), static_cast<unsigned long long>(addr), why);
  debug_print(text);
}

// Reads a slot that was seen mid-update again, up to limits.torn_retries times. True
// when a consistent (even seq) copy is now in `slot`.
bool TableWalker::reread_torn_slot(TargetAddr addr, uint8_t* slot, uint32_t size) {
  for (int attempt = 0; attempt < limits_.torn_retries; ++attempt) {
    if (reader_.read(addr, size, slot) != mqs_ok) return false;
    mpidbg_record_header hdr;
    decode_record_header(Decoder(slot, size, reader_.format().swap), &hdr);
    if (hdr.seq % 2 == 0) return true;
  }
  return false;
}

int TableWalker::walk(const mpidbg_table& table, uint32_t kind, Visit visit, void* ctx) {
  if (table.first_slab == 0) return mqs_ok;
  if (table.kind != kind) {
    damaged(kind, kErrBadMagic, "the table's kind does not match", table.first_slab);
    return mqs_ok;
  }
  AddressSet visited;
  Vec<uint8_t> slots;
  const bool swap = reader_.format().swap;
  TargetAddr cur(table.first_slab);
  for (uint32_t steps = 0; !cur.is_null(); ++steps) {
    if (steps >= limits_.max_slabs) {
      damaged(kind, kErrReadFailed, "too many slabs", cur.value());
      break;
    }
    const int fresh = visited.insert(cur.value());
    if (fresh < 0) return kErrNoMemory;
    if (fresh == 0) {
      damaged(kind, kErrReadFailed, "the slab chain has a cycle", cur.value());
      break;
    }
    uint8_t head[sizeof(mpidbg_slab)];
    int rc = reader_.read(cur, sizeof head, head);
    if (rc != mqs_ok) {
      damaged(kind, rc, "the slab cannot be read", cur.value());
      break;
    }
    mpidbg_slab slab;
    decode_slab(Decoder(head, sizeof head, swap), &slab);
    if (!slab_is_sane(slab, kind, limits_)) {
      damaged(kind, kErrBadMagic, "bad slab header", cur.value());
      break;
    }
    const uint64_t bytes = uint64_t{slab.capacity} * slab.record_size;
    TargetAddr first_slot;
    if (bytes > limits_.max_slab_bytes || !cur.offset_by(slab.header_size, &first_slot) ||
        !spend(bytes)) {
      damaged(kind, kErrReadFailed, "the slab exceeds the size limits", cur.value());
      break;
    }
    if (!slots.resize(static_cast<size_t>(bytes))) return kErrNoMemory;
    // All slots of the slab in one fetch.
    rc = reader_.read(first_slot, static_cast<size_t>(bytes), slots.data());
    if (rc != mqs_ok) {
      damaged(kind, rc, "the slab's records cannot be read", cur.value());
      break;
    }
    ++stats_.slabs_read;
    for (uint32_t i = 0; i < slab.capacity; ++i) {
      uint8_t* slot = slots.data() + size_t{i} * slab.record_size;
      const TargetAddr slot_addr(first_slot.value() + uint64_t{i} * slab.record_size);
      mpidbg_record_header hdr;
      decode_record_header(Decoder(slot, slab.record_size, swap), &hdr);
      if (hdr.kind == MPIDBG_KIND_FREE) continue;
      if (hdr.kind != kind || hdr.size < sizeof(mpidbg_record_header)) {
        ++stats_.records_bad;
        continue;
      }
      if (hdr.seq % 2 != 0) {
        if (!reread_torn_slot(slot_addr, slot, slab.record_size)) {
          ++stats_.records_torn;
          continue;
        }
        decode_record_header(Decoder(slot, slab.record_size, swap), &hdr);
        if (hdr.kind != kind || hdr.size < sizeof(mpidbg_record_header)) continue;
      }
      // Fields beyond what the writer wrote (hdr.size) read as zero.
      const uint32_t written = hdr.size < slab.record_size ? hdr.size : slab.record_size;
      if (!visit(ctx, Decoder(slot, written, swap), slot_addr)) return kErrNoMemory;
    }
    cur = TargetAddr(slab.next);
  }
  return mqs_ok;
}

namespace {

// Counts, per communicator, the operations that still refer to it and are not
// inactive persistent requests.
// Counts, per communicator, the operations referring to it that are not inactive and
// groups them: comm_ops holds, for each communicator in turn, the indices of its
// operations in posting order (CommEntry::first_op, pending_ops).
int index_ops_by_comm(RuntimeSnapshot* snap) {
  Vec<uint32_t> by_key;
  if (!by_key.resize(snap->comms.size())) return kErrNoMemory;
  for (size_t i = 0; i < by_key.size(); ++i) by_key[i] = static_cast<uint32_t>(i);
  std::sort(by_key.begin(), by_key.end(), [snap](uint32_t a, uint32_t b) {
    const mpidbg_comm_record& x = snap->comms[a].rec;
    const mpidbg_comm_record& y = snap->comms[b].rec;
    return x.job_id != y.job_id ? x.job_id < y.job_id : x.handle < y.handle;
  });
  // Calls visit(comm index) for every communicator record the operation refers to
  // (several only in damaged targets).
  auto for_each_comm_of = [snap, &by_key](const mpidbg_operation_record& r, auto visit) {
    if ((r.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) return;
    const uint32_t* it = std::lower_bound(
        by_key.begin(), by_key.end(), r, [snap](uint32_t i, const mpidbg_operation_record& op) {
          const mpidbg_comm_record& c = snap->comms[i].rec;
          return c.job_id != op.comm_job_id ? c.job_id < op.comm_job_id
                                            : c.handle < op.comm_handle;
        });
    for (; it != by_key.end(); ++it) {
      const mpidbg_comm_record& c = snap->comms[*it].rec;
      if (c.job_id != r.comm_job_id || c.handle != r.comm_handle) break;
      visit(*it);
    }
  };
  for (const OperationEntry& op : snap->operations) {
    for_each_comm_of(op.rec, [snap](uint32_t c) { ++snap->comms[c].pending_ops; });
  }
  uint64_t total = 0;
  for (CommEntry& comm : snap->comms) {
    comm.first_op = static_cast<uint32_t>(total);
    total += comm.pending_ops;
  }
  Vec<uint32_t> filled;  // per communicator, operations placed so far
  if (total > UINT32_MAX || !snap->comm_ops.resize(static_cast<size_t>(total)) ||
      !filled.resize(snap->comms.size())) {
    return kErrNoMemory;
  }
  for (size_t o = 0; o < snap->operations.size(); ++o) {
    for_each_comm_of(snap->operations[o].rec, [snap, &filled, o](uint32_t c) {
      snap->comm_ops[snap->comms[c].first_op + filled[c]++] = static_cast<uint32_t>(o);
    });
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

const OperationEntry* RuntimeSnapshot::find_operation_at(TargetAddr addr) const {
  for (const OperationEntry& op : operations) {
    if (op.addr == addr) return &op;
  }
  return nullptr;
}

const OperationEntry* RuntimeSnapshot::find_operation_by_request(uint64_t request) const {
  if (request == 0) return nullptr;
  for (const OperationEntry& op : operations) {
    if (op.rec.request != 0 && same_handle(op.rec.request, request, root.handle_size)) return &op;
  }
  return nullptr;
}

const PartitionEntry* RuntimeSnapshot::find_partition(uint64_t request) const {
  if (request == 0) return nullptr;
  for (const PartitionEntry& p : partitions) {
    if (same_handle(p.rec.request, request, root.handle_size)) return &p;
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
  // The head up to the generation in one read: the magic comes along for free and
  // tells a root overwritten since it was found.
  constexpr size_t kHead = offsetof(mpidbg_root, generation) + sizeof(uint64_t);
  uint8_t head[kHead];
  const int rc = reader.read(root, sizeof head, head);
  if (rc != mqs_ok) return rc;
  const Decoder d(head, sizeof head, reader.format().swap);
  if (d.u64(offsetof(mpidbg_root, magic)) != MPIDBG_ROOT_MAGIC) return kErrBadMagic;
  *out = d.u64(offsetof(mpidbg_root, generation));
  return mqs_ok;
}

int walk_threads(TableWalker& walker, const mpidbg_table& table, Vec<ThreadEntry>* out) {
  auto add_thread = [out](const Decoder& d, TargetAddr a) {
    ThreadEntry e{};
    decode_thread(d, &e.published);
    e.rec = e.published;
    e.addr = a;
    return out->push_back(e);
  };
  return walker.walk(table, MPIDBG_KIND_THREAD, add_thread);
}

int decode_snapshot(TargetReader& reader, TargetAddr root_addr, const SnapshotLimits& limits,
                    RuntimeSnapshot* out) {
  out->comms.clear();
  out->operations.clear();
  out->threads.clear();
  out->partitions.clear();
  out->comm_ops.clear();
  out->stats = SnapshotStats();
  out->root_addr = root_addr;
  int rc = read_runtime_root(reader, root_addr, limits, &out->root);
  if (rc != mqs_ok) return rc;

  TableWalker walker(reader, limits, out->stats);
  auto add_comm = [out](const Decoder& d, TargetAddr a) {
    CommEntry e{};
    decode_comm(d, &e.rec);
    e.addr = a;
    return out->comms.push_back(e);
  };
  rc = walker.walk(out->root.comms, MPIDBG_KIND_COMM, add_comm);
  if (rc != mqs_ok) return rc;
  auto add_op = [out](const Decoder& d, TargetAddr a) {
    OperationEntry e{};
    decode_op(d, &e.rec);
    e.addr = a;
    return out->operations.push_back(e);
  };
  rc = walker.walk(out->root.operations, MPIDBG_KIND_OPERATION, add_op);
  if (rc != mqs_ok) return rc;
  rc = walk_threads(walker, out->root.threads, &out->threads);
  if (rc != mqs_ok) return rc;
  // A call that returns by itself shows only in the thread's live words (layout 2).
  merge_thread_live(reader, out);
  // Layout 2: below MPI_THREAD_MULTIPLE a nonblocking point-to-point request has no
  // operation record; it is pending in its thread's flight ring (none in layout 1).
  Vec<OperationEntry> flight;
  rc = read_flight_rings(reader, limits, walker, out->threads, &flight);
  if (rc != mqs_ok) return rc;
  const size_t recorded = out->operations.size();
  rc = merge_flight_ops(flight, &out->operations);
  if (rc != mqs_ok) return rc;
  rc = name_datatypes(walker, out->root, out->operations.data() + recorded,
                      out->operations.size() - recorded);
  if (rc != mqs_ok) return rc;
  auto add_partition = [out](const Decoder& d, TargetAddr a) {
    PartitionEntry e{};
    decode_partition(d, &e.rec);
    // Counts that contradict themselves describe nothing: left out.
    if (e.rec.partitions < 0 || e.rec.done < 0 || e.rec.done > e.rec.partitions) return true;
    e.addr = a;
    return out->partitions.push_back(e);
  };
  rc = walker.walk(out->root.partitions, MPIDBG_KIND_PARTITIONS, add_partition);
  if (rc != mqs_ok) return rc;

  // Ties (only in damaged targets) fall back to the slot address, so the order is stable
  // without std::stable_sort's heap buffer.
  std::sort(out->comms.begin(), out->comms.end(), [](const CommEntry& a, const CommEntry& b) {
    if (a.rec.create_serial != b.rec.create_serial) return a.rec.create_serial < b.rec.create_serial;
    return a.addr < b.addr;
  });
  std::sort(out->operations.begin(), out->operations.end(), [](const OperationEntry& a, const OperationEntry& b) {
    if (a.rec.post_serial != b.rec.post_serial) return a.rec.post_serial < b.rec.post_serial;
    return a.addr < b.addr;
  });
  std::sort(out->threads.begin(), out->threads.end(),
            [](const ThreadEntry& a, const ThreadEntry& b) {
              if (a.rec.tid != b.rec.tid) return a.rec.tid < b.rec.tid;
              return a.addr < b.addr;
            });
  return index_ops_by_comm(out);
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
