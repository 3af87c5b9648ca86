// The traffic counters and send log (mpidbg_traffic_*), on every kind of target:
// decoding, the ring's order, skipped torn and unclaimed slots, damaged blocks.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kComm = 0x1111222233334444ull;

mpidbg_traffic_entry Entry(uint32_t state, int32_t peer, int32_t tag, uint64_t sends,
                           uint64_t receives) {
  mpidbg_traffic_entry e{};
  e.state = state;
  e.comm_job_id = kComm;
  e.peer = peer;
  e.peer_world = peer + 10;
  e.tag = tag;
  e.sends = sends;
  e.receives = receives;
  e.send_bytes = sends * 8;
  e.receive_bytes = receives * 4;
  return e;
}

mpidbg_send_log_entry Logged(uint64_t ordinal, int32_t peer, int32_t tag, uint32_t seq = 2) {
  mpidbg_send_log_entry l{};
  l.seq = seq;
  l.call = MPIDBG_CALL_MPI_Isend;
  l.comm_job_id = kComm;
  l.ordinal = ordinal;
  l.bytes = 8;
  l.time_ns = 1700000000000000000 + static_cast<int64_t>(ordinal);
  l.datatype = 0x4c00080b;
  l.count = 2;
  l.peer = peer;
  l.peer_world = peer + 10;
  l.tag = tag;
  l.mode = MPIDBG_MODE_STANDARD;
  return l;
}

class Traffic : public BuiltScenario {};

TEST_P(Traffic, CountersAndLogDecode) {
  Start([](ImageBuilder& b) {
    b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 2, 7, 3, 1), Entry(MPIDBG_TRAFFIC_EMPTY, 0, 0, 9, 9),
                   Entry(MPIDBG_TRAFFIC_CLAIMED, 1, 1, 5, 5), Entry(MPIDBG_TRAFFIC_READY, 0, 9, 0, 4)},
                  8, {Logged(1, 2, 7), Logged(2, 2, 7), Logged(3, 2, 7)}, 4, 3);
  });
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
  EXPECT_EQ(s.entries, 2);  // EMPTY and CLAIMED slots are not listed
  EXPECT_EQ(s.logged_sends, 3);
  EXPECT_EQ(s.log_capacity, 4);
  EXPECT_EQ(s.sends_logged, 3u);

  mpidbg_traffic_info t{};
  t.size = sizeof t;
  ASSERT_EQ(p().mpidbg_traffic_get(proc(), 0, &t), mqs_ok);
  EXPECT_EQ(t.comm_id, kComm);
  EXPECT_EQ(t.peer, 2);
  EXPECT_EQ(t.peer_world, 12);
  EXPECT_EQ(t.tag, 7);
  EXPECT_EQ(t.sends, 3u);
  EXPECT_EQ(t.receives, 1u);
  EXPECT_EQ(t.send_bytes, 24u);
  EXPECT_EQ(t.receive_bytes, 4u);
  ASSERT_EQ(p().mpidbg_traffic_get(proc(), 1, &t), mqs_ok);
  EXPECT_EQ(t.peer, 0);
  EXPECT_EQ(t.receives, 4u);
  EXPECT_NE(p().mpidbg_traffic_get(proc(), 2, &t), mqs_ok);
  EXPECT_NE(p().mpidbg_traffic_get(proc(), -1, &t), mqs_ok);

  mpidbg_logged_send_info l{};
  l.size = sizeof l;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(p().mpidbg_logged_send_get(proc(), i, &l), mqs_ok);
    EXPECT_EQ(l.ordinal, static_cast<uint64_t>(i + 1));
    EXPECT_EQ(l.call, MPIDBG_CALL_MPI_Isend);
    EXPECT_STREQ(l.call_name, "MPI_Isend");
    EXPECT_EQ(l.peer_world, 12);
    EXPECT_EQ(l.tag, 7);
    EXPECT_EQ(l.count, 2);
    EXPECT_EQ(l.bytes, 8);
    EXPECT_EQ(l.datatype, 0x4c00080bu);
    EXPECT_EQ(l.mode, MPIDBG_MODE_STANDARD);
  }
  EXPECT_NE(p().mpidbg_logged_send_get(proc(), 3, &l), mqs_ok);
}

TEST_P(Traffic, RingKeepsTheNewestInOrderAndSkipsTornSlots) {
  // Seven sends through a ring of four: sends 3..6 remain (0-based), the one in the
  // middle is being rewritten (odd seq).
  Start([](ImageBuilder& b) {
    b.add_traffic({}, 4,
                  {Logged(4, 1, 0), Logged(5, 1, 0, 3), Logged(6, 1, 0), Logged(7, 1, 0)}, 4, 7);
  });
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
  EXPECT_EQ(s.sends_logged, 7u);
  ASSERT_EQ(s.logged_sends, 3);
  std::vector<uint64_t> ordinals;
  for (int i = 0; i < s.logged_sends; ++i) {
    mpidbg_logged_send_info l{};
    l.size = sizeof l;
    ASSERT_EQ(p().mpidbg_logged_send_get(proc(), i, &l), mqs_ok);
    ordinals.push_back(l.ordinal);
  }
  EXPECT_EQ(ordinals, (std::vector<uint64_t>{4, 6, 7}));
}

TEST_P(Traffic, NoBlockMeansNoInformation) {
  Start([](ImageBuilder&) {});
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  EXPECT_EQ(p().mpidbg_traffic_read(proc(), &s), mqs_no_information);
  mpidbg_traffic_info t{};
  t.size = sizeof t;
  EXPECT_NE(p().mpidbg_traffic_get(proc(), 0, &t), mqs_ok);  // no read yet: out of order
}

TEST_P(Traffic, DamagedBlocksFailCleanly) {
  uint64_t block = 0;
  Start([&](ImageBuilder& b) { block = b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 1, 1, 1, 0)}, 2, {}, 2, 0); });
  FakeTarget& t = *scenario_.target;
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  // A huge capacity, an entry size smaller than an entry, an unmapped array, a bad size.
  t.put32(block + offsetof(mpidbg_traffic, capacity), 0x7fffffff);
  EXPECT_NE(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
  t.put32(block + offsetof(mpidbg_traffic, capacity), 2);
  t.put32(block + offsetof(mpidbg_traffic, entry_size), 8);
  EXPECT_NE(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
  t.put32(block + offsetof(mpidbg_traffic, entry_size), sizeof(mpidbg_traffic_entry));
  t.put64(block + offsetof(mpidbg_traffic, entries), 0x10);
  EXPECT_NE(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
  t.put32(block + offsetof(mpidbg_traffic, size), 3);
  EXPECT_NE(p().mpidbg_traffic_read(proc(), &s), mqs_ok);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Traffic, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
