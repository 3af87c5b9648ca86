// The traffic counters and send log (mpidbg_traffic_*), on every kind of target:
// decoding, the ring's order, skipped torn and unclaimed slots, damaged blocks; the sends
// logged in flight rings (layout 2) among the log's.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
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

// A whole SEND entry of a flight ring with its ordinal, posted at Logged()'s time for
// that ordinal plus `later_ns`.
mpidbg_flight_entry RingSend(uint8_t state, uint64_t ordinal, int32_t peer, int32_t tag,
                             int64_t later_ns = 0) {
  mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                            0x44000000, kComm, 100 + ordinal, peer, peer + 10,
                                            tag);
  e.state = state;
  e.ordinal = ordinal;
  e.bytes = 24;
  e.count = 3;
  e.datatype = 0x4c00080b;
  e.post_time_ns = Logged(ordinal, peer, tag).time_ns + later_ns;
  return e;
}

// A thread whose ring of `capacity` entries holds `posts`, the head just past the last.
void AddRingThread(ImageBuilder& b, uint64_t tid, uint32_t capacity,
                   const std::vector<ImageBuilder::FlightPost>& posts) {
  uint64_t head = 0;
  for (const ImageBuilder::FlightPost& post : posts) head = std::max(head, post.position + 1);
  mpidbg_thread_record t{};
  t.tid = tid;
  t.call = MPIDBG_CALL_NONE;
  t.root = -1;
  t.flight_entries = b.add_flight_ring(capacity, posts);
  t.flight_head = head;
  t.flight_capacity = capacity;
  t.flight_entry_size = sizeof(mpidbg_flight_entry);
  b.add_thread(t);
}

// The logged sends of the last mpidbg_traffic_read, in listing order.
std::vector<mpidbg_logged_send_info> LoggedSends(const PluginApi& p, mqs_process* proc) {
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  EXPECT_EQ(p.mpidbg_traffic_read(proc, &s), mqs_ok);
  std::vector<mpidbg_logged_send_info> sends;
  for (int i = 0; i < s.logged_sends; ++i) {
    mpidbg_logged_send_info l{};
    l.size = sizeof l;
    EXPECT_EQ(p.mpidbg_logged_send_get(proc, i, &l), mqs_ok);
    sends.push_back(l);
  }
  return sends;
}

// (tag, ordinal) of each send, in listing order.
std::vector<std::pair<int32_t, uint64_t>> TagsAndOrdinals(
    const std::vector<mpidbg_logged_send_info>& sends) {
  std::vector<std::pair<int32_t, uint64_t>> out;
  for (const mpidbg_logged_send_info& l : sends) out.emplace_back(l.tag, l.ordinal);
  return out;
}

int LogLinesWith(const std::string& text) {
  int n = 0;
  for (const std::string& line : FakeDebugger::log()) n += line.find(text) != std::string::npos;
  return n;
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

TEST_P(Traffic, RingSendsAreListedAmongTheLogsByPostingTime) {
  Start([](ImageBuilder& b) {
    // Tag 7 ordinals 1 and 4 went through the log; 2 (DONE), 3 (POSTED) and tag 8's
    // first (CARRIED) were posted into a ring. The ring's receive, its uncounted send
    // (ordinal 0), its torn entry and its stale one are not logged sends.
    mpidbg_flight_entry recv = make_flight_entry(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                                 0x44000000, kComm, 200, 2, 12, 7);
    mpidbg_flight_entry uncounted = RingSend(MPIDBG_FLIGHT_POSTED, 0, 2, 7);
    mpidbg_flight_entry torn = RingSend(MPIDBG_FLIGHT_POSTED, 5, 2, 7);
    torn.seq = 2 * (6 + 1) + 1;
    mpidbg_flight_entry stale = RingSend(MPIDBG_FLIGHT_DONE, 9, 2, 7);  // post 1, not 9
    mpidbg_flight_entry synchronous = RingSend(MPIDBG_FLIGHT_POSTED, 3, 2, 7);
    synchronous.call = MPIDBG_CALL_MPI_Issend;
    synchronous.mode = MPIDBG_MODE_SYNCHRONOUS;
    synchronous.bytes = 40;
    synchronous.count = 5;
    AddRingThread(b, 1600, 4,
                  {{1, stale},
                   {3, recv},
                   {4, RingSend(MPIDBG_FLIGHT_DONE, 2, 2, 7)},
                   {5, synchronous},
                   {6, torn},
                   {7, uncounted}});
    AddRingThread(b, 1601, 4, {{0, RingSend(MPIDBG_FLIGHT_CARRIED, 1, 2, 8, 4)}});
    b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 2, 7, 4, 0), Entry(MPIDBG_TRAFFIC_READY, 2, 8, 1, 0)},
                  4, {Logged(1, 2, 7), Logged(4, 2, 7)}, 4, 2);
  });
  const std::vector<mpidbg_logged_send_info> sends = LoggedSends(p(), proc());
  using Sent = std::pair<int32_t, uint64_t>;
  EXPECT_EQ(TagsAndOrdinals(sends),
            (std::vector<Sent>{{7, 1}, {7, 2}, {7, 3}, {7, 4}, {8, 1}}));
  ASSERT_EQ(sends.size(), 5u);
  // The POSTED Issend: every field from its ring entry, time_ns its posting time.
  const mpidbg_logged_send_info& s = sends[2];
  EXPECT_EQ(s.call, MPIDBG_CALL_MPI_Issend);
  EXPECT_STREQ(s.call_name, "MPI_Issend");
  EXPECT_EQ(s.comm_id, kComm);
  EXPECT_EQ(s.peer, 2);
  EXPECT_EQ(s.peer_world, 12);
  EXPECT_EQ(s.bytes, 40);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(s.datatype, 0x4c00080bu);
  EXPECT_EQ(s.mode, MPIDBG_MODE_SYNCHRONOUS);
  EXPECT_EQ(s.time_ns, Logged(3, 2, 7).time_ns);
  EXPECT_EQ(sends[4].time_ns, Logged(1, 2, 8).time_ns + 4);
  // The log's own count is unchanged: ring sends never went through it.
  mpidbg_traffic_summary summary{};
  summary.size = sizeof summary;
  ASSERT_EQ(p().mpidbg_traffic_read(proc(), &summary), mqs_ok);
  EXPECT_EQ(summary.sends_logged, 2u);
  EXPECT_EQ(summary.logged_sends, 5);
}

