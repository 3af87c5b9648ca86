// comm_query.cc — communicator handles: mpidbg_comm_query (version 1), its extension
// mpidbg_comm_query_ext, and the Fortran / C++ conversions.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "handles/query_support.h"
#include "plugin/errors.h"
#include "plugin/export.h"
#include "plugin/topology_args.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::CommEntry;
using mpidbg::plugin::OperationEntry;
using mpidbg::plugin::TargetAddr;
using mpidbg::plugin::Topology;
using mpidbg::plugin::locate_topology;
using mpidbg::plugin::topology_kind;
using mpidbg::plugin::Vec;

// Predefined attribute keyvals on communicators, by this MPI's numbering (user keyvals
// never take these values in the same MPI).
struct KeyvalName {
  int keyval;
  const char* name;
};
const KeyvalName kMpichKeyvals[] = {
    {0x64400001, "MPI_TAG_UB"},       {0x64400003, "MPI_HOST"},
    {0x64400005, "MPI_IO"},           {0x64400007, "MPI_WTIME_IS_GLOBAL"},
    {0x64400009, "MPI_UNIVERSE_SIZE"}, {0x6440000b, "MPI_LASTUSEDCODE"},
    {0x6440000d, "MPI_APPNUM"},
};
const KeyvalName kOpenMpiKeyvals[] = {
    {0, "MPI_TAG_UB"}, {1, "MPI_HOST"},          {2, "MPI_IO"},           {3, "MPI_WTIME_IS_GLOBAL"},
    {4, "MPI_APPNUM"}, {5, "MPI_LASTUSEDCODE"}, {6, "MPI_UNIVERSE_SIZE"},
};

const char* keyval_name(uint32_t flavour, int keyval) {
  const KeyvalName* table = nullptr;
  size_t n = 0;
  if (flavour == MPIDBG_FLAVOUR_MPICH) {
    table = kMpichKeyvals;
    n = sizeof kMpichKeyvals / sizeof kMpichKeyvals[0];
  } else if (flavour == MPIDBG_FLAVOUR_OPENMPI) {
    table = kOpenMpiKeyvals;
    n = sizeof kOpenMpiKeyvals / sizeof kOpenMpiKeyvals[0];
  }
  for (size_t i = 0; i < n; ++i) {
    if (table[i].keyval == keyval) return table[i].name;
  }
  return nullptr;
}

int read_topology(const QueryContext& ctx, const mpidbg_comm_record& c, Topology* t) {
  t->kind = topology_kind(c);
  // An older runtime flags the topology without recording its arguments.
  if (c.topo_args.count == 0 || t->kind == MPIDBG_TOPO_NONE) return MPIDBG_SUCCESS;
  const int rc = mpidbg::plugin::read_int32_array(ctx.ps->reader, c.topo_args, ctx.limits, &t->args);
  if (rc != mqs_ok) return handle_code(rc);
  if (!locate_topology(t)) return MPIDBG_ERR_UNAVAILABLE;
  return MPIDBG_SUCCESS;
}

// World ranks of a group as mpidbg_process_t; an array the runtime did not record (0)
// gives none.
int read_procs(const QueryContext& ctx, uint64_t array, int32_t count, int* num,
               mpidbg_process_t** out) {
  *num = 0;
  *out = nullptr;
  if (array == 0 || count <= 0) return MPIDBG_SUCCESS;
  if (count > ctx.ps->limits.max_group_size) return MPIDBG_ERR_UNAVAILABLE;
  Vec<int> ranks;
  if (!ranks.resize(static_cast<size_t>(count))) return MPIDBG_ERR_NO_MEM;
  const int rc = mpidbg::plugin::read_rank_array(ctx.ps->reader, TargetAddr(array), count,
                                                 ctx.ps->limits, ranks.data());
  if (rc != mqs_ok) return handle_code(rc);
  static_assert(sizeof(mpidbg_process_t) == sizeof(int), "one world rank per process");
  bool ok = true;
  *out = reinterpret_cast<mpidbg_process_t*>(copy_out(ranks.data(), ranks.size(), &ok));
  if (!ok) return MPIDBG_ERR_NO_MEM;
  *num = count;
  return MPIDBG_SUCCESS;
}

