// handle_session.h — one target set up in a DLL's handle interface: the image and
// process objects (the same debugger-side objects the message-queue callbacks use),
// mpidbg_init_per_image / mpidbg_init_per_process, and their finalisation.
#pragma once

#include <memory>

#include "host/plugin_host/handle_dll.h"
#include "host/plugin_host/handle_query.h"
#include "host/plugin_host/mq_callbacks.h"

namespace mpidbg::host {

class HandleSession {
 public:
  // A refusal of either init call is "no MPI debugging support" with its reason.
  static Result<std::unique_ptr<HandleSession>> Start(const HandleDll* dll, TargetContext* ctx);
  ~HandleSession();
  HandleSession(const HandleSession&) = delete;
  HandleSession& operator=(const HandleSession&) = delete;

  const HandleFunctions& fn() const { return dll_->fn(); }
  const HandleDll& dll() const { return *dll_; }
  // The four leading arguments of every query.
  mqs_image* image() { return &image_; }
  mqs_image_info* image_info() { return image_.info; }
  mqs_process* process() { return &process_; }
  mqs_process_info* process_info() { return process_.info; }
  const mpidbg_handle_info_t& handle_types() const { return types_; }
  // The message of the last failed target read, "" when none failed.
  const std::string& last_read_error() const { return ctx_->last_read_error; }
  // What HandleQuery runs against: this session, freed with the host's mqs_free.
  HandleCalls calls();

 private:
  HandleSession(const HandleDll* dll, TargetContext* ctx);
  const HandleDll* dll_;
  TargetContext* ctx_;
  mqs_image_ image_;
  mqs_process_ process_;
  mpidbg_handle_info_t types_{};
  bool image_set_up_ = false;
  bool process_set_up_ = false;
};

}  // namespace mpidbg::host
