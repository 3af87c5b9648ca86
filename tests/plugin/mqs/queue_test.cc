// The main scenario through the message-queue interface, on every kind of target.
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

class MqsQueues : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    scenario_ = build_main_scenario(GetParam().kind, GetParam().handle_size);
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok) << session_->process_message;
    ASSERT_EQ(session_->walk(&comms_), mqs_ok);
  }

  const WalkedComm& comm_named(const std::string& name) {
    for (const WalkedComm& c : comms_) {
      if (name == c.comm.name) return c;
    }
    ADD_FAILURE() << "no communicator named " << name;
    static WalkedComm none;
    return none;
  }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
  std::vector<WalkedComm> comms_;
};

bool has_line(const mqs_pending_operation& op, const std::string& text) {
  for (const auto& line : op.extra_text) {
    if (std::string(line).find(text) != std::string::npos) return true;
  }
  return false;
}

TEST_P(MqsQueues, VersionAndWidth) {
  const PluginApi& p = plugin();
  EXPECT_THAT(std::string(p.mqs_version_string()), HasSubstr("mpidbg message-queue plugin"));
  EXPECT_EQ(p.mqs_version_compatibility(), MQS_INTERFACE_COMPATIBILITY);
  EXPECT_EQ(p.mqs_dll_taddr_width(), 8);
}

TEST_P(MqsQueues, CommunicatorsInCreationOrderWithNamesAndIds) {
  std::vector<std::string> names;
  for (const WalkedComm& c : comms_) names.emplace_back(c.comm.name);
  EXPECT_EQ(names, (std::vector<std::string>{"MPI_COMM_WORLD", "MPI_COMM_SELF",
                                             "comm 0x84000002 from MPI_Comm_dup", "evens", "inter",
                                             "busy (freed)"}));
  ASSERT_EQ(comms_.size(), 6u);
  EXPECT_EQ(comms_[0].comm.unique_id, kWorldJob);
  EXPECT_EQ(comms_[0].comm.local_rank, 1);
  EXPECT_EQ(comms_[0].comm.size, 4);
  EXPECT_EQ(comms_[1].comm.unique_id, kSelfJob);
  EXPECT_EQ(comms_[1].comm.size, 1);
  EXPECT_EQ(comms_[3].comm.unique_id, kSplitJob);
  EXPECT_EQ(comms_[3].comm.local_rank, 0);
  EXPECT_EQ(comms_[3].comm.size, 2);
}