int fill_attributes(const QueryContext& ctx, const mpidbg_comm_record& c, mpidbg_comm_info_t* out) {
  Vec<int64_t> pairs;
  const int rc = mpidbg::plugin::read_int64_array(ctx.ps->reader, c.attributes, ctx.limits, &pairs);
  if (rc != mqs_ok) return handle_code(rc);
  if (pairs.size() % 2 != 0) return MPIDBG_ERR_UNAVAILABLE;
  const size_t n = pairs.size() / 2;
  if (n == 0) return MPIDBG_SUCCESS;
  auto* attrs = static_cast<mpidbg_attribute_pair_t*>(result_alloc(n * sizeof(mpidbg_attribute_pair_t)));
  if (attrs == nullptr) return MPIDBG_ERR_NO_MEM;
  std::memset(static_cast<void*>(attrs), 0, n * sizeof(mpidbg_attribute_pair_t));
  out->comm_attrs = attrs;
  out->comm_num_attrs = static_cast<int>(n);
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i) {
    attrs[i].keyval = static_cast<int>(pairs[2 * i]);
    const char* predefined = keyval_name(ctx.snapshot->root.flavour, attrs[i].keyval);
    if (predefined != nullptr) attrs[i].keyval_name = copy_string(predefined, &ok);
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(pairs[2 * i + 1]));
    attrs[i].value = copy_string(text, &ok);
  }
  return ok ? MPIDBG_SUCCESS : MPIDBG_ERR_NO_MEM;
}

// Whether an operation record belongs to this communicator.
bool on_comm(const QueryContext& ctx, const mpidbg_comm_record& c, uint64_t job_id,
             uint64_t handle) {
  if (c.job_id != 0) return job_id == c.job_id;
  return same(ctx, handle, c.handle);
}

