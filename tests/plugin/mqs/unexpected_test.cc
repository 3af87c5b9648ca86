// The unexpected-message queue (mqs_unexpected_messages): joined from the traffic of
// the other processes of the job the debugger has set up, never guessed from one
// process alone.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fake_target.h"
#include "plugin_api.h"
#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kWorld = 0x44000000;
constexpr uint64_t kJob = 0x1000;
constexpr uint64_t kOtherJob = 0x9000;  // MPI_COMM_WORLD of another job
constexpr int64_t kT0 = 1700000000000000000;

mpidbg_traffic_entry Flow(int32_t peer, int32_t tag, uint64_t sends, uint64_t receives) {
  mpidbg_traffic_entry e{};
  e.state = MPIDBG_TRAFFIC_READY;
  e.comm_job_id = kJob;
  e.peer = peer;
  e.peer_world = peer;
  e.tag = tag;
  e.sends = sends;
  e.receives = receives;
  return e;
}

mpidbg_send_log_entry Sent(int32_t to, int32_t tag, uint64_t ordinal, int64_t time, int64_t bytes) {
  mpidbg_send_log_entry l{};
  l.seq = 2;
  l.call = MPIDBG_CALL_MPI_Send;
  l.comm_job_id = kJob;
  l.ordinal = ordinal;
  l.bytes = bytes;
  l.time_ns = kT0 + time;
  l.datatype = 0x4c00040b;
  l.count = bytes / 4;
  l.peer = to;
  l.peer_world = to;
  l.tag = tag;
  l.mode = MPIDBG_MODE_STANDARD;
  return l;
}

// One rank of a two-rank job: MPI_COMM_WORLD and its traffic.
struct Rank {
  std::unique_ptr<FakeTarget> target;
  std::unique_ptr<Session> session;
};

// A whole SEND entry of a flight ring, as Sent() would log it.
mpidbg_flight_entry RingSent(uint8_t state, int32_t to, int32_t tag, uint64_t ordinal,
                             int64_t time, int64_t bytes) {
  const mpidbg_send_log_entry l = Sent(to, tag, ordinal, time, bytes);
  mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                            kWorld, kJob, 100 + ordinal, to, to, tag);
  e.state = state;
  e.ordinal = ordinal;
  e.bytes = bytes;
  e.count = l.count;
  e.datatype = l.datatype;
  e.post_time_ns = l.time_ns;
  return e;
}

// `ring`, if any, is the flight ring of one thread of the rank: 8 entries, of which
// the thread record claims `claimed_capacity`.
Rank MakeRank(const TargetKind& kind, int32_t rank, uint64_t job,
              const std::vector<mpidbg_traffic_entry>& flows,
              const std::vector<mpidbg_send_log_entry>& log,
              const std::vector<ImageBuilder::FlightPost>& ring = {},
              uint32_t claimed_capacity = 8) {
  Rank r;
  r.target = std::make_unique<FakeTarget>(kind.pointer_size, kind.big_endian);
  ImageBuilder b(r.target.get(), base_address(kind));
  b.root.flavour = MPIDBG_FLAVOUR_MPICH;
  b.root.handle_size = 4;
  b.root.process_state = MPIDBG_PROCESS_RUNNING;
  b.root.world_rank = rank;
  b.root.world_size = 2;
  b.root.comm_world_handle = kWorld;
  b.root.generation = 3;
  const uint64_t ranks = b.add_int32_array({0, 1});
  mpidbg_comm_record world = make_comm(kWorld, job, rank, 2, ranks, 1, "MPI_COMM_WORLD");
  world.hdr.flags = MPIDBG_REC_PREDEFINED;
  b.add_comm(world);
  b.add_traffic(flows, 16, log, 8, log.size());
  if (!ring.empty()) {
    mpidbg_thread_record t{};
    t.tid = 7000 + static_cast<uint64_t>(rank);
    t.call = MPIDBG_CALL_NONE;
    t.root = -1;
    t.flight_entries = b.add_flight_ring(8, ring);
    t.flight_head = ring.back().position + 1;
    t.flight_capacity = claimed_capacity;
    t.flight_entry_size = sizeof(mpidbg_flight_entry);
    b.add_thread(t);
  }
  b.commit();
  r.session = std::make_unique<Session>(r.target.get());
  return r;
}

