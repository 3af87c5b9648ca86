// handle_session.cc — the set-up half of the handle interface's call order.
#include "host/plugin_host/handle_session.h"

namespace mpidbg::host {

HandleSession::HandleSession(const HandleDll* dll, TargetContext* ctx) : dll_(dll), ctx_(ctx) {
  image_.ctx = ctx;
  process_.ctx = ctx;
  process_.image = &image_;
}

Result<std::unique_ptr<HandleSession>> HandleSession::Start(const HandleDll* dll,
                                                            TargetContext* ctx) {
  std::unique_ptr<HandleSession> s(new HandleSession(dll, ctx));
  const HandleFunctions& f = dll->fn();
  int rc = f.init_per_image(&s->image_, ImageCallbacks(), &s->types_);
  if (rc != MPIDBG_SUCCESS) {
    return Status::NoSupport("the DLL " + dll->path() +
                             " cannot set up the image for handle "
                             "queries: " +
                             HandleErrorString(rc));
  }
  s->image_set_up_ = true;
  rc = f.init_per_process(&s->process_, ProcessCallbacks(), &s->types_);
  if (rc != MPIDBG_SUCCESS) {
    std::string why = HandleErrorString(rc);
    if (!ctx->last_read_error.empty()) why += " (" + ctx->last_read_error + ")";
    return Status::NoSupport("the DLL " + dll->path() +
                             " cannot set up the process for "
                             "handle queries: " +
                             why);
  }
  s->process_set_up_ = true;
  return s;
}

HandleSession::~HandleSession() {
  const HandleFunctions& f = dll_->fn();
  if (process_set_up_ && f.finalize_per_process != nullptr) {
    f.finalize_per_process(&process_, process_.info);
  }
  if (image_set_up_ && f.finalize_per_image != nullptr) {
    f.finalize_per_image(&image_, image_.info);
  }
}

HandleCalls HandleSession::calls() {
  HandleCalls c;
  c.fn = &dll_->fn();
  c.image = image();
  c.image_info = image_info();
  c.process = process();
  c.process_info = process_info();
  c.release = BasicCallbacks()->mqs_free_fp;
  c.dll_path = dll_->path();
  TargetContext* ctx = ctx_;
  c.last_read_error = [ctx] { return ctx->last_read_error; };
  return c;
}

}  // namespace mpidbg::host
