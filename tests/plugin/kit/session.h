// session.h — a debugger session with the plugin over one fake process: set-up in the
// Forum's order, the full communicator/queue walk, tear-down.
#ifndef MPIDBG_TESTS_PLUGIN_SESSION_H
#define MPIDBG_TESTS_PLUGIN_SESSION_H

#include <string>
#include <vector>

#include "fake_target.h"
#include "plugin_api.h"

namespace mpidbg::test {

struct WalkedComm {
  mqs_communicator comm{};
  int group_rc = -1;
  std::vector<int> group;
  int detail_rc = -1;
  mpidbg_comm_detail detail{};
  std::vector<mqs_pending_operation> sends;
  std::vector<mqs_pending_operation> receives;
  std::vector<mpidbg_operation_info> send_details;
  std::vector<mpidbg_operation_info> receive_details;
  int unexpected_rc = -1;
};

class Session {
 public:
  explicit Session(FakeTarget* target);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Basic callbacks, version checks, image and process set-up. Returns the first
  // failing call's result (mqs_ok when all succeeded); has-queues messages are kept.
  int start();

  // update + the whole communicator/operation walk the way a debugger does it.
  // Returns the update's result; the walk is empty when it failed.
  int walk(std::vector<WalkedComm>* out);

  const PluginApi& api() const { return plugin(); }
  mqs_process* process() { return debugger.process(); }
  mqs_image* image() { return debugger.image(); }
  std::string error(int code) const;

  FakeDebugger debugger;
  std::string image_message;    // from mqs_image_has_queues, when it failed
  std::string process_message;  // from mqs_process_has_queues, when it failed
  int image_has_queues_rc = -1;
  int process_has_queues_rc = -1;
};

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_SESSION_H