class Unexpected : public testing::TestWithParam<TargetKind> {
 protected:
  // Rank 0 sent rank 1 three messages with tag 9 and one with tag 4; rank 1 received
  // the first tag-9 one. Rank 1 sent rank 0 one message, received.
  void SetUp() override {
    sender_ = MakeRank(GetParam(), 0, kJob, {Flow(1, 9, 3, 0), Flow(1, 4, 1, 0), Flow(1, 2, 0, 1)},
                       {Sent(1, 9, 1, 100, 8), Sent(1, 4, 1, 150, 16), Sent(1, 9, 2, 200, 8),
                        Sent(1, 9, 3, 300, 8)});
    receiver_ = MakeRank(GetParam(), 1, kJob, {Flow(0, 9, 0, 1), Flow(0, 2, 1, 0)},
                         {Sent(0, 2, 1, 50, 4)});
  }

  // The unexpected queue of MPI_COMM_WORLD at `rank`: its result and operations.
  int Queue(Rank& rank, std::vector<mqs_pending_operation>* ops) {
    const PluginApi& p = plugin();
    mqs_process* proc = rank.session->process();
    EXPECT_EQ(p.mqs_update_communicator_list(proc), mqs_ok);
    EXPECT_EQ(p.mqs_setup_communicator_iterator(proc), mqs_ok);
    const int rc = p.mqs_setup_operation_iterator(proc, mqs_unexpected_messages);
    if (rc != mqs_ok) return rc;
    mqs_pending_operation op;
    for (int guard = 0; guard < 1000; ++guard) {
      const int next = p.mqs_next_operation(proc, &op);
      if (next == mqs_end_of_list) return mqs_ok;
      EXPECT_EQ(next, mqs_ok);
      if (next != mqs_ok) return next;
      ops->push_back(op);
    }
    ADD_FAILURE() << "the unexpected queue does not end";
    return -1;
  }

  Rank sender_, receiver_;
};

TEST_P(Unexpected, OneProcessAloneKnowsNothing) {
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  EXPECT_EQ(Queue(receiver_, &ops), mqs_no_information);
  EXPECT_TRUE(ops.empty());
}

TEST_P(Unexpected, SentNotReceivedInSendOrder) {
  ASSERT_EQ(sender_.session->start(), mqs_ok);
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  ASSERT_EQ(Queue(receiver_, &ops), mqs_ok);
  // Tag 4 #1 (t=150), tag 9 #2 (t=200), tag 9 #3 (t=300): tag 9 #1 was received.
  ASSERT_EQ(ops.size(), 3u);
  const int tags[] = {4, 9, 9};
  const long lengths[] = {16, 8, 8};
  for (size_t i = 0; i < ops.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ops[i].status, mqs_st_pending);
    EXPECT_EQ(ops[i].desired_local_rank, 0);
    EXPECT_EQ(ops[i].desired_global_rank, 0);
    EXPECT_EQ(ops[i].actual_global_rank, 0);
    EXPECT_EQ(ops[i].tag_wild, 0);
    EXPECT_EQ(ops[i].desired_tag, tags[i]);
    EXPECT_EQ(ops[i].actual_tag, tags[i]);
    EXPECT_EQ(ops[i].desired_length, lengths[i]);
    EXPECT_EQ(ops[i].system_buffer, 1);
    EXPECT_EQ(ops[i].buffer, 0u);
    EXPECT_NE(std::string(ops[i].extra_text[0]).find("MPI_Send"), std::string::npos);
  }
  EXPECT_NE(std::string(ops[2].extra_text[2]).find("message 3"), std::string::npos);

  // The other way round: rank 1's one send to rank 0 was received.
  std::vector<mqs_pending_operation> back;
  ASSERT_EQ(Queue(sender_, &back), mqs_ok);
  EXPECT_TRUE(back.empty());
}

TEST_P(Unexpected, ProcessesOfAnotherJobAreNotSenders) {
  Rank stranger = MakeRank(GetParam(), 0, kOtherJob, {Flow(1, 9, 5, 0)}, {});
  ASSERT_EQ(stranger.session->start(), mqs_ok);
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  EXPECT_EQ(Queue(receiver_, &ops), mqs_no_information);
  EXPECT_TRUE(ops.empty());
}

