#include "session.h"

#include <gtest/gtest.h>

namespace mpidbg::test {

Session::Session(FakeTarget* target) : debugger(target) {}

Session::~Session() {
  const PluginApi& p = plugin();
  if (debugger.process_info != nullptr) p.mqs_destroy_process_info(debugger.process_info);
  if (debugger.image_info != nullptr) p.mqs_destroy_image_info(debugger.image_info);
}

std::string Session::error(int code) const {
  const char* text = plugin().mqs_dll_error_string(code);
  return text != nullptr ? text : "(null)";
}

int Session::start() {
  const PluginApi& p = plugin();
  p.mqs_setup_basic_callbacks(FakeDebugger::basic_callbacks());
  if (p.mqs_version_compatibility() != MQS_INTERFACE_COMPATIBILITY) return -1;
  if (p.mqs_dll_taddr_width() != static_cast<int>(sizeof(mqs_taddr_t))) return -1;
  int rc = p.mqs_setup_image(image(), FakeDebugger::image_callbacks());
  if (rc != mqs_ok) return rc;
  char* message = nullptr;
  image_has_queues_rc = p.mqs_image_has_queues(image(), &message);
  if (message != nullptr) image_message = message;
  rc = p.mqs_setup_process(process(), FakeDebugger::process_callbacks());
  if (rc != mqs_ok) return rc;
  message = nullptr;
  process_has_queues_rc = p.mqs_process_has_queues(process(), &message);
  if (message != nullptr) process_message = message;
  if (image_has_queues_rc != mqs_ok) return image_has_queues_rc;
  return process_has_queues_rc;
}

namespace {

void drain(const PluginApi& p, mqs_process* process, int op_class,
           std::vector<mqs_pending_operation>* ops, std::vector<mpidbg_operation_info>* details) {
  ASSERT_EQ(p.mqs_setup_operation_iterator(process, op_class), mqs_ok);
  for (int guard = 0; guard < 100000; ++guard) {
    mqs_pending_operation op;
    const int rc = p.mqs_next_operation(process, &op);
    if (rc == mqs_end_of_list) return;
    ASSERT_EQ(rc, mqs_ok);
    ops->push_back(op);
    mpidbg_operation_info info{};
    info.size = sizeof info;
    ASSERT_EQ(p.mpidbg_operation_get_detail(process, &info), mqs_ok);
    details->push_back(info);
  }
  FAIL() << "operation iterator does not end";
}

}  // namespace

int Session::walk(std::vector<WalkedComm>* out) {
  const PluginApi& p = plugin();
  out->clear();
  const int rc = p.mqs_update_communicator_list(process());
  if (rc != mqs_ok) return rc;
  EXPECT_EQ(p.mqs_setup_communicator_iterator(process()), mqs_ok);
  mqs_communicator comm;
  for (int guard = 0; guard < 100000 && p.mqs_get_communicator(process(), &comm) == mqs_ok;
       ++guard) {
    WalkedComm w;
    w.comm = comm;
    if (comm.size >= 0 && comm.size < (1 << 20)) {
      w.group.assign(static_cast<size_t>(comm.size), -99);
      w.group_rc = p.mqs_get_comm_group(process(), w.group.data());
    }
    w.detail.size = sizeof w.detail;
    w.detail_rc = p.mpidbg_comm_get_detail(process(), &w.detail);
    drain(p, process(), mqs_pending_sends, &w.sends, &w.send_details);
    drain(p, process(), mqs_pending_receives, &w.receives, &w.receive_details);
    w.unexpected_rc = p.mqs_setup_operation_iterator(process(), mqs_unexpected_messages);
    out->push_back(std::move(w));
    if (p.mqs_next_communicator(process()) != mqs_ok) break;
  }
  return mqs_ok;
}

}  // namespace mpidbg::test