TEST_P(Traffic, RingSendsWithoutASendLog) {
  Start([](ImageBuilder& b) {
    AddRingThread(b, 1610, 8, {{0, RingSend(MPIDBG_FLIGHT_DONE, 1, 1, 3)}});
    b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 1, 3, 1, 0)}, 2, {}, 0, 0);
  });
  using Sent = std::pair<int32_t, uint64_t>;
  EXPECT_EQ(TagsAndOrdinals(LoggedSends(p(), proc())), (std::vector<Sent>{{3, 1}}));
}

TEST_P(Traffic, DamagedRingsLeaveTheRestOfTheTraffic) {
  Start([&](ImageBuilder& b) {
    AddRingThread(b, 1620, 8, {{0, RingSend(MPIDBG_FLIGHT_POSTED, 1, 1, 3)}});
    // Mapped nowhere; capacity not a power of two; more than the byte budget allows.
    mpidbg_thread_record bad{};
    bad.tid = 1621;
    bad.flight_entries = 0x1000;
    bad.flight_head = 3;
    bad.flight_capacity = 8;
    bad.flight_entry_size = sizeof(mpidbg_flight_entry);
    b.add_thread(bad);
    bad.tid = 1622;
    bad.flight_entries = b.add_flight_ring(8, {{0, RingSend(MPIDBG_FLIGHT_DONE, 1, 1, 4)}});
    bad.flight_capacity = 6;
    b.add_thread(bad);
    bad.tid = 1623;
    bad.flight_capacity = 1u << 20;
    bad.flight_head = 1u << 21;
    bad.flight_entry_size = 4096;
    b.add_thread(bad);
    b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 1, 3, 2, 0)}, 2, {Logged(2, 1, 3)}, 4, 1);
  });
  // What the traffic read alone reads and logs.
  FakeDebugger::log().clear();
  const uint64_t bytes_before = scenario_.target->bytes_read;
  using Sent = std::pair<int32_t, uint64_t>;
  EXPECT_EQ(TagsAndOrdinals(LoggedSends(p(), proc())), (std::vector<Sent>{{3, 1}, {3, 2}}));
  EXPECT_EQ(LogLinesWith("flight ring of thread 1621"), 1);
  EXPECT_EQ(LogLinesWith("flight ring of thread 1622"), 1);
  EXPECT_EQ(LogLinesWith("flight ring of thread 1623"), 1);
  EXPECT_LT(scenario_.target->bytes_read - bytes_before, uint64_t{1} << 20);
}

TEST_P(Traffic, LayoutOneRuntimeHasNoRingsToRead) {
  uint64_t thread_slab = 0;
  Start([&](ImageBuilder& b) {
    b.root.layout_version = 1;
    AddRingThread(b, 1630, 4, {{0, RingSend(MPIDBG_FLIGHT_POSTED, 1, 1, 3)}});
    thread_slab = b.slabs(MPIDBG_KIND_THREAD).front();
    b.add_traffic({Entry(MPIDBG_TRAFFIC_READY, 1, 3, 2, 0)}, 2, {Logged(2, 1, 3)}, 4, 1);
  });
  // The log's sends alone, and the thread table is not even walked.
  bool walked = false;
  scenario_.target->on_read = [&walked, thread_slab](uint64_t addr, size_t) {
    walked = walked || addr == thread_slab;
  };
  using Sent = std::pair<int32_t, uint64_t>;
  EXPECT_EQ(TagsAndOrdinals(LoggedSends(p(), proc())), (std::vector<Sent>{{3, 2}}));
  EXPECT_FALSE(walked);
  scenario_.target->on_read = nullptr;
}

TEST_P(Traffic, RingsWithoutABlockMeanNoInformation) {
  Start([](ImageBuilder& b) {
    AddRingThread(b, 1640, 4, {{0, RingSend(MPIDBG_FLIGHT_POSTED, 1, 1, 3)}});
  });
  mpidbg_traffic_summary s{};
  s.size = sizeof s;
  EXPECT_EQ(p().mpidbg_traffic_read(proc(), &s), mqs_no_information);
  mpidbg_logged_send_info l{};
  l.size = sizeof l;
  EXPECT_NE(p().mpidbg_logged_send_get(proc(), 0, &l), mqs_ok);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Traffic, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
