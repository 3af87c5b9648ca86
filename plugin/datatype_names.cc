#include "plugin/datatype_names.h"

#include <algorithm>
#include <cstring>

#include "plugin/errors.h"
#include "plugin/object_snapshot.h"
#include "plugin/record_decode.h"

namespace mpidbg::plugin {
namespace {

bool needs_name(const mpidbg_operation_record& r) {
  return r.datatype != 0 && r.datatype_name[0] == '\0';
}

// The bytes of a handle that compare (same_handle): the low four of a 4-byte handle.
uint64_t handle_key(uint64_t handle, uint32_t handle_size) {
  return handle_size == 4 ? static_cast<uint32_t>(handle) : handle;
}

}  // namespace

int name_datatypes(TableWalker& walker, const mpidbg_root& root, OperationEntry* ops,
                   size_t count) {
  Vec<uint64_t> wanted;  // sorted keys of the handles some operation needs named
  for (size_t i = 0; i < count; ++i) {
    const mpidbg_operation_record& r = ops[i].rec;
    if (needs_name(r) && !wanted.push_back(handle_key(r.datatype, root.handle_size))) {
      return kErrNoMemory;
    }
  }
  if (wanted.empty()) return mqs_ok;
  std::sort(wanted.begin(), wanted.end());

  // Only the records of wanted handles are kept; the lookup among them is the handle
  // query's own (a live record before an orphan).
  ObjectSnapshot found;
  found.handle_size = root.handle_size;
  auto keep = [&found, &wanted, &root](const Decoder& d, TargetAddr a) {
    DatatypeEntry e{};
    decode_datatype(d, &e.rec);
    const uint64_t key = handle_key(e.rec.obj.handle, root.handle_size);
    if (!std::binary_search(wanted.begin(), wanted.end(), key)) return true;
    e.addr = a;
    return found.datatypes.push_back(e);
  };
  const int rc = walker.walk(root.datatypes, MPIDBG_KIND_DATATYPE, keep);
  if (rc != mqs_ok) return rc;

  for (size_t i = 0; i < count; ++i) {
    mpidbg_operation_record& r = ops[i].rec;
    if (!needs_name(r)) continue;
    const DatatypeEntry* type = found.find_datatype(r.datatype);
    if (type == nullptr) continue;
    // obj.name is NUL-terminated (Decoder::str); longer names are cut to fit.
    const size_t len = std::min(std::strlen(type->rec.obj.name), sizeof r.datatype_name - 1);
    std::memcpy(r.datatype_name, type->rec.obj.name, len);
    r.datatype_name[len] = '\0';
  }
  return mqs_ok;
}

}  // namespace mpidbg::plugin
