// The mqs call sequence at its edges: calls out of order, past the end, a process without
// the runtime, error strings, memory given back, compatibility with older and newer
// runtimes.
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

using testing::HasSubstr;

const TargetKind kLe8 = kTargetKinds[0];

class CallSequence : public testing::Test {
 protected:
  void SetUp() override {
    scenario_ = build_main_scenario(kLe8, 4);
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok);
  }
  const PluginApi& p() { return plugin(); }
  mqs_process* proc() { return session_->process(); }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

TEST_F(CallSequence, IteratorsBeforeUpdateAreOutOfOrder) {
  mqs_communicator comm;
  const int rc = p().mqs_setup_communicator_iterator(proc());
  EXPECT_GE(rc, mqs_first_user_code);
  EXPECT_THAT(session_->error(rc), HasSubstr("out of order"));
  EXPECT_GE(p().mqs_get_communicator(proc(), &comm), mqs_first_user_code);
  EXPECT_GE(p().mqs_next_communicator(proc()), mqs_first_user_code);
  EXPECT_GE(p().mqs_setup_operation_iterator(proc(), mqs_pending_sends), mqs_first_user_code);
  mqs_pending_operation op;
  EXPECT_GE(p().mqs_next_operation(proc(), &op), mqs_first_user_code);
}

TEST_F(CallSequence, CommunicatorIteratorPastTheEnd) {
  ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  int listed = 1;
  while (p().mqs_next_communicator(proc()) == mqs_ok) ++listed;
  EXPECT_EQ(listed, 6);
  mqs_communicator comm;
  int rc = p().mqs_get_communicator(proc(), &comm);
  EXPECT_GE(rc, mqs_first_user_code);
  EXPECT_THAT(session_->error(rc), HasSubstr("no current communicator"));
  int group[8];
  EXPECT_GE(p().mqs_get_comm_group(proc(), group), mqs_first_user_code);
  EXPECT_GE(p().mqs_setup_operation_iterator(proc(), mqs_pending_sends), mqs_first_user_code);
  rc = p().mqs_next_communicator(proc());
  EXPECT_GE(rc, mqs_first_user_code);
  EXPECT_THAT(session_->error(rc), HasSubstr("past end"));
  EXPECT_GE(p().mqs_next_communicator(proc()), mqs_first_user_code);
  // A new iteration starts over.
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  ASSERT_EQ(p().mqs_get_communicator(proc(), &comm), mqs_ok);
  EXPECT_STREQ(comm.name, "MPI_COMM_WORLD");
}

TEST_F(CallSequence, OperationIteratorPastTheEnd) {
  ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  mqs_pending_operation op;
  EXPECT_GE(p().mqs_next_operation(proc(), &op), mqs_first_user_code);  // not set up
  ASSERT_EQ(p().mqs_setup_operation_iterator(proc(), mqs_pending_sends), mqs_ok);
  ASSERT_EQ(p().mqs_next_operation(proc(), &op), mqs_ok);
  ASSERT_EQ(p().mqs_next_operation(proc(), &op), mqs_ok);
  EXPECT_EQ(p().mqs_next_operation(proc(), &op), mqs_end_of_list);
  const int rc = p().mqs_next_operation(proc(), &op);
  EXPECT_GE(rc, mqs_first_user_code);
  EXPECT_THAT(session_->error(rc), HasSubstr("past end"));
  EXPECT_GE(p().mqs_setup_operation_iterator(proc(), 7), mqs_first_user_code);
  EXPECT_EQ(p().mqs_setup_operation_iterator(proc(), mqs_unexpected_messages), mqs_no_information);
  EXPECT_GE(p().mqs_next_operation(proc(), &op), mqs_first_user_code);
}

TEST_F(CallSequence, EveryCodeHasAMessage) {
  for (int code = 0; code < 3; ++code) EXPECT_FALSE(session_->error(code).empty());
  for (int code = mqs_first_user_code; code < mqs_first_user_code + 14; ++code) {
    const std::string text = session_->error(code);
    EXPECT_FALSE(text.empty());
    EXPECT_THAT(text, testing::Not(HasSubstr("unknown"))) << code;
  }
  EXPECT_THAT(session_->error(99999), HasSubstr("unknown"));
}

