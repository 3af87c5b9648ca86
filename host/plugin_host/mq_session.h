// mq_session.h — one target set up in one message-queue DLL: image and process
// objects, their DLL-side info released when the session ends.
#pragma once

#include <memory>
#include <string>

#include "host/plugin_host/mq_callbacks.h"
#include "host/plugin_host/mq_dll.h"

namespace mpidbg::host {

class MqSession {
 public:
  // mqs_setup_image, mqs_image_has_queues, mqs_setup_process, mqs_process_has_queues.
  // A refusal is "no MPI debugging support" with the DLL's own message.
  static Result<std::unique_ptr<MqSession>> Start(const MqDll* dll, TargetContext* ctx,
                                                  const std::string& image_name);
  ~MqSession();
  MqSession(const MqSession&) = delete;
  MqSession& operator=(const MqSession&) = delete;

  mqs_process* process() { return &process_; }
  const MqDll& dll() const { return *dll_; }
  // The DLL's text for `code`, with the last memory read failure when that is the cause.
  std::string Explain(int code) const;

 private:
  MqSession(const MqDll* dll, TargetContext* ctx);
  const MqDll* dll_;
  TargetContext* ctx_;
  mqs_image_ image_;
  mqs_process_ process_;
  bool image_set_up_ = false;
  bool process_set_up_ = false;
};

}  // namespace mpidbg::host
