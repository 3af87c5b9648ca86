// handle_setup.cc — the DLL-wide, per-image and per-process parts of the handle
// interface: callbacks, versions, the published data, set-up and tear-down.
//
// The image and process infos are the message-queue interface's (mqs/process_info.h),
// shared when the debugger drives both interfaces through this DLL.
#include <cstring>

#include "handles/query_support.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin/session.h"
#include "plugin/debugger_memory.h"
#include "plugin/errors.h"
#include "plugin/export.h"

#ifndef MPIDBG_VERSION_STRING
#define MPIDBG_VERSION_STRING "unknown"
#endif

namespace {

using mpidbg::plugin::InfoUser;
using namespace mpidbg::plugin;

char g_version[] = "mpidbg handle interface " MPIDBG_VERSION_STRING;

constexpr bool host_is_big_endian() {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return true;
#else
  return false;
#endif
}

// The process the published name maps describe (they are DLL-owned).
mqs_process_info* g_maps_owner = nullptr;

void free_published_maps() {
  mpidbg::handles::free_name_map(mpidbg_comm_name_map);
  mpidbg::handles::free_name_map(mpidbg_errhandler_name_map);
  mpidbg_comm_name_map = nullptr;
  mpidbg_errhandler_name_map = nullptr;
  g_maps_owner = nullptr;
}

// An empty map: the terminator alone, so a debugger can always walk it.
mpidbg_name_map_t* empty_map() {
  void* p = debugger_alloc(sizeof(mpidbg_name_map_t));
  if (p != nullptr) std::memset(p, 0, sizeof(mpidbg_name_map_t));
  return static_cast<mpidbg_name_map_t*>(p);
}

// Replaces the published maps with those of `info`'s process. Before MPI_Init (or
// when the runtime cannot be read yet) they are empty.
int publish_maps(mqs_process* process, mqs_process_info* info) {
  free_published_maps();
  mpidbg::handles::QueryContext ctx;
  const int open_rc = mpidbg::handles::open_query(process, info, &ctx);
  if (open_rc == MPIDBG_ERR_NO_MEM) return open_rc;
  if (open_rc == MPIDBG_SUCCESS) {
    int rc = mpidbg::handles::build_name_map(ctx, MPIDBG_HANDLE_COMM, &mpidbg_comm_name_map);
    if (rc == MPIDBG_SUCCESS) {
      rc = mpidbg::handles::build_name_map(ctx, MPIDBG_HANDLE_ERRHANDLER,
                                           &mpidbg_errhandler_name_map);
    }
    // The maps now belong to the DLL, not to a query result.
    mpidbg::handles::forget_result_allocations();
    if (rc != MPIDBG_SUCCESS) {
      free_published_maps();
      return rc;
    }
  } else {
    mpidbg_comm_name_map = empty_map();
    mpidbg_errhandler_name_map = empty_map();
    if (mpidbg_comm_name_map == nullptr || mpidbg_errhandler_name_map == nullptr) {
      free_published_maps();
      return MPIDBG_ERR_NO_MEM;
    }
  }
  g_maps_owner = info;
  return MPIDBG_SUCCESS;
}

struct TypeName {
  mqs_type* mpidbg_handle_info_t::*field;
  const char* name;
  mqs_lang_code lang;
};

const TypeName kTypeNames[] = {
    {&mpidbg_handle_info_t::hi_c_aint, "MPI_Aint", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_comm, "MPI_Comm", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_datatype, "MPI_Datatype", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_errhandler, "MPI_Errhandler", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_file, "MPI_File", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_group, "MPI_Group", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_info, "MPI_Info", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_offset, "MPI_Offset", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_op, "MPI_Op", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_request, "MPI_Request", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_status, "MPI_Status", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_c_win, "MPI_Win", mqs_lang_c},
    {&mpidbg_handle_info_t::hi_cxx_aint, "MPI::Aint", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_comm, "MPI::Comm", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_intracomm, "MPI::Intracomm", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_intercomm, "MPI::Intercomm", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_graphcomm, "MPI::Graphcomm", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_cartcomm, "MPI::Cartcomm", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_datatype, "MPI::Datatype", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_errhandler, "MPI::Errhandler", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_file, "MPI::File", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_group, "MPI::Group", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_info, "MPI::Info", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_offset, "MPI::Offset", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_op, "MPI::Op", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_request, "MPI::Request", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_prequest, "MPI::Prequest", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_grequest, "MPI::Grequest", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_status, "MPI::Status", mqs_lang_cplus},
    {&mpidbg_handle_info_t::hi_cxx_win, "MPI::Win", mqs_lang_cplus},
};

// The program's handle types as the debugger finds them; NULL where it finds none (a
// missing type is never an error: C++ bindings are gone, debug info may be absent).
void find_handle_types(mqs_image* image, const mqs_image_callbacks* cb,
                       mpidbg_handle_info_t* types) {
  if (types == nullptr) return;
  std::memset(types, 0, sizeof *types);
  if (cb == nullptr || cb->mqs_find_type_fp == nullptr) return;
  for (const TypeName& t : kTypeNames) {
    char name[32];
    std::strncpy(name, t.name, sizeof name - 1);
    name[sizeof name - 1] = '\0';
    types->*t.field = cb->mqs_find_type_fp(image, name, t.lang);
  }
}

int setup_code(int plugin_rc) {
  if (plugin_rc == kErrNoMemory) return MPIDBG_ERR_NO_MEM;
  if (plugin_rc == kErrOutOfOrder) return MPIDBG_ERR_UNAVAILABLE;
  return MPIDBG_ERR_NOT_SUPPORTED;
}

}  // namespace

