// datatype_query.cc — mpidbg_datatype_query and mpidbg_datatype_f2c: a datatype's
// record, its constructor inputs and its type map rebuilt from the records.
#include <cstring>

#include "handles/object_query.h"
#include "handles/query_support.h"
#include "handles/type_map.h"
#include "handles/type_source.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/debugger_memory.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::DatatypeEntry;
using mpidbg::plugin::Vec;

constexpr int kDefaultMapEntries = 4096;
// The most runs one answer holds whatever the debugger asks for (64 MiB of entries): a
// damaged or huge type must not make the DLL fill the debugger's memory.
constexpr int kMaxMapEntries = 1 << 20;

class VecSink final : public TypeRunSink {
 public:
  bool append(const TypeRun& run) override { return runs.push_back(run); }
  Vec<TypeRun> runs;
};

// The constructor's inputs as MPI_Type_get_contents gives them.
int fill_contents(const QueryContext& ctx, const mpidbg_datatype_record& r,
                  mpidbg_datatype_info_t* info) {
  int rc = copy_int32_array(ctx, r.integers, &info->dt_integers, &info->dt_num_integers);
  if (rc != MPIDBG_SUCCESS) return rc;
  Vec<int64_t> addrs;
  int prc = mpidbg::plugin::read_int64_array(ctx.ps->reader, r.addresses, ctx.limits, &addrs);
  if (prc != mqs_ok) return handle_code(prc);
  Vec<uint64_t> types;
  prc = mpidbg::plugin::read_uint64_array(ctx.ps->reader, r.types, ctx.limits, &types);
  if (prc != mqs_ok) return handle_code(prc);
  bool ok = true;
  info->dt_addresses = copy_out(addrs.data(), addrs.size(), &ok);
  info->dt_datatypes = copy_out(types.data(), types.size(), &ok);
  if (!ok) return MPIDBG_ERR_NO_MEM;
  info->dt_num_addresses = static_cast<int>(addrs.size());
  info->dt_num_datatypes = static_cast<int>(types.size());
  return MPIDBG_SUCCESS;
}

// The type map, its element count and the MAP_* bits.
int fill_map(const QueryContext& ctx, const DatatypeEntry& e, int max_entries,
             mpidbg_datatype_info_t* info) {
  RecordTypeSource source(ctx.ps->reader, *ctx.objects, ctx.limits);
  if (!source.init()) return MPIDBG_ERR_NO_MEM;
  TypeMapOptions options;
  options.max_entries = static_cast<size_t>(max_entries);
  options.flavour = ctx.snapshot->root.flavour;
  options.allocate = mpidbg::plugin::debugger_alloc;
  options.release = mpidbg::plugin::debugger_free;
  VecSink sink;
  TypeMapResult result;
  if (!build_type_map(source, source.ref_of(&e), options, sink, &result) || source.out_of_memory())
    return MPIDBG_ERR_NO_MEM;
  if (result.truncated) info->dt_bitflags |= MPIDBG_DATATYPE_MAP_TRUNCATED;
  if (result.incomplete) info->dt_bitflags |= MPIDBG_DATATYPE_MAP_INCOMPLETE;
  info->dt_map_elements = result.elements;
  const size_t n = sink.runs.size();
  if (n == 0) return MPIDBG_SUCCESS;
  auto* map = static_cast<mpidbg_type_map_entry_t*>(result_alloc(n * sizeof(mpidbg_type_map_entry_t)));
  if (map == nullptr) return MPIDBG_ERR_NO_MEM;
  std::memset(static_cast<void*>(map), 0, n * sizeof(mpidbg_type_map_entry_t));
  for (size_t i = 0; i < n; ++i) {
    const TypeRun& run = sink.runs[i];
    const DatatypeEntry* basic = source.entry(run.basic);
    map[i].basic_type = run.basic_handle;
    set_name(map[i].basic_name, sizeof map[i].basic_name, basic != nullptr ? basic->rec.obj.name : "");
    map[i].displacement = run.displacement;
    map[i].count = run.count;
    map[i].elem_size = run.elem_size;
  }
  info->dt_map = map;
  info->dt_map_length = static_cast<int>(n);
  return MPIDBG_SUCCESS;
}

int fill_datatype(const QueryContext& ctx, const DatatypeEntry& e, int max_entries,
                  mpidbg_datatype_info_t* info) {
  const mpidbg_datatype_record& r = e.rec;
  set_name(info->dt_name, sizeof info->dt_name, r.obj.name);
  info->dt_bitflags = object_bits(r.obj.hdr.flags);
  if ((r.obj.hdr.flags & MPIDBG_TYPE_COMMITTED) != 0) info->dt_bitflags |= MPIDBG_DATATYPE_COMMITTED;
  if (r.true_extent > r.size) info->dt_bitflags |= MPIDBG_DATATYPE_HOLES;
  if (is_null_handle(ctx, ctx.snapshot->root.datatype_null_handle, r.obj.handle))
    info->dt_bitflags |= MPIDBG_HANDLE_NULL;
  info->dt_c_handle = r.obj.handle;
  info->dt_fortran_handle = fortran_handle(ctx, r.obj.fortran_index, r.obj.handle);
  info->dt_combiner = r.combiner;
  info->dt_creator = r.obj.creator;
  set_name(info->dt_creator_name, sizeof info->dt_creator_name, call_name(r.obj.creator));
  info->dt_size = r.size;
  info->dt_lb = r.lb;
  info->dt_extent = r.extent;
  info->dt_true_lb = r.true_lb;
  info->dt_true_extent = r.true_extent;
  const int rc = fill_contents(ctx, r, info);
  if (rc != MPIDBG_SUCCESS) return rc;
  return fill_map(ctx, e, max_entries, info);
}

}  // namespace

MPIDBG_EXPORT int mpidbg_datatype_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                        mqs_process_info* process_info, mqs_taddr_t datatype,
                                        int max_map_entries, mpidbg_datatype_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  if (max_map_entries < 0) return MPIDBG_ERR_OUT_OF_RANGE;
  QueryContext ctx;
  int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const DatatypeEntry* e = ctx.objects->find_datatype(datatype);
  const bool null = is_null_handle(ctx, ctx.snapshot->root.datatype_null_handle, datatype);
  if (e == nullptr && !null) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_datatype_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (e == nullptr) {  // MPI_DATATYPE_NULL has no record
    set_name(out->dt_name, sizeof out->dt_name, "MPI_DATATYPE_NULL");
    out->dt_bitflags = MPIDBG_HANDLE_NULL;
    out->dt_c_handle = datatype;
    out->dt_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
    *info = out;
    return MPIDBG_SUCCESS;
  }
  int limit = max_map_entries == 0 ? kDefaultMapEntries : max_map_entries;
  if (limit > kMaxMapEntries) limit = kMaxMapEntries;
  rc = fill_datatype(ctx, *e, limit, out);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_datatype_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                      mqs_process_info* process_info, mqs_taddr_t f77_datatype,
                                      mqs_taddr_t* c_datatype) {
  return object_f2c(process, process_info, f77_datatype, c_datatype,
                    &mpidbg::plugin::ObjectSnapshot::find_datatype_f);
}
