// type_source.cc — see type_source.h.
#include "handles/type_source.h"

#include <algorithm>
#include <cstring>

#include "plugin/errors.h"

namespace mpidbg::handles {

using plugin::DatatypeEntry;

namespace {

// A copy of `v` in debugger memory owned by the caller (nullptr for an empty one).
template <typename T>
T* take_copy(const plugin::Vec<T>& v, bool* ok) {
  if (v.empty()) return nullptr;
  T* p = static_cast<T*>(plugin::debugger_alloc(v.size() * sizeof(T)));
  if (p == nullptr) {
    *ok = false;
    return nullptr;
  }
  std::memcpy(static_cast<void*>(p), v.data(), v.size() * sizeof(T));
  return p;
}

}  // namespace

RecordTypeSource::~RecordTypeSource() {
  for (Loaded& l : loaded_) {
    plugin::debugger_free(l.integers);
    plugin::debugger_free(l.addresses);
    plugin::debugger_free(l.types);
    plugin::debugger_free(l.inputs);
  }
}

uint64_t RecordTypeSource::key_of(uint64_t handle) const {
  return objects_.handle_size == 4 ? (handle & 0xffffffffu) : handle;
}

bool RecordTypeSource::init() {
  const size_t n = objects_.datatypes.size();
  if (!loaded_.resize(n) || !index_.reserve(n)) return false;
  for (size_t i = 0; i < n; ++i) {
    const mpidbg_object_head& obj = objects_.datatypes[i].rec.obj;
    index_.push_back(IndexEntry{key_of(obj.handle), obj.create_serial, static_cast<TypeRef>(i)});
  }
  std::sort(index_.begin(), index_.end(), [](const IndexEntry& a, const IndexEntry& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.serial != b.serial) return a.serial < b.serial;
    return a.ref < b.ref;
  });
  return true;
}

TypeRef RecordTypeSource::ref_of(const DatatypeEntry* e) const {
  if (e == nullptr) return kNoType;
  return static_cast<TypeRef>(e - objects_.datatypes.data());
}

const DatatypeEntry* RecordTypeSource::entry(TypeRef ref) const {
  if (ref < 0 || static_cast<uint64_t>(ref) >= objects_.datatypes.size()) return nullptr;
  return &objects_.datatypes[static_cast<size_t>(ref)];
}

// The newest record of `handle` created before `before_serial`; when the serials do not
// allow one (a damaged record), the record the handle denotes now.
TypeRef RecordTypeSource::resolve(uint64_t handle, uint64_t before_serial) const {
  const uint64_t key = key_of(handle);
  const IndexEntry probe{key, before_serial, kNoType};
  const IndexEntry* pos = std::lower_bound(
      index_.begin(), index_.end(), probe, [](const IndexEntry& a, const IndexEntry& b) {
        return a.key != b.key ? a.key < b.key : a.serial < b.serial;
      });
  if (pos != index_.begin() && (pos - 1)->key == key) return (pos - 1)->ref;
  return ref_of(objects_.find_datatype(handle));
}

bool RecordTypeSource::facts(TypeRef ref, TypeFacts* out) {
  const DatatypeEntry* e = entry(ref);
  if (e == nullptr) return false;
  const mpidbg_datatype_record& r = e->rec;
  out->handle = r.obj.handle;
  out->combiner = r.combiner;
  out->predefined = (r.obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0;
  out->size = r.size;
  out->lb = r.lb;
  out->extent = r.extent;
  out->true_lb = r.true_lb;
  out->true_extent = r.true_extent;
  return true;
}

bool RecordTypeSource::load(TypeRef ref, Loaded* l) {
  const mpidbg_datatype_record& r = entry(ref)->rec;
  plugin::Vec<int32_t> ints;
  plugin::Vec<int64_t> addrs;
  plugin::Vec<uint64_t> types;
  int rc = plugin::read_int32_array(reader_, r.integers, limits_, &ints);
  if (rc == mqs_ok) rc = plugin::read_int64_array(reader_, r.addresses, limits_, &addrs);
  if (rc == mqs_ok) rc = plugin::read_uint64_array(reader_, r.types, limits_, &types);
  if (rc != mqs_ok) {
    if (rc == plugin::kErrNoMemory) oom_ = true;
    return false;
  }
  plugin::Vec<TypeRef> inputs;
  if (!inputs.resize(types.size())) {
    oom_ = true;
    return false;
  }
  for (size_t i = 0; i < types.size(); ++i) inputs[i] = resolve(types[i], r.obj.create_serial);
  bool ok = true;
  l->integers = take_copy(ints, &ok);
  l->addresses = take_copy(addrs, &ok);
  l->types = take_copy(types, &ok);
  l->inputs = take_copy(inputs, &ok);
  l->num_integers = ints.size();
  l->num_addresses = addrs.size();
  l->num_types = types.size();
  if (!ok) oom_ = true;
  return ok;
}

bool RecordTypeSource::contents(TypeRef ref, TypeContents* out) {
  if (entry(ref) == nullptr || static_cast<uint64_t>(ref) >= loaded_.size()) return false;
  Loaded& l = loaded_[static_cast<size_t>(ref)];
  if (l.state == 0) l.state = load(ref, &l) ? 1 : 2;
  if (l.state != 1) return false;
  *out = TypeContents{};
  out->integers = l.integers;
  out->num_integers = l.num_integers;
  out->addresses = l.addresses;
  out->num_addresses = l.num_addresses;
  out->types = l.types;
  out->inputs = l.inputs;
  out->num_types = l.num_types;
  return true;
}

}  // namespace mpidbg::handles