int fill_handle_lists(const QueryContext& ctx, const mpidbg_comm_record& c,
                      mpidbg_comm_info_t* out) {
  Vec<mqs_taddr_t> handles;
  for (const OperationEntry& op : ctx.snapshot->operations) {
    if (op.rec.request == 0 || (op.rec.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) continue;
    if (!on_comm(ctx, c, op.rec.comm_job_id, op.rec.comm_handle)) continue;
    if (!handles.push_back(static_cast<mqs_taddr_t>(op.rec.request))) return MPIDBG_ERR_NO_MEM;
  }
  bool ok = true;
  out->comm_pending_requests = copy_out(handles.data(), handles.size(), &ok);
  out->comm_num_pending_requests = static_cast<int>(handles.size());
  handles.clear();
  for (const auto& w : ctx.objects->windows) {
    if ((w.rec.obj.hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    if (!on_comm(ctx, c, w.rec.comm_job_id, w.rec.comm_handle)) continue;
    if (!handles.push_back(static_cast<mqs_taddr_t>(w.rec.obj.handle))) return MPIDBG_ERR_NO_MEM;
  }
  out->comm_derived_windows = copy_out(handles.data(), handles.size(), &ok);
  out->comm_num_derived_windows = static_cast<int>(handles.size());
  handles.clear();
  for (const auto& f : ctx.objects->files) {
    if ((f.rec.obj.hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    if (!on_comm(ctx, c, f.rec.comm_job_id, f.rec.comm_handle)) continue;
    if (!handles.push_back(static_cast<mqs_taddr_t>(f.rec.obj.handle))) return MPIDBG_ERR_NO_MEM;
  }
  out->comm_derived_files = copy_out(handles.data(), handles.size(), &ok);
  out->comm_num_derived_files = static_cast<int>(handles.size());
  return ok ? MPIDBG_SUCCESS : MPIDBG_ERR_NO_MEM;
}

int fill_topology(const Topology& t, unsigned int* bits, mpidbg_comm_info_t* out) {
  switch (t.kind) {
    case MPIDBG_TOPO_CART:
      *bits |= MPIDBG_COMM_INFO_CARTESIAN;
      break;
    case MPIDBG_TOPO_GRAPH:
      *bits |= MPIDBG_COMM_INFO_GRAPH;
      break;
    case MPIDBG_TOPO_DIST_GRAPH:
      *bits |= MPIDBG_COMM_INFO_DIST_GRAPH;
      break;
    default:
      break;
  }
  if (!t.have_args) return MPIDBG_SUCCESS;
  if (t.reorder != 0) *bits |= MPIDBG_COMM_INFO_TOPO_REORDERED;
  bool ok = true;
  if (t.kind == MPIDBG_TOPO_CART) {
    out->comm_cart_num_dims = t.ndims;
    out->comm_cart_dims = copy_out(t.dims, static_cast<size_t>(t.ndims), &ok);
    if (t.ndims > 0 && ok) {
      auto* periods = static_cast<int8_t*>(result_alloc(static_cast<size_t>(t.ndims)));
      if (periods == nullptr) return MPIDBG_ERR_NO_MEM;
      for (int32_t i = 0; i < t.ndims; ++i) periods[i] = t.periods[i] != 0 ? 1 : 0;
      out->comm_cart_periods = periods;
    }
  } else if (t.kind == MPIDBG_TOPO_GRAPH) {
    out->comm_graph_num_nodes = t.nnodes;
    out->comm_graph_index = copy_out(t.index, static_cast<size_t>(t.nnodes), &ok);
    out->comm_graph_edges = copy_out(t.edges, static_cast<size_t>(t.nedges), &ok);
  }
  return ok ? MPIDBG_SUCCESS : MPIDBG_ERR_NO_MEM;
}

// The version-1 answer for a communicator record. Members allocated before a failure
// are left for the caller's free_result.
int fill_comm(const QueryContext& ctx, const CommEntry& entry, const Topology& topo,
              mpidbg_comm_info_t* out) {
  const mpidbg_comm_record& c = entry.rec;
  set_name(out->comm_name, sizeof out->comm_name, c.name[0] != '\0' ? c.name : predefined_comm_name(ctx, c));
  unsigned int bits = object_bits(c.hdr.flags);  // PREDEFINED and FREED_* agree in value
  if ((c.hdr.flags & MPIDBG_COMM_INTER) != 0) bits |= MPIDBG_COMM_INFO_INTERCOMM;
  out->comm_rank = c.rank;
  out->comm_size = c.size;
  out->comm_c_handle = static_cast<mqs_taddr_t>(c.handle);
  out->comm_fortran_handle = fortran_handle(ctx, c.fortran_index, c.handle);
  int rc = fill_topology(topo, &bits, out);
  out->comm_bitflags = static_cast<mpidbg_comm_info_bitmap_t>(bits);
  if (rc != MPIDBG_SUCCESS) return rc;
  rc = read_procs(ctx, c.world_ranks, c.size, &out->comm_num_local_procs, &out->comm_local_procs);
  if (rc != MPIDBG_SUCCESS) return rc;
  if ((c.hdr.flags & MPIDBG_COMM_INTER) != 0) {
    rc = read_procs(ctx, c.remote_world_ranks, c.remote_size, &out->comm_num_remote_procs,
                    &out->comm_remote_procs);
    if (rc != MPIDBG_SUCCESS) return rc;
  }
  rc = fill_attributes(ctx, c, out);
  if (rc != MPIDBG_SUCCESS) return rc;
  return fill_handle_lists(ctx, c, out);
}

// MPI_COMM_NULL: no record, only the bit and the name.
void fill_null(const QueryContext& ctx, uint64_t handle, mpidbg_comm_info_t* out) {
  set_name(out->comm_name, sizeof out->comm_name, "MPI_COMM_NULL");
  out->comm_bitflags = MPIDBG_COMM_INFO_COMM_NULL;
  out->comm_rank = -1;
  out->comm_size = 0;
  out->comm_c_handle = static_cast<mqs_taddr_t>(handle);
  out->comm_fortran_handle = fortran_handle(ctx, -1, handle);
}

// Finds what `handle` denotes: *entry (a record), or *is_null; else MPIDBG_ERR_NOT_FOUND.
int resolve(const QueryContext& ctx, uint64_t handle, const CommEntry** entry, bool* is_null) {
  *entry = nullptr;
  *is_null = is_null_handle(ctx, ctx.snapshot->root.comm_null_handle, handle);
  if (*is_null) return MPIDBG_SUCCESS;
  *entry = find_comm(ctx, handle);
  return *entry != nullptr ? MPIDBG_SUCCESS : MPIDBG_ERR_NOT_FOUND;
}

int fill_ext(const QueryContext& ctx, const CommEntry& entry, const Topology& topo,
             mpidbg_comm_ext_info_t* out) {
  const mpidbg_comm_record& c = entry.rec;
  out->job_id = c.job_id;
  out->parent_job_id = c.parent_job_id;
  out->creator = c.creator;
  set_name(out->creator_name, sizeof out->creator_name, call_name(c.creator));
  out->split_color = c.split_color;
  out->split_key = c.split_key;
  out->errhandler = static_cast<mqs_taddr_t>(c.errhandler);
  out->info = static_cast<mqs_taddr_t>(c.info);
  out->create_time_ns = c.create_time_ns;
  out->create_serial = c.create_serial;
  out->free_serial = c.free_serial;
  if (topo.kind == MPIDBG_TOPO_DIST_GRAPH && topo.have_args) {
    bool ok = true;
    out->dist_num_sources = topo.indegree;
    out->dist_sources = copy_out(topo.sources, static_cast<size_t>(topo.indegree), &ok);
    out->dist_num_destinations = topo.outdegree;
    out->dist_destinations = copy_out(topo.destinations, static_cast<size_t>(topo.outdegree), &ok);
    out->dist_weighted = topo.weighted != 0 ? 1 : 0;
    if (!ok) return MPIDBG_ERR_NO_MEM;
  }
  return fill_comm(ctx, entry, topo, &out->base);
}

}  // namespace

namespace {

mpidbg_comm_info_t* base_of(mpidbg_comm_info_t* info) { return info; }
mpidbg_comm_info_t* base_of(mpidbg_comm_ext_info_t* info) { return &info->base; }
int fill_any(const QueryContext& ctx, const CommEntry& entry, const Topology& topo,
             mpidbg_comm_info_t* out) {
  return fill_comm(ctx, entry, topo, out);
}
int fill_any(const QueryContext& ctx, const CommEntry& entry, const Topology& topo,
             mpidbg_comm_ext_info_t* out) {
  return fill_ext(ctx, entry, topo, out);
}

// Sets the query up on the process and finds the communicator `c_comm` names (its
// record, or the null communicator).
int open_and_resolve(mqs_process* process, mqs_process_info* process_info, mqs_taddr_t c_comm,
                     QueryContext* ctx, const CommEntry** entry, bool* is_null) {
  const int rc = open_query(process, process_info, ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  return resolve(*ctx, c_comm, entry, is_null);
}

// The body of mpidbg_comm_query and mpidbg_comm_query_ext: resolve the handle, read its
// topology, fill a fresh result (the null communicator's or the record's).
template <typename Info>
int query_comm(mqs_process* process, mqs_process_info* process_info, mqs_taddr_t c_comm,
               Info** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  const CommEntry* entry;
  bool is_null;
  int rc = open_and_resolve(process, process_info, c_comm, &ctx, &entry, &is_null);
  if (rc != MPIDBG_SUCCESS) return rc;
  Topology topo;
  if (entry != nullptr) {
    rc = read_topology(ctx, entry->rec, &topo);
    if (rc != MPIDBG_SUCCESS) return rc;
  }
  Info* out = new_result<Info>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (is_null) {
    fill_null(ctx, c_comm, base_of(out));
  } else {
    rc = fill_any(ctx, *entry, topo, out);
    if (rc != MPIDBG_SUCCESS) {
      free_result(out);
      return rc;
    }
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_comm_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                    mqs_process_info* process_info, mqs_taddr_t c_comm,
                                    struct mpidbg_comm_info_t** info) {
  return query_comm(process, process_info, c_comm, info);
}

MPIDBG_EXPORT int mpidbg_comm_query_ext(mqs_image*, mqs_image_info*, mqs_process* process,
                                        mqs_process_info* process_info, mqs_taddr_t c_comm,
                                        struct mpidbg_comm_ext_info_t** info) {
  return query_comm(process, process_info, c_comm, info);
}

MPIDBG_EXPORT int mpidbg_comm_query_remote_job(mqs_image*, mqs_image_info*, mqs_process* process,
                                               mqs_process_info* process_info, mqs_taddr_t c_comm,
                                               struct mpidbg_comm_remote_job_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  const CommEntry* entry;
  bool is_null;
  int rc = open_and_resolve(process, process_info, c_comm, &ctx, &entry, &is_null);
  if (rc != MPIDBG_SUCCESS) return rc;
  if (is_null || entry == nullptr) return MPIDBG_SUCCESS;
  const mpidbg_comm_record& c = entry->rec;
  // Trusted only with one rank per remote process (records.h: remote_job_ranks).
  if ((c.hdr.flags & MPIDBG_COMM_INTER) == 0 || c.remote_size <= 0 ||
      c.remote_job_ranks.address == 0 ||
      c.remote_job_ranks.count != static_cast<uint32_t>(c.remote_size)) {
    return MPIDBG_SUCCESS;
  }
  auto* out = new_result<mpidbg_comm_remote_job_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (c.remote_job_id.address != 0 && c.remote_job_id.elem_size == 1) {
    const size_t n = std::min<size_t>(c.remote_job_id.count, sizeof out->job_id - 1);
    if (ctx.ps->reader.read(TargetAddr(c.remote_job_id.address), n, out->job_id) != mqs_ok) {
      out->job_id[0] = '\0';  // the ranks still say which processes; the name is lost
    }
    out->job_id[n] = '\0';
    if (out->job_id[0] == '\0') std::memset(out->job_id, 0, sizeof out->job_id);
  }
  rc = read_procs(ctx, c.remote_job_ranks.address, c.remote_size, &out->num_procs, &out->world_ranks);
  if (rc != MPIDBG_SUCCESS) {
    free_result(out);
    return rc;
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_comm_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                  mqs_process_info* process_info, mqs_taddr_t f77_comm,
                                  mqs_taddr_t* c_comm) {
  if (c_comm == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  // A Fortran handle is an INTEGER: its low 32 bits.
  const int32_t index = static_cast<int32_t>(static_cast<uint32_t>(f77_comm));
  const CommEntry* entry = find_comm_f(ctx, index);
  if (entry != nullptr) {
    *c_comm = static_cast<mqs_taddr_t>(entry->rec.handle);
    return MPIDBG_SUCCESS;
  }
  if (fortran_is_c(ctx)) {
    const uint64_t value = static_cast<uint32_t>(index);
    if (find_comm(ctx, value) != nullptr ||
        is_null_handle(ctx, ctx.snapshot->root.comm_null_handle, value)) {
      *c_comm = static_cast<mqs_taddr_t>(value);
      return MPIDBG_SUCCESS;
    }
  }
  return MPIDBG_ERR_NOT_FOUND;
}

MPIDBG_EXPORT int mpidbg_comm_cxx2c(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                                    mqs_taddr_t, enum mpidbg_comm_info_bitmap_t, mqs_taddr_t*) {
  return MPIDBG_ERR_NOT_SUPPORTED;
}
