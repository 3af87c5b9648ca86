#include "plugin/object_snapshot.h"

#include <algorithm>
#include <type_traits>

#include "plugin/errors.h"
#include "plugin/record_decode.h"

namespace mpidbg::plugin {
namespace {

// Walks one table into `out`, decoding each record with `decode`.
template <typename Entry, typename Record>
int collect(TableWalker& walker, const mpidbg_table& table, uint32_t kind,
            void (*decode)(const Decoder&, Record*), Vec<Entry>* out) {
  auto add = [out, decode](const Decoder& d, TargetAddr a) {
    Entry e{};
    decode(d, &e.rec);
    e.addr = a;
    return out->push_back(e);
  };
  return walker.walk(table, kind, add);
}

// Creation order; ties (only in damaged targets) by slot address so the order is stable.
template <typename Entry>
void sort_by_creation(Vec<Entry>* entries) {
  std::sort(entries->begin(), entries->end(), [](const Entry& a, const Entry& b) {
    if (a.rec.obj.create_serial != b.rec.obj.create_serial) {
      return a.rec.obj.create_serial < b.rec.obj.create_serial;
    }
    return a.addr < b.addr;
  });
}

// The preference every lookup shares: a live record (the application has not freed it)
// over an orphan; among live records the one created last (a reused handle value);
// among orphans the one freed last.
template <typename Entry>
bool better_match(const Entry& candidate, const Entry* best) {
  if (best == nullptr) return true;
  const mpidbg_object_head& c = candidate.rec.obj;
  const mpidbg_object_head& b = best->rec.obj;
  const bool c_live = (c.hdr.flags & MPIDBG_REC_FREED) == 0;
  const bool b_live = (b.hdr.flags & MPIDBG_REC_FREED) == 0;
  if (c_live != b_live) return c_live;
  if (c_live) return c.create_serial >= b.create_serial;
  return c.free_serial >= b.free_serial;
}

template <typename Entry>
const Entry* find_by_handle(const Vec<Entry>& entries, uint64_t handle, uint32_t handle_size) {
  const Entry* best = nullptr;
  for (const Entry& e : entries) {
    if (same_handle(e.rec.obj.handle, handle, handle_size) && better_match(e, best)) best = &e;
  }
  return best;
}

template <typename Entry>
const Entry* find_by_fortran(const Vec<Entry>& entries, int32_t index) {
  // -1 is "not known"; other negative values are valid (MPICH's handles as ints).
  if (index == -1) return nullptr;
  const Entry* best = nullptr;
  for (const Entry& e : entries) {
    if (e.rec.obj.fortran_index == index && better_match(e, best)) best = &e;
  }
  return best;
}

// Reads `array` as elements of sizeof(T) bytes into host order.
template <typename T>
int read_typed_array(TargetReader& reader, const mpidbg_array& array, const ObjectLimits& limits,
                     Vec<T>* out) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "side array elements are 1, 2, 4 or 8 bytes");
  out->clear();
  if (array.count == 0) return mqs_ok;
  if (array.elem_size != sizeof(T) || array.count > limits.max_array_elements ||
      array.address == 0) {
    set_error_detail(kErrBadArgument,
                     "side array at 0x%llx is damaged (%u elements of %u bytes, expected %zu)",
                     static_cast<unsigned long long>(array.address), array.count,
                     array.elem_size, sizeof(T));
    return kErrBadArgument;
  }
  const size_t bytes = size_t{array.count} * sizeof(T);
  if (bytes > TargetReader::kMaxReadBytes) return kErrBadArgument;
  if (!out->resize(array.count)) return kErrNoMemory;
  const int rc = reader.read(TargetAddr(array.address), bytes, out->data());
  if (rc != mqs_ok) {
    out->clear();
    return rc;
  }
  if (reader.format().swap && sizeof(T) > 1) {
    for (T& v : *out) {
      if constexpr (sizeof(T) == 2) {
        uint16_t x;
        std::memcpy(&x, &v, 2);
        x = byte_swap16(x);
        std::memcpy(&v, &x, 2);
      } else if constexpr (sizeof(T) == 4) {
        uint32_t x;
        std::memcpy(&x, &v, 4);
        x = byte_swap32(x);
        std::memcpy(&v, &x, 4);
      } else if constexpr (sizeof(T) == 8) {
        uint64_t x;
        std::memcpy(&x, &v, 8);
        x = byte_swap64(x);
        std::memcpy(&v, &x, 8);
      }
    }
  }
  return mqs_ok;
}

}  // namespace

bool same_handle(uint64_t a, uint64_t b, uint32_t handle_size) {
  if (handle_size == 4) return static_cast<uint32_t>(a) == static_cast<uint32_t>(b);
  return a == b;
}