TEST(NoRuntime, SaysWhatWasLookedFor) {
  FakeTarget target(8, false);
  target.map(0x400000, 4096);
  const long before = FakeDebugger::live_allocations();
  {
    Session session(&target);
    const int rc = session.start();
    EXPECT_GE(rc, mqs_first_user_code);
    EXPECT_NE(session.image_has_queues_rc, mqs_ok);
    EXPECT_THAT(session.image_message, HasSubstr("%s"));
    EXPECT_THAT(session.image_message, HasSubstr(MPIDBG_ROOT_SYMBOL));
    EXPECT_NE(session.process_has_queues_rc, mqs_ok);
    EXPECT_THAT(session.process_message,
                HasSubstr("no mpidbg runtime in this process: symbol mpidbg_runtime_root not found"));
    EXPECT_THAT(session.error(session.process_has_queues_rc), HasSubstr(MPIDBG_ROOT_SYMBOL));
    std::vector<WalkedComm> comms;
    EXPECT_NE(session.walk(&comms), mqs_ok);
    EXPECT_TRUE(comms.empty());
    int count = -1;
    EXPECT_NE(plugin().mpidbg_thread_count(session.process(), &count), mqs_ok);
  }
  EXPECT_EQ(FakeDebugger::live_allocations(), before);
}

TEST(Memory, EverythingGoesBackToTheDebugger) {
  const long before = FakeDebugger::live_allocations();
  {
    Scenario s = build_main_scenario(kLe8, 8);
    Session session(s.target.get());
    ASSERT_EQ(session.start(), mqs_ok);
    std::vector<WalkedComm> comms;
    ASSERT_EQ(session.walk(&comms), mqs_ok);
    ASSERT_EQ(session.walk(&comms), mqs_ok);
    EXPECT_GT(FakeDebugger::live_allocations(), before);
  }
  EXPECT_EQ(FakeDebugger::live_allocations(), before);
}

TEST(ByteOrder, RootMagicCorrectsAConfusedDebugger) {
  for (const TargetKind& kind : kTargetKinds) {
    Scenario s = build_main_scenario(kind, 4);
    Session session(s.target.get());
    session.debugger.lie_about_byte_order = true;
    ASSERT_EQ(session.start(), mqs_ok) << kind.name;
    std::vector<WalkedComm> comms;
    ASSERT_EQ(session.walk(&comms), mqs_ok);
    ASSERT_EQ(comms.size(), 6u) << kind.name;
    EXPECT_EQ(comms[0].group, (std::vector<int>{0, 1, 2, 3})) << kind.name;
  }
}

TEST(Compatibility, NewerRuntimeWithLargerRecordsAndVersion) {
  ImageBuilder::Options options;
  options.extra_record_bytes = 24;
  options.slab_header_size = 128;
  FakeTarget target(8, true);
  ImageBuilder b(&target, 0x7f0000000000, options);
  b.root.layout_version = MPIDBG_LAYOUT_VERSION + 1;
  b.root.comm_world_handle = 0x44000000;
  const uint64_t ranks = b.add_int32_array({0, 1});
  mpidbg_comm_record world = make_comm(0x44000000, 1, 0, 2, ranks, 1, "");
  world.hdr.size = sizeof(mpidbg_comm_record) + 24;  // written with fields we do not know
  b.add_comm(world);
  b.commit();
  Session session(&target);
  ASSERT_EQ(session.start(), mqs_ok);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(session.walk(&comms), mqs_ok);
  ASSERT_EQ(comms.size(), 1u);
  EXPECT_STREQ(comms[0].comm.name, "MPI_COMM_WORLD");
  EXPECT_EQ(comms[0].group, (std::vector<int>{0, 1}));
}

TEST(Compatibility, OlderRuntimeWithShorterRootAndRecords) {
  FakeTarget target(4, false);
  ImageBuilder::Options options;
  options.root_bytes = offsetof(mpidbg_root, mpi_library);  // an older root ended here
  ImageBuilder b(&target, 0x20000000, options);
  std::strcpy(b.root.hostname, "not in the older root");
  b.root.size = options.root_bytes;
  const uint64_t ranks = b.add_int32_array({0});
  mpidbg_comm_record c = make_comm(0x10, 1, 0, 1, ranks, 1, "named");
  // Written only up to `name`: the name reads as empty, the rest as written.
  c.hdr.size = offsetof(mpidbg_comm_record, name);
  b.add_comm(c);
  b.commit();
  Session session(&target);
  ASSERT_EQ(session.start(), mqs_ok);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(session.walk(&comms), mqs_ok);
  ASSERT_EQ(comms.size(), 1u);
  EXPECT_STREQ(comms[0].comm.name, "comm 0x10");
  EXPECT_EQ(comms[0].comm.size, 1);
  mpidbg_process_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(plugin().mpidbg_process_get_summary(session.process(), &s), mqs_ok);
  EXPECT_STREQ(s.hostname, "");
}

}  // namespace
}  // namespace mpidbg::test
