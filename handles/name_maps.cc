// name_maps.cc — predefined and null handles by name, for every handle kind:
// mpidbg_name_map_query and the maps the DLL publishes (mpidbg_comm_name_map, ...).
//
// The names come from the records the runtime keeps of predefined objects
// (MPIDBG_REC_PREDEFINED, named by the runtime) and from the null handles in the root,
// which have no records.
#include "handles/query_support.h"
#include "plugin/export.h"

namespace mpidbg::handles {
namespace {

struct Named {
  const char* name;  // into the snapshot or a literal; valid for the call
  uint64_t handle;
};

bool listed(const QueryContext& ctx, const plugin::Vec<Named>& list, uint64_t handle) {
  for (const Named& n : list) {
    if (same(ctx, n.handle, handle)) return true;
  }
  return false;
}

// Predefined records of one object table, by their names.
template <typename Entry>
bool add_predefined(const plugin::Vec<Entry>& table, plugin::Vec<Named>* out) {
  for (const Entry& e : table) {
    const mpidbg_object_head& h = e.rec.obj;
    if ((h.hdr.flags & MPIDBG_REC_PREDEFINED) == 0 || h.name[0] == '\0') continue;
    if (!out->push_back(Named{h.name, h.handle})) return false;
  }
  return true;
}

// A handle the root names (null handles, and world/self when their records are
// missing); 0 means the runtime did not write it.
bool add_root_handle(const QueryContext& ctx, const char* name, uint64_t handle,
                     plugin::Vec<Named>* out) {
  if (handle == 0 || listed(ctx, *out, handle)) return true;
  return out->push_back(Named{name, handle});
}

bool add_comms(const QueryContext& ctx, plugin::Vec<Named>* out) {
  const mpidbg_root& root = ctx.snapshot->root;
  for (const plugin::CommEntry& c : ctx.snapshot->comms) {
    if ((c.rec.hdr.flags & MPIDBG_REC_PREDEFINED) == 0) continue;
    const char* name = c.rec.name;
    if (name[0] == '\0') {
      if (root.comm_world_handle != 0 && same(ctx, c.rec.handle, root.comm_world_handle)) {
        name = "MPI_COMM_WORLD";
      } else if (root.comm_self_handle != 0 && same(ctx, c.rec.handle, root.comm_self_handle)) {
        name = "MPI_COMM_SELF";
      } else {
        continue;
      }
    }
    if (!out->push_back(Named{name, c.rec.handle})) return false;
  }
  return add_root_handle(ctx, "MPI_COMM_WORLD", root.comm_world_handle, out) &&
         add_root_handle(ctx, "MPI_COMM_SELF", root.comm_self_handle, out) &&
         add_root_handle(ctx, "MPI_COMM_NULL", root.comm_null_handle, out);
}

// false: out of memory; *known false: not a handle kind.
bool collect(const QueryContext& ctx, int kind, plugin::Vec<Named>* out, bool* known) {
  const mpidbg_root& root = ctx.snapshot->root;
  const plugin::ObjectSnapshot& o = *ctx.objects;
  *known = true;
  switch (kind) {
    case MPIDBG_HANDLE_COMM:
      return add_comms(ctx, out);
    case MPIDBG_HANDLE_REQUEST:
      return add_root_handle(ctx, "MPI_REQUEST_NULL", root.request_null_handle, out);
    case MPIDBG_HANDLE_DATATYPE:
      return add_predefined(o.datatypes, out) &&
             add_root_handle(ctx, "MPI_DATATYPE_NULL", root.datatype_null_handle, out);
    case MPIDBG_HANDLE_GROUP:
      return add_predefined(o.groups, out) &&
             add_root_handle(ctx, "MPI_GROUP_EMPTY", root.group_empty_handle, out) &&
             add_root_handle(ctx, "MPI_GROUP_NULL", root.group_null_handle, out);
    case MPIDBG_HANDLE_OP:
      return add_predefined(o.reduce_ops, out) &&
             add_root_handle(ctx, "MPI_OP_NULL", root.reduce_op_null_handle, out);
    case MPIDBG_HANDLE_ERRHANDLER:
      return add_predefined(o.errhandlers, out) &&
             add_root_handle(ctx, "MPI_ERRHANDLER_NULL", root.errhandler_null_handle, out);
    case MPIDBG_HANDLE_INFO:
      return add_predefined(o.infos, out) &&
             add_root_handle(ctx, "MPI_INFO_NULL", root.info_null_handle, out);
    case MPIDBG_HANDLE_WIN:
      return add_predefined(o.windows, out) &&
             add_root_handle(ctx, "MPI_WIN_NULL", root.win_null_handle, out);
    case MPIDBG_HANDLE_FILE:
      return add_predefined(o.files, out) &&
             add_root_handle(ctx, "MPI_FILE_NULL", root.file_null_handle, out);
    case MPIDBG_HANDLE_MESSAGE:
      return add_predefined(o.messages, out) &&
             add_root_handle(ctx, "MPI_MESSAGE_NO_PROC", root.message_no_proc_handle, out) &&
             add_root_handle(ctx, "MPI_MESSAGE_NULL", root.message_null_handle, out);
    case MPIDBG_HANDLE_SESSION:
      return add_predefined(o.sessions, out);
    default:
      *known = false;
      return true;
  }
}

}  // namespace

int build_name_map(const QueryContext& ctx, int kind, mpidbg_name_map_t** out) {
  *out = nullptr;
  plugin::Vec<Named> named;
  bool known = true;
  if (!collect(ctx, kind, &named, &known)) return MPIDBG_ERR_NO_MEM;
  if (!known) return MPIDBG_ERR_OUT_OF_RANGE;
  auto* map = static_cast<mpidbg_name_map_t*>(
      result_alloc((named.size() + 1) * sizeof(mpidbg_name_map_t)));
  if (map == nullptr) return MPIDBG_ERR_NO_MEM;
  std::memset(static_cast<void*>(map), 0, (named.size() + 1) * sizeof(mpidbg_name_map_t));
  for (size_t i = 0; i < named.size(); ++i) {
    bool ok = true;
    map[i].map_name = copy_string(named[i].name, &ok);
    if (!ok) {
      free_name_map(map);
      return MPIDBG_ERR_NO_MEM;
    }
    map[i].map_handle = static_cast<mqs_taddr_t>(named[i].handle);
  }
  *out = map;
  return MPIDBG_SUCCESS;
}

void free_name_map(mpidbg_name_map_t* map) {
  if (map == nullptr) return;
  for (mpidbg_name_map_t* m = map; m->map_name != nullptr; ++m) result_free(m->map_name);
  result_free(map);
}

}  // namespace mpidbg::handles

MPIDBG_EXPORT int mpidbg_name_map_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                        mqs_process_info* process_info, int kind,
                                        struct mpidbg_name_map_t** map) {
  if (map == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *map = nullptr;
  mpidbg::handles::QueryContext ctx;
  const int rc = mpidbg::handles::open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  return mpidbg::handles::build_name_map(ctx, kind, map);
}
