// mq_session.cc — the set-up half of the message-queue call order.
#include "host/plugin_host/mq_session.h"

namespace mpidbg::host {
namespace {

// A has_queues message may contain one %s for the image name.
std::string FormatDllMessage(const char* message, const std::string& image_name) {
  if (message == nullptr) return "";
  std::string text(message);
  size_t pos = text.find("%s");
  if (pos != std::string::npos) text.replace(pos, 2, image_name);
  return text;
}

}  // namespace

MqSession::MqSession(const MqDll* dll, TargetContext* ctx) : dll_(dll), ctx_(ctx) {
  image_.ctx = ctx;
  process_.ctx = ctx;
  process_.image = &image_;
}

Result<std::unique_ptr<MqSession>> MqSession::Start(const MqDll* dll, TargetContext* ctx,
                                                    const std::string& image_name) {
  std::unique_ptr<MqSession> s(new MqSession(dll, ctx));
  const MqFunctions& f = dll->mqs();
  int rc = f.setup_image(&s->image_, ImageCallbacks());
  if (rc != mqs_ok) {
    return Status::NoSupport("the message-queue DLL " + dll->path() +
                             " cannot set up the image: " + s->Explain(rc));
  }
  s->image_set_up_ = true;
  char* message = nullptr;
  rc = f.image_has_queues(&s->image_, &message);
  if (rc != mqs_ok) {
    std::string why = FormatDllMessage(message, image_name);
    return Status::NoSupport("the message-queue DLL " + dll->path() + " finds no queues in " +
                             image_name + ": " + (why.empty() ? s->Explain(rc) : why));
  }
  rc = f.setup_process(&s->process_, ProcessCallbacks());
  if (rc != mqs_ok) {
    return Status::NoSupport("the message-queue DLL " + dll->path() +
                             " cannot set up the process: " + s->Explain(rc));
  }
  s->process_set_up_ = true;
  message = nullptr;
  rc = f.process_has_queues(&s->process_, &message);
  if (rc != mqs_ok) {
    std::string why = FormatDllMessage(message, image_name);
    return Status::NoSupport("the message-queue DLL " + dll->path() +
                             " finds no queues in the process: " +
                             (why.empty() ? s->Explain(rc) : why));
  }
  return s;
}

MqSession::~MqSession() {
  const MqFunctions& f = dll_->mqs();
  if (process_set_up_ && process_.info != nullptr) f.destroy_process_info(process_.info);
  if (image_set_up_ && image_.info != nullptr) f.destroy_image_info(image_.info);
}

std::string MqSession::Explain(int code) const {
  std::string text = dll_->ErrorString(code);
  if (code == kHostErrRead && !ctx_->last_read_error.empty()) {
    text += " (" + ctx_->last_read_error + ")";
  }
  return text;
}

}  // namespace mpidbg::host
