// object_list.cc — mpidbg_object_list_query (every object of a kind the runtime keeps a
// record of) and mpidbg_latest_time_query (the "now" of a core, for ages).
//
// Everything listed comes from the two cached decodes (RuntimeSnapshot for
// communicators and requests, ObjectSnapshot for the other kinds), which already
// bounded every walk and left damaged records out; the count of a result is the count
// of decoded records, never a number read from the target.
#include "handles/query_support.h"
#include "plugin/export.h"

namespace mpidbg::handles {
namespace {

using Entries = plugin::Vec<mpidbg_object_entry_t>;

// No creating call for a predefined object: the runtime marks those with a pseudo call
// (MPIDBG_PREDEFINED) that the program never made.
const char* creator_name(uint32_t record_flags, int32_t creator) {
  return (record_flags & MPIDBG_REC_PREDEFINED) != 0 ? "" : call_name(creator);
}

// The interface's flat entry for one object head (every kind but comm and request).
mpidbg_object_entry_t entry_of(const QueryContext& ctx, int kind,
                               const mpidbg_object_head& h, uint64_t create_pc,
                               plugin::TargetAddr addr) {
  mpidbg_object_entry_t e{};
  e.kind = kind;
  e.bitflags = object_bits(h.hdr.flags);
  e.c_handle = static_cast<mqs_taddr_t>(h.handle);
  e.fortran_handle = fortran_handle(ctx, h.fortran_index, h.handle);
  e.creator = h.creator;
  set_name(e.creator_name, sizeof e.creator_name, creator_name(h.hdr.flags, h.creator));
  // The record's name field need not be terminated: bounded by its own size.
  char name[sizeof h.name + 1] = {};
  std::memcpy(name, h.name, sizeof h.name);
  set_name(e.name, sizeof e.name, name);
  e.create_time_ns = h.create_time_ns;
  e.create_serial = h.create_serial;
  e.free_serial = h.free_serial;
  e.create_pc = static_cast<mqs_taddr_t>(create_pc);
  e.record = static_cast<mqs_taddr_t>(addr.value());
  return e;
}

template <typename Entry>
bool add_table(const QueryContext& ctx, int kind, const plugin::Vec<Entry>& table,
               Entries* out) {
  for (const Entry& t : table) {
    if (!out->push_back(entry_of(ctx, kind, t.rec.obj, t.rec.create_pc, t.addr))) return false;
  }
  return true;
}

bool add_comms(const QueryContext& ctx, Entries* out) {
  for (const plugin::CommEntry& c : ctx.snapshot->comms) {
    const mpidbg_comm_record& r = c.rec;
    mpidbg_object_entry_t e{};
    e.kind = MPIDBG_HANDLE_COMM;
    e.bitflags = object_bits(r.hdr.flags);
    e.c_handle = static_cast<mqs_taddr_t>(r.handle);
    e.fortran_handle = fortran_handle(ctx, r.fortran_index, r.handle);
    e.creator = r.creator;
    set_name(e.creator_name, sizeof e.creator_name, creator_name(r.hdr.flags, r.creator));
    char name[sizeof r.name + 1] = {};
    std::memcpy(name, r.name, sizeof r.name);
    // Predefined communicators the runtime left unnamed still have their MPI names.
    if (name[0] == '\0' && (r.hdr.flags & MPIDBG_REC_PREDEFINED) != 0) {
      set_name(name, sizeof name, predefined_comm_name(ctx, r));
    }
    set_name(e.name, sizeof e.name, name);
    e.create_time_ns = r.create_time_ns;
    e.create_serial = r.create_serial;
    e.free_serial = r.free_serial;
    e.create_pc = static_cast<mqs_taddr_t>(r.create_pc);
    e.record = static_cast<mqs_taddr_t>(c.addr.value());
    if (!out->push_back(e)) return false;
  }
  return true;
}

// Requests: operation records with a request handle (a blocking call's envelope has
// none and is not an object the program holds).
bool add_requests(const QueryContext& ctx, Entries* out) {
  for (const plugin::OperationEntry& o : ctx.snapshot->operations) {
    const mpidbg_operation_record& r = o.rec;
    if (r.request == 0 || (r.hdr.flags & MPIDBG_OPERATION_BLOCKING) != 0) continue;
    mpidbg_object_entry_t e{};
    e.kind = MPIDBG_HANDLE_REQUEST;
    e.bitflags = object_bits(r.hdr.flags);
    if (r.free_serial != 0) e.bitflags |= MPIDBG_HANDLE_FREED_HANDLE;
    if ((r.hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0) e.bitflags |= MPIDBG_REQUEST_PERSISTENT;
    if ((r.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) e.bitflags |= MPIDBG_REQUEST_INACTIVE;
    if (r.status == MPIDBG_OPERATION_MATCHED) e.bitflags |= MPIDBG_REQUEST_MATCHED;
    if (r.status == MPIDBG_OPERATION_COMPLETE) e.bitflags |= MPIDBG_REQUEST_COMPLETE;
    e.c_handle = static_cast<mqs_taddr_t>(r.request);
    e.fortran_handle = fortran_handle(ctx, -1, r.request);
    e.creator = r.call;
    set_name(e.creator_name, sizeof e.creator_name, call_name(r.call));
    e.create_time_ns = r.post_time_ns;
    e.create_serial = r.post_serial;
    e.free_serial = r.free_serial;
    e.create_pc = static_cast<mqs_taddr_t>(r.create_pc);
    e.record = static_cast<mqs_taddr_t>(o.addr.value());
    if (!out->push_back(e)) return false;
  }
  return true;
}

// false: out of memory; *known false: not a kind.
bool collect(const QueryContext& ctx, int kind, Entries* out, bool* known) {
  const plugin::ObjectSnapshot& o = *ctx.objects;
  *known = true;
  switch (kind) {
    case MPIDBG_HANDLE_COMM: return add_comms(ctx, out);
    case MPIDBG_HANDLE_REQUEST: return add_requests(ctx, out);
    case MPIDBG_HANDLE_DATATYPE: return add_table(ctx, kind, o.datatypes, out);
    case MPIDBG_HANDLE_GROUP: return add_table(ctx, kind, o.groups, out);
    case MPIDBG_HANDLE_OP: return add_table(ctx, kind, o.reduce_ops, out);
    case MPIDBG_HANDLE_ERRHANDLER: return add_table(ctx, kind, o.errhandlers, out);
    case MPIDBG_HANDLE_INFO: return add_table(ctx, kind, o.infos, out);
    case MPIDBG_HANDLE_WIN: return add_table(ctx, kind, o.windows, out);
    case MPIDBG_HANDLE_FILE: return add_table(ctx, kind, o.files, out);
    case MPIDBG_HANDLE_MESSAGE: return add_table(ctx, kind, o.messages, out);
    case MPIDBG_HANDLE_SESSION: return add_table(ctx, kind, o.sessions, out);
    default: *known = false; return true;
  }
}

template <typename Entry>
void latest_of_table(const plugin::Vec<Entry>& table, int64_t* latest) {
  for (const Entry& t : table) {
    if (t.rec.obj.create_time_ns > *latest) *latest = t.rec.obj.create_time_ns;
  }
}

}  // namespace

int list_objects(const QueryContext& ctx, int kind, int* count,
                 mpidbg_object_entry_t** entries) {
  *count = 0;
  *entries = nullptr;
  Entries all;
  if (kind == 0) {
    for (int k = MPIDBG_HANDLE_COMM; k <= MPIDBG_HANDLE_SESSION; ++k) {
      bool known = true;
      if (!collect(ctx, k, &all, &known)) return MPIDBG_ERR_NO_MEM;
    }
  } else {
    bool known = true;
    if (!collect(ctx, kind, &all, &known)) return MPIDBG_ERR_NO_MEM;
    if (!known) return MPIDBG_ERR_OUT_OF_RANGE;
  }
  if (all.size() == 0) return MPIDBG_SUCCESS;
  // The count goes back as an int: the decode's limits keep tables far below that,
  // but a result that could not be counted is refused rather than cut.
  if (all.size() > static_cast<size_t>(0x7fffffff / sizeof(mpidbg_object_entry_t)))
    return MPIDBG_ERR_NO_MEM;
  const size_t bytes = all.size() * sizeof(mpidbg_object_entry_t);
  auto* out = static_cast<mpidbg_object_entry_t*>(result_alloc(bytes));
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  std::memcpy(static_cast<void*>(out), all.data(), bytes);
  *entries = out;
  *count = static_cast<int>(all.size());
  return MPIDBG_SUCCESS;
}

int64_t latest_time(const QueryContext& ctx) {
  const plugin::RuntimeSnapshot& s = *ctx.snapshot;
  const plugin::ObjectSnapshot& o = *ctx.objects;
  int64_t latest = s.root.init_time_ns;
  for (const plugin::CommEntry& c : s.comms) {
    if (c.rec.create_time_ns > latest) latest = c.rec.create_time_ns;
  }
  for (const plugin::OperationEntry& op : s.operations) {
    if (op.rec.post_time_ns > latest) latest = op.rec.post_time_ns;
  }
  for (const plugin::ThreadEntry& t : s.threads) {
    if (t.rec.entry_time_ns > latest) latest = t.rec.entry_time_ns;
  }
  latest_of_table(o.groups, &latest);
  latest_of_table(o.datatypes, &latest);
  latest_of_table(o.reduce_ops, &latest);
  latest_of_table(o.errhandlers, &latest);
  latest_of_table(o.infos, &latest);
  latest_of_table(o.windows, &latest);
  latest_of_table(o.files, &latest);
  latest_of_table(o.messages, &latest);
  latest_of_table(o.sessions, &latest);
  return latest > 0 ? latest : 0;
}

}  // namespace mpidbg::handles

MPIDBG_EXPORT int mpidbg_object_list_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                           mqs_process_info* process_info, int kind,
                                           int* count, struct mpidbg_object_entry_t** entries) {
  if (count == nullptr || entries == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *count = 0;
  *entries = nullptr;
  mpidbg::handles::QueryContext ctx;
  const int rc = mpidbg::handles::open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  return mpidbg::handles::list_objects(ctx, kind, count, entries);
}

MPIDBG_EXPORT int mpidbg_latest_time_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                           mqs_process_info* process_info,
                                           int64_t* latest_ns) {
  if (latest_ns == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *latest_ns = 0;
  mpidbg::handles::QueryContext ctx;
  const int rc = mpidbg::handles::open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  *latest_ns = mpidbg::handles::latest_time(ctx);
  return MPIDBG_SUCCESS;
}