int decode_objects(TargetReader& reader, TargetAddr root_addr, const SnapshotLimits& limits,
                   ObjectSnapshot* out) {
  out->groups.clear();
  out->datatypes.clear();
  out->reduce_ops.clear();
  out->errhandlers.clear();
  out->infos.clear();
  out->windows.clear();
  out->files.clear();
  out->messages.clear();
  out->sessions.clear();
  out->stats = SnapshotStats();
  mpidbg_root root;
  int rc = read_runtime_root(reader, root_addr, limits, &root);
  if (rc != mqs_ok) return rc;
  out->generation = root.generation;
  out->handle_size = root.handle_size;

  TableWalker walker(reader, limits, out->stats);
  if ((rc = collect(walker, root.groups, MPIDBG_KIND_GROUP, decode_group, &out->groups)) != mqs_ok ||
      (rc = collect(walker, root.datatypes, MPIDBG_KIND_DATATYPE, decode_datatype,
                    &out->datatypes)) != mqs_ok ||
      (rc = collect(walker, root.reduce_ops, MPIDBG_KIND_REDUCE_OP, decode_reduce_op,
                    &out->reduce_ops)) != mqs_ok ||
      (rc = collect(walker, root.errhandlers, MPIDBG_KIND_ERRHANDLER, decode_errhandler,
                    &out->errhandlers)) != mqs_ok ||
      (rc = collect(walker, root.infos, MPIDBG_KIND_INFO, decode_info, &out->infos)) != mqs_ok ||
      (rc = collect(walker, root.windows, MPIDBG_KIND_WINDOW, decode_window, &out->windows)) !=
          mqs_ok ||
      (rc = collect(walker, root.files, MPIDBG_KIND_FILE, decode_file, &out->files)) != mqs_ok ||
      (rc = collect(walker, root.messages, MPIDBG_KIND_MESSAGE, decode_message,
                    &out->messages)) != mqs_ok ||
      (rc = collect(walker, root.sessions, MPIDBG_KIND_SESSION, decode_session,
                    &out->sessions)) != mqs_ok) {
    return rc;
  }
  sort_by_creation(&out->groups);
  sort_by_creation(&out->datatypes);
  sort_by_creation(&out->reduce_ops);
  sort_by_creation(&out->errhandlers);
  sort_by_creation(&out->infos);
  sort_by_creation(&out->windows);
  sort_by_creation(&out->files);
  sort_by_creation(&out->messages);
  sort_by_creation(&out->sessions);
  return mqs_ok;
}

#define MPIDBG_OBJECT_FINDERS(Entry, member, table)                        \
  const Entry* ObjectSnapshot::find_##member(uint64_t handle) const {      \
    return find_by_handle(table, handle, handle_size);                     \
  }
MPIDBG_OBJECT_FINDERS(GroupEntry, group, groups)
MPIDBG_OBJECT_FINDERS(DatatypeEntry, datatype, datatypes)
MPIDBG_OBJECT_FINDERS(ReduceOpEntry, reduce_op, reduce_ops)
MPIDBG_OBJECT_FINDERS(ErrhandlerEntry, errhandler, errhandlers)
MPIDBG_OBJECT_FINDERS(InfoEntry, info, infos)
MPIDBG_OBJECT_FINDERS(WindowEntry, window, windows)
MPIDBG_OBJECT_FINDERS(FileEntry, file, files)
MPIDBG_OBJECT_FINDERS(MessageEntry, message, messages)
MPIDBG_OBJECT_FINDERS(SessionEntry, session, sessions)
#undef MPIDBG_OBJECT_FINDERS

#define MPIDBG_OBJECT_FORTRAN_FINDERS(Entry, member, table)                \
  const Entry* ObjectSnapshot::find_##member##_f(int32_t index) const {    \
    return find_by_fortran(table, index);                                  \
  }
MPIDBG_OBJECT_FORTRAN_FINDERS(GroupEntry, group, groups)
MPIDBG_OBJECT_FORTRAN_FINDERS(DatatypeEntry, datatype, datatypes)
MPIDBG_OBJECT_FORTRAN_FINDERS(ReduceOpEntry, reduce_op, reduce_ops)
MPIDBG_OBJECT_FORTRAN_FINDERS(ErrhandlerEntry, errhandler, errhandlers)
MPIDBG_OBJECT_FORTRAN_FINDERS(InfoEntry, info, infos)
MPIDBG_OBJECT_FORTRAN_FINDERS(WindowEntry, window, windows)
MPIDBG_OBJECT_FORTRAN_FINDERS(FileEntry, file, files)
MPIDBG_OBJECT_FORTRAN_FINDERS(MessageEntry, message, messages)
#undef MPIDBG_OBJECT_FORTRAN_FINDERS

int read_side_array(TargetReader& reader, const mpidbg_array& array, uint32_t elem_size,
                    const ObjectLimits& limits, Vec<uint8_t>* out) {
  out->clear();
  if (array.count == 0) return mqs_ok;
  if (elem_size != 1 && elem_size != 4 && elem_size != 8) return kErrBadArgument;
  if (array.elem_size != elem_size) {
    set_error_detail(kErrBadArgument,
                     "side array at 0x%llx has %u-byte elements where %u were expected",
                     static_cast<unsigned long long>(array.address), array.elem_size, elem_size);
    return kErrBadArgument;
  }
  // Read as typed elements (each converted), then exposed as bytes.
  int rc;
  if (elem_size == 1) return read_typed_array(reader, array, limits, out);
  if (elem_size == 4) {
    Vec<uint32_t> v;
    rc = read_typed_array(reader, array, limits, &v);
    if (rc != mqs_ok) return rc;
    if (!out->resize(v.size() * 4)) return kErrNoMemory;
    if (!v.empty()) std::memcpy(out->data(), v.data(), v.size() * 4);
    return mqs_ok;
  }
  Vec<uint64_t> v;
  rc = read_typed_array(reader, array, limits, &v);
  if (rc != mqs_ok) return rc;
  if (!out->resize(v.size() * 8)) return kErrNoMemory;
  if (!v.empty()) std::memcpy(out->data(), v.data(), v.size() * 8);
  return mqs_ok;
}

int read_int32_array(TargetReader& reader, const mpidbg_array& array, const ObjectLimits& limits,
                     Vec<int32_t>* out) {
  return read_typed_array(reader, array, limits, out);
}

int read_int64_array(TargetReader& reader, const mpidbg_array& array, const ObjectLimits& limits,
                     Vec<int64_t>* out) {
  return read_typed_array(reader, array, limits, out);
}

int read_uint64_array(TargetReader& reader, const mpidbg_array& array,
                      const ObjectLimits& limits, Vec<uint64_t>* out) {
  return read_typed_array(reader, array, limits, out);
}

}  // namespace mpidbg::plugin