// The data the interface publishes (declared extern "C" in mpidbg_handles.h).
#define MPIDBG_EXPORT_DATA __attribute__((visibility("default")))
MPIDBG_EXPORT_DATA char mpidbg_dll_is_big_endian = host_is_big_endian() ? 1 : 0;
MPIDBG_EXPORT_DATA char mpidbg_dll_bitness = static_cast<char>(sizeof(void*) * 8);
MPIDBG_EXPORT_DATA enum mpidbg_comm_capabilities_t mpidbg_comm_capabilities =
    static_cast<mpidbg_comm_capabilities_t>(0);
MPIDBG_EXPORT_DATA struct mpidbg_name_map_t* mpidbg_comm_name_map = nullptr;
MPIDBG_EXPORT_DATA enum mpidbg_errhandler_capabilities_t mpidbg_errhandler_capabilities =
    static_cast<mpidbg_errhandler_capabilities_t>(0);
MPIDBG_EXPORT_DATA struct mpidbg_name_map_t* mpidbg_errhandler_name_map = nullptr;
#undef MPIDBG_EXPORT_DATA

MPIDBG_EXPORT int mpidbg_init_once(const mqs_basic_callbacks* callbacks) {
  if (callbacks == nullptr) return MPIDBG_ERR_NOT_SUPPORTED;
  set_basic_callbacks(callbacks);
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_interface_version_compatibility(void) { return MPIDBG_INTERFACE_VERSION; }

MPIDBG_EXPORT char* mpidbg_version_string(void) { return g_version; }

MPIDBG_EXPORT int mpidbg_dll_taddr_width(void) { return static_cast<int>(sizeof(mqs_taddr_t)); }

MPIDBG_EXPORT int mpidbg_handle_ext_version(void) { return MPIDBG_HANDLE_EXT_VERSION; }

MPIDBG_EXPORT int mpidbg_init_per_image(mqs_image* image, const mqs_image_callbacks* callbacks,
                                        struct mpidbg_handle_info_t* handle_types) {
  if (handle_types != nullptr) std::memset(handle_types, 0, sizeof *handle_types);
  if (basic_callbacks() == nullptr || callbacks == nullptr) return MPIDBG_ERR_NOT_SUPPORTED;
  TargetAddr root;
  if (find_runtime_root(image, callbacks, &root) != mqs_ok) return MPIDBG_ERR_NOT_SUPPORTED;
  _mqs_image_info* info = nullptr;
  const int rc = mpidbg::plugin::acquire_image_info(image, callbacks, InfoUser::kHandles, &info);
  if (rc != mqs_ok) return setup_code(rc);
  find_handle_types(image, callbacks, handle_types);
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT void mpidbg_finalize_per_image(mqs_image* image, mqs_image_info* image_info) {
  if (image_info == nullptr) {
    const mqs_basic_callbacks* basic = basic_callbacks();
    if (basic == nullptr || basic->mqs_get_image_info_fp == nullptr) return;
    image_info = basic->mqs_get_image_info_fp(image);
  }
  mpidbg::plugin::release_image_info(image_info, InfoUser::kHandles);
}

MPIDBG_EXPORT int mpidbg_init_per_process(mqs_process* process,
                                          const mqs_process_callbacks* callbacks,
                                          struct mpidbg_handle_info_t* handle_types) {
  if (handle_types != nullptr) std::memset(handle_types, 0, sizeof *handle_types);
  _mqs_process_info* info = nullptr;
  int rc = mpidbg::plugin::acquire_process_info(process, callbacks, InfoUser::kHandles, &info);
  if (rc != mqs_ok) return setup_code(rc);
  mpidbg::plugin::ProcessSession* ps = &info->state;
  rc = mpidbg::plugin::ensure_root(ps);
  if (rc == kErrNoRuntime || rc == kErrNoCallbacks) {
    mpidbg::plugin::release_process_info(info, InfoUser::kHandles);
    return MPIDBG_ERR_NOT_SUPPORTED;
  }
  // A root not readable yet (a process stopped before its libraries are mapped) is
  // not a failure: the queries answer MPIDBG_ERR_UNAVAILABLE until it is.
  find_handle_types(ps->image, &ps->image_cb, handle_types);
  mpidbg_comm_capabilities = static_cast<mpidbg_comm_capabilities_t>(
      MPIDBG_COMM_CAP_BASIC | MPIDBG_COMM_CAP_STRING_NAMES | MPIDBG_COMM_CAP_FREED_HANDLE |
      MPIDBG_COMM_CAP_FREED_OBJECT | MPIDBG_COMM_CAP_REQUEST_LIST | MPIDBG_COMM_CAP_WINDOW_LIST |
      MPIDBG_COMM_CAP_FILE_LIST);
  mpidbg_errhandler_capabilities = static_cast<mpidbg_errhandler_capabilities_t>(
      MPIDBG_ERRH_CAP_BASIC | MPIDBG_ERRH_CAP_STRING_NAMES | MPIDBG_ERRH_CAP_FREED_HANDLE |
      MPIDBG_ERRH_CAP_FREED_OBJECT | MPIDBG_ERRH_CAP_HANDLE_LIST);
  rc = publish_maps(process, info);
  if (rc != MPIDBG_SUCCESS) {
    mpidbg::plugin::release_process_info(info, InfoUser::kHandles);
    return rc;
  }
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT void mpidbg_finalize_per_process(mqs_process* process,
                                               mqs_process_info* process_info) {
  if (process_info == nullptr) {
    const mqs_basic_callbacks* basic = basic_callbacks();
    if (basic == nullptr || basic->mqs_get_process_info_fp == nullptr) return;
    process_info = basic->mqs_get_process_info_fp(process);
  }
  if (!mpidbg::plugin::is_live_process_info(process_info)) return;
  if (process_info == g_maps_owner) free_published_maps();
  // The handle side's caches go now even when the mqs side keeps the info.
  mpidbg::plugin::ProcessSession& ps = process_info->state;
  debugger_delete(ps.handle_snapshot);
  ps.handle_snapshot = nullptr;
  debugger_delete(ps.objects);
  ps.objects = nullptr;
  mpidbg::plugin::release_process_info(process_info, InfoUser::kHandles);
  if (!mpidbg::plugin::any_process_info()) {
    free_published_maps();
    mpidbg::plugin::release_result_tracking();
  }
}