TEST_P(Unexpected, MessagesThatLeftTheLogComeFirstWithoutLength) {
  // Rank 0 sent 5 with tag 9; its log kept only the last two.
  sender_ = MakeRank(GetParam(), 0, kJob, {Flow(1, 9, 5, 0)},
                     {Sent(1, 9, 4, 400, 8), Sent(1, 9, 5, 500, 8)});
  ASSERT_EQ(sender_.session->start(), mqs_ok);
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  ASSERT_EQ(Queue(receiver_, &ops), mqs_ok);
  // Ordinals 2 and 3 (received: 1) are older than the log: listed first, length unknown.
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].desired_length, 0);
  EXPECT_NE(std::string(ops[0].extra_text[0]).find("left the send log"), std::string::npos);
  EXPECT_NE(std::string(ops[0].extra_text[1]).find("message 2"), std::string::npos);
  EXPECT_EQ(ops[1].desired_length, 0);
  EXPECT_EQ(ops[2].desired_length, 8);
  EXPECT_NE(std::string(ops[3].extra_text[2]).find("message 5"), std::string::npos);
}

TEST_P(Unexpected, SendsLoggedOnlyInAFlightRingKeepTheirEnvelopes) {
  // Rank 0 sent three with tag 9: the first through the log, the second (completed,
  // DONE) and third (an MPI_Issend still POSTED) into a flight ring. Rank 1 took one.
  mpidbg_flight_entry issend = RingSent(MPIDBG_FLIGHT_POSTED, 1, 9, 3, 300, 32);
  issend.call = MPIDBG_CALL_MPI_Issend;
  issend.mode = MPIDBG_MODE_SYNCHRONOUS;
  sender_ = MakeRank(GetParam(), 0, kJob, {Flow(1, 9, 3, 0)}, {Sent(1, 9, 1, 100, 8)},
                     {{0, RingSent(MPIDBG_FLIGHT_DONE, 1, 9, 2, 200, 24)}, {1, issend}});
  receiver_ = MakeRank(GetParam(), 1, kJob, {Flow(0, 9, 0, 1)}, {});
  ASSERT_EQ(sender_.session->start(), mqs_ok);
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  ASSERT_EQ(Queue(receiver_, &ops), mqs_ok);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].desired_tag, 9);
  EXPECT_EQ(ops[0].desired_length, 24);
  EXPECT_NE(std::string(ops[0].extra_text[0]).find("MPI_Isend from world rank 0"),
            std::string::npos);
  EXPECT_NE(std::string(ops[0].extra_text[2]).find("message 2"), std::string::npos);
  EXPECT_EQ(ops[1].desired_length, 32);
  EXPECT_NE(std::string(ops[1].extra_text[0]).find("MPI_Issend"), std::string::npos);
  EXPECT_NE(std::string(ops[1].extra_text[2]).find("message 3"), std::string::npos);
}

TEST_P(Unexpected, SendsInADamagedRingHaveNoEnvelope) {
  // The thread claims a ring of 6 entries (not a power of two): the ring is skipped, the
  // messages are still known from the counters, their envelopes are not.
  sender_ = MakeRank(GetParam(), 0, kJob, {Flow(1, 9, 2, 0)}, {},
                     {{0, RingSent(MPIDBG_FLIGHT_POSTED, 1, 9, 1, 100, 8)},
                      {1, RingSent(MPIDBG_FLIGHT_POSTED, 1, 9, 2, 200, 8)}},
                     6);
  receiver_ = MakeRank(GetParam(), 1, kJob, {}, {});
  ASSERT_EQ(sender_.session->start(), mqs_ok);
  ASSERT_EQ(receiver_.session->start(), mqs_ok);
  std::vector<mqs_pending_operation> ops;
  ASSERT_EQ(Queue(receiver_, &ops), mqs_ok);
  ASSERT_EQ(ops.size(), 2u);
  for (const mqs_pending_operation& op : ops) {
    EXPECT_EQ(op.desired_length, 0);
    EXPECT_NE(std::string(op.extra_text[0]).find("left the send log"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTargets, Unexpected, testing::ValuesIn(kTargetKinds),
                         [](const testing::TestParamInfo<TargetKind>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace mpidbg::test
