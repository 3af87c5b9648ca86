// handles_session.h — a debugger session with the plugin's handle interface over one
// fake process: set-up in the interface's order (init_once, per image, per process),
// queries with the image and process infos the DLL attached, results freed the way a
// debugger frees them (every non-NULL pointer member, strings of structure arrays
// first, then the structure, all with mqs_free), tear-down.
#ifndef MPIDBG_TESTS_PLUGIN_HANDLES_SESSION_H
#define MPIDBG_TESTS_PLUGIN_HANDLES_SESSION_H

#include "fake_target.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin_api.h"
#include "result_freeing.h"

namespace mpidbg::test {

// mqs_free of the debugger's callbacks (null pointers are skipped).
inline void debugger_free(void* p) {
  if (p != nullptr) FakeDebugger::basic_callbacks()->mqs_free_fp(p);
}

inline void free_comm_members(mpidbg_comm_info_t* c) { free_comm_members(c, debugger_free); }

inline void free_comm_info(mpidbg_comm_info_t* c) {
  if (c == nullptr) return;
  free_comm_members(c);
  debugger_free(c);
}

inline void free_comm_ext_info(mpidbg_comm_ext_info_t* c) {
  if (c == nullptr) return;
  free_comm_members(&c->base);
  debugger_free(c->dist_sources);
  debugger_free(c->dist_destinations);
  debugger_free(c);
}

inline void free_errhandler_info(mpidbg_errhandler_info_t* e) {
  if (e == nullptr) return;
  debugger_free(e->eh_handles);
  debugger_free(e);
}

inline void free_name_map(mpidbg_name_map_t* map) { free_name_map(map, debugger_free); }

class HandleSession {
 public:
  explicit HandleSession(FakeTarget* target) : debugger(target) {}
  ~HandleSession() { finish(); }
  HandleSession(const HandleSession&) = delete;
  HandleSession& operator=(const HandleSession&) = delete;

  // init_once, per image, per process; the first failing result, else MPIDBG_SUCCESS.
  // Types found are left in image_types / process_types.
  int start() {
    const PluginApi& p = api();
    int rc = p.mpidbg_init_once(FakeDebugger::basic_callbacks());
    if (rc != MPIDBG_SUCCESS) return rc;
    rc = p.mpidbg_init_per_image(debugger.image(), FakeDebugger::image_callbacks(), &image_types);
    if (rc != MPIDBG_SUCCESS) return rc;
    image_up = true;
    rc = p.mpidbg_init_per_process(debugger.process(), FakeDebugger::process_callbacks(),
                                   &process_types);
    if (rc != MPIDBG_SUCCESS) return rc;
    process_up = true;
    return MPIDBG_SUCCESS;
  }

  void finish() {
    const PluginApi& p = api();
    if (process_up) p.mpidbg_finalize_per_process(debugger.process(), debugger.process_info);
    if (image_up) p.mpidbg_finalize_per_image(debugger.image(), debugger.image_info);
    process_up = image_up = false;
  }

  const PluginApi& api() const { return plugin(); }
  mqs_image* image() { return debugger.image(); }
  mqs_process* process() { return debugger.process(); }

  // The queries with this session's image and process and their infos.
  int comm(uint64_t handle, mpidbg_comm_info_t** out) {
    return api().mpidbg_comm_query(image(), debugger.image_info, process(), debugger.process_info,
                                   handle, out);
  }
  int comm_ext(uint64_t handle, mpidbg_comm_ext_info_t** out) {
    return api().mpidbg_comm_query_ext(image(), debugger.image_info, process(),
                                       debugger.process_info, handle, out);
  }
  int comm_f2c(uint64_t f77, mqs_taddr_t* out) {
    return api().mpidbg_comm_f2c(image(), debugger.image_info, process(), debugger.process_info,
                                 f77, out);
  }
  int request(uint64_t handle, mpidbg_request_info_t** out) {
    return api().mpidbg_request_query(image(), debugger.image_info, process(),
                                      debugger.process_info, handle, out);
  }
  int request_ext(uint64_t handle, mpidbg_request_ext_info_t** out) {
    return api().mpidbg_request_query_ext(image(), debugger.image_info, process(),
                                          debugger.process_info, handle, out);
  }
  int request_f2c(uint64_t f77, mqs_taddr_t* out) {
    return api().mpidbg_request_f2c(image(), debugger.image_info, process(),
                                    debugger.process_info, f77, out);
  }
  int status(uint64_t addr, mpidbg_status_info_t** out) {
    return api().mpidbg_status_query(image(), debugger.image_info, process(),
                                      debugger.process_info, addr, out);
  }
  int status_ext(uint64_t addr, mpidbg_status_ext_info_t** out) {
    return api().mpidbg_status_query_ext(image(), debugger.image_info, process(),
                                         debugger.process_info, addr, out);
  }
  int errhandler(uint64_t handle, mpidbg_errhandler_info_t** out) {
    return api().mpidbg_errhandler_query(image(), debugger.image_info, process(),
                                         debugger.process_info, handle, out);
  }
  int errhandler_f2c(uint64_t f77, mqs_taddr_t* out) {
    return api().mpidbg_errhandler_f2c(image(), debugger.image_info, process(),
                                       debugger.process_info, f77, out);
  }
  int name_map(int kind, mpidbg_name_map_t** out) {
    return api().mpidbg_name_map_query(image(), debugger.image_info, process(),
                                       debugger.process_info, kind, out);
  }

  FakeDebugger debugger;
  mpidbg_handle_info_t image_types{};
  mpidbg_handle_info_t process_types{};
  bool image_up = false;
  bool process_up = false;
};

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_HANDLES_SESSION_H