TEST_P(MqsQueues, GroupsAreWorldRanks) {
  EXPECT_EQ(comm_named("MPI_COMM_WORLD").group_rc, mqs_ok);
  EXPECT_EQ(comm_named("MPI_COMM_WORLD").group, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(comm_named("MPI_COMM_SELF").group, (std::vector<int>{1}));
  EXPECT_EQ(comm_named("evens").group, (std::vector<int>{1, 3}));
  EXPECT_EQ(comm_named("inter").group, (std::vector<int>{1, 3}));
}

TEST_P(MqsQueues, SendsInPostingOrder) {
  const WalkedComm& world = comm_named("MPI_COMM_WORLD");
  ASSERT_EQ(world.sends.size(), 2u);  // the inactive persistent send is not pending
  const mqs_pending_operation& isend = world.sends[0];
  EXPECT_EQ(isend.status, mqs_st_pending);
  EXPECT_EQ(isend.desired_local_rank, 2);
  EXPECT_EQ(isend.desired_global_rank, 2);
  EXPECT_EQ(isend.tag_wild, 0);
  EXPECT_EQ(isend.desired_tag, 7);
  EXPECT_EQ(isend.desired_length, 40);
  EXPECT_EQ(isend.system_buffer, 0);
  EXPECT_EQ(isend.buffer, base_address(GetParam().kind) + 0x9000);
  EXPECT_EQ(isend.actual_local_rank, 2);
  EXPECT_EQ(isend.actual_global_rank, 2);
  EXPECT_EQ(isend.actual_tag, 7);
  EXPECT_EQ(isend.actual_length, 40);
  EXPECT_STREQ(isend.extra_text[0], "MPI_Isend");
  EXPECT_STREQ(isend.extra_text[1], "count 10 x MPI_INT");
  EXPECT_TRUE(has_line(isend, "request 0x")) << isend.extra_text[2];

  const mqs_pending_operation& ibsend = world.sends[1];
  EXPECT_EQ(ibsend.desired_length, static_cast<mqs_tword_t>(kBigBytes));
  EXPECT_EQ(ibsend.actual_length, static_cast<mqs_tword_t>(kBigBytes));
  EXPECT_EQ(ibsend.system_buffer, 1);
  EXPECT_TRUE(has_line(ibsend, "buffered send"));
}

TEST_P(MqsQueues, ReceivesIncludingBlockingAndWildcards) {
  const WalkedComm& world = comm_named("MPI_COMM_WORLD");
  ASSERT_EQ(world.receives.size(), 4u);
  const mqs_pending_operation& any = world.receives[0];
  EXPECT_EQ(any.status, mqs_st_pending);
  EXPECT_EQ(any.desired_local_rank, -1);  // sign-extended, not 4294967295
  EXPECT_EQ(any.desired_global_rank, -1);
  EXPECT_EQ(any.tag_wild, 1);
  EXPECT_EQ(any.desired_tag, -1);
  EXPECT_EQ(any.desired_length, 24);
  EXPECT_EQ(any.actual_local_rank, -1);
  EXPECT_EQ(any.actual_global_rank, -1);
  EXPECT_EQ(any.actual_length, 0);

  const mqs_pending_operation& blocking = world.receives[1];
  EXPECT_EQ(blocking.desired_local_rank, 0);
  EXPECT_EQ(blocking.desired_tag, 5);
  EXPECT_STREQ(blocking.extra_text[0], "MPI_Recv");
  EXPECT_TRUE(has_line(blocking, "blocking call in thread 1234"));

  const mqs_pending_operation& matched = world.receives[2];
  EXPECT_EQ(matched.status, mqs_st_matched);
  EXPECT_EQ(matched.desired_local_rank, -1);
  EXPECT_EQ(matched.tag_wild, 0);
  EXPECT_EQ(matched.actual_local_rank, 2);
  EXPECT_EQ(matched.actual_global_rank, 2);
  EXPECT_EQ(matched.actual_tag, 9);
  EXPECT_EQ(matched.actual_length, 16);

  const mqs_pending_operation& probe = world.receives[3];
  EXPECT_EQ(probe.desired_local_rank, 3);
  EXPECT_TRUE(has_line(probe, "MPI_Probe"));
}

TEST_P(MqsQueues, UnexpectedQueueIsNotKnown) {
  for (const WalkedComm& c : comms_) EXPECT_EQ(c.unexpected_rc, mqs_no_information) << c.comm.name;
}

TEST_P(MqsQueues, WorldRankTranslatedWhenRuntimeDidNotKnow) {
  const WalkedComm& dup = comm_named("comm 0x84000002 from MPI_Comm_dup");
  ASSERT_EQ(dup.sends.size(), 1u);
  EXPECT_EQ(dup.sends[0].desired_local_rank, 3);
  EXPECT_EQ(dup.sends[0].desired_global_rank, 3);
  EXPECT_TRUE(has_line(dup.sends[0], "synchronous send"));

  const WalkedComm& inter = comm_named("inter");
  ASSERT_EQ(inter.receives.size(), 1u);
  EXPECT_EQ(inter.receives[0].status, mqs_st_complete);
  // Rank 1 of the remote group {0, 2} is world rank 2.
  EXPECT_EQ(inter.receives[0].desired_global_rank, 2);
  EXPECT_EQ(inter.receives[0].actual_global_rank, 2);
  EXPECT_EQ(inter.receives[0].actual_length, 8);
}

TEST_P(MqsQueues, FreedCommunicatorListedWhileOperationsRemain) {
  const WalkedComm& busy = comm_named("busy (freed)");
  ASSERT_EQ(busy.receives.size(), 1u);
  EXPECT_EQ(busy.receives[0].desired_tag, 11);
  EXPECT_EQ(busy.detail.freed, 1);
  for (const WalkedComm& c : comms_) EXPECT_STRNE(c.comm.name, "idle (freed)");
}

TEST_P(MqsQueues, RemovingACommunicatorBetweenUpdates) {
  ImageBuilder& b = *scenario_.builder;
  b.release(scenario_.dup_op_slot);
  b.release(scenario_.dup_comm_slot);
  b.root.generation += 1;
  b.commit();
  std::vector<WalkedComm> again;
  ASSERT_EQ(session_->walk(&again), mqs_ok);
  ASSERT_EQ(again.size(), comms_.size() - 1);
  for (const WalkedComm& c : again) EXPECT_NE(c.comm.unique_id, kDupJob);
  EXPECT_EQ(again[0].sends.size(), 2u);
}

TEST_P(MqsQueues, StatusChangeIsSeenWhenTheGenerationMoves) {
  ImageBuilder& b = *scenario_.builder;
  // The runtime steps the generation on every MPI call, so an unchanged generation means
  // an unchanged process: the update keeps its decode. Once it moves, the change shows.
  mpidbg_operation_record recv = make_op(MPIDBG_CALL_MPI_Recv, MPIDBG_OPERATION_RECV, kWorldHandle, kWorldJob, 13, 0, 0, 5);
  recv.hdr.flags = MPIDBG_OPERATION_BLOCKING;
  recv.status = MPIDBG_OPERATION_MATCHED;
  recv.actual_source = 0;
  recv.actual_tag = 5;
  recv.actual_bytes = 4;
  recv.tid = kBlockedRecvTid;
  b.update_op(scenario_.blocked_recv_op_slot, recv);
  b.commit();
  std::vector<WalkedComm> kept;
  ASSERT_EQ(session_->walk(&kept), mqs_ok);
  ASSERT_EQ(kept[0].receives.size(), 4u);
  EXPECT_EQ(kept[0].receives[1].status, mqs_st_pending);
  b.root.generation += 1;
  b.commit();
  std::vector<WalkedComm> again;
  ASSERT_EQ(session_->walk(&again), mqs_ok);
  ASSERT_EQ(again[0].receives.size(), 4u);
  EXPECT_EQ(again[0].receives[1].status, mqs_st_matched);
  EXPECT_EQ(again[0].receives[1].actual_length, 4);
}

TEST_P(MqsQueues, FewLargeReads) {
  // One update: root, two reads per slab; one group per communicator; a few single
  // world-rank look-ups for matched receives.
  FakeTarget& t = *scenario_.target;
  const uint64_t before = t.reads;
  std::vector<WalkedComm> again;
  ASSERT_EQ(session_->walk(&again), mqs_ok);
  RecordProperty("reads_per_walk", static_cast<int>(t.reads - before));
  EXPECT_LT(t.reads - before, 40u);
  EXPECT_EQ(t.failed_reads, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, MqsQueues, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
