// Communication monitoring (mpidbg_monitor_*), on every kind of target: exact decoding
// of hand-built blocks, accumulated against current counters, files, the MPI's own
// monitoring read or unavailable, resets racing the read, older roots, damaged blocks.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kBig = (uint64_t{7} << 33) + 5;  // beyond 32 bits

// Every counter of a peer set from `base` so that each field is distinct.
mpidbg_monitor_peer Peer(uint64_t base) {
  mpidbg_monitor_peer p{};
  p.sent_messages = base + 1;
  p.sent_bytes = base + 2 + kBig;
  p.received_messages = base + 3;
  p.received_bytes = base + 4;
  p.coll_messages = base + 5;
  p.coll_bytes = base + 6;
  p.put_messages = base + 7;
  p.put_bytes = base + 8;
  p.get_messages = base + 9;
  p.get_bytes = base + 10;
  p.acc_messages = base + 11;
  p.acc_bytes = base + 12;
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) p.sent_histogram[b] = base * 100 + b;
  return p;
}

mpidbg_monitor_file File(uint32_t state, const char* name, uint64_t base) {
  mpidbg_monitor_file f{};
  f.state = state;
  f.opens = base + 1;
  f.read_operations = base + 2;
  f.read_bytes = base + 3 + kBig;
  f.write_operations = base + 4;
  f.write_bytes = base + 5;
  std::strncpy(f.name, name, sizeof f.name - 1);
  return f;
}

mpidbg_monitor_coll Coll(uint64_t ops, uint64_t sent, uint64_t received) {
  mpidbg_monitor_coll c{};
  c.operations = ops;
  c.bytes_sent = sent;
  c.bytes_received = received;
  return c;
}

// Rank 1 of 4: talks to ranks 0 and 3, two files (one slot being claimed between them),
// the MPI's monitoring read, a reset taken after part of the traffic.
ImageBuilder::MonitorImage Image() {
  ImageBuilder::MonitorImage m;
  mpidbg_monitor& h = m.header;
  h.active = 1;
  h.reset_seq = 2;
  h.starts = 2;
  h.stops = 1;
  h.resets = 1;
  h.first_start_time_ns = 1700000000000000001;
  h.reset_time_ns = 1700000000000000002;
  h.files_dropped = 3;
  h.accumulated_coll[MPIDBG_COLL_ONE_TO_ALL] = Coll(4, 96, 0);
  h.accumulated_coll[MPIDBG_COLL_ALL_TO_ONE] = Coll(2, 0, 64);
  h.accumulated_coll[MPIDBG_COLL_ALL_TO_ALL] = Coll(7, kBig, kBig + 1);
  h.accumulated_coll[MPIDBG_COLL_BARRIER] = Coll(9, 0, 0);
  h.baseline_coll[MPIDBG_COLL_ONE_TO_ALL] = Coll(1, 24, 0);
  h.baseline_coll[MPIDBG_COLL_ALL_TO_ONE] = Coll(5, 10, 100);  // above accumulated: clamps
  h.baseline_coll[MPIDBG_COLL_BARRIER] = Coll(9, 0, 0);
  h.mpit_state = MPIDBG_MONITOR_MPIT_READ;
  h.mpit_time_ns = 1700000000000000003;
  h.mpit_coll[MPIDBG_COLL_ONE_TO_ALL] = Coll(11, 12, 13);
  h.mpit_coll[MPIDBG_COLL_ALL_TO_ALL] = Coll(21, 22, 23);
  std::strcpy(h.mpit_reason, "pml_monitoring_messages_count pml_monitoring_messages_size");
  std::strcpy(h.output_path, "/tmp/job.monitor.json");
  m.accumulated = {Peer(10), Peer(0), Peer(0), Peer(30)};
  m.accumulated[1] = mpidbg_monitor_peer{};  // itself: nothing
  m.accumulated[2] = mpidbg_monitor_peer{};  // never talked to
  m.baseline = {Peer(5), mpidbg_monitor_peer{}, mpidbg_monitor_peer{}, Peer(0)};
  m.baseline[3].sent_messages = 1000;  // above accumulated: clamps to 0
  m.accumulated_files = {File(MPIDBG_MONITOR_FILE_READY, "out.dat", 100),
                         File(MPIDBG_MONITOR_FILE_CLAIMED, "half", 200),
                         File(MPIDBG_MONITOR_FILE_EMPTY, "", 0),
                         File(MPIDBG_MONITOR_FILE_READY, "/scratch/in.h5", 300)};
  m.baseline_files = {File(0, "", 50), mpidbg_monitor_file{}, mpidbg_monitor_file{},
                      mpidbg_monitor_file{}};
  mpidbg_monitor_mpit_peer mp{};
  mp.pml_messages = 1;
  mp.pml_bytes = 2;
  mp.osc_sent_messages = 3;
  mp.osc_sent_bytes = 4;
  mp.osc_received_messages = 5;
  mp.osc_received_bytes = kBig;
  mp.coll_messages = 7;
  mp.coll_bytes = 8;
  m.mpit_peers = {mp, mpidbg_monitor_mpit_peer{}, mpidbg_monitor_mpit_peer{}, mp};
  return m;
}

void ExpectPeer(const mpidbg_monitor_peer& got, const mpidbg_monitor_peer& want) {
  EXPECT_EQ(got.sent_messages, want.sent_messages);
  EXPECT_EQ(got.sent_bytes, want.sent_bytes);
  EXPECT_EQ(got.received_messages, want.received_messages);
  EXPECT_EQ(got.received_bytes, want.received_bytes);
  EXPECT_EQ(got.coll_messages, want.coll_messages);
  EXPECT_EQ(got.coll_bytes, want.coll_bytes);
  EXPECT_EQ(got.put_messages, want.put_messages);
  EXPECT_EQ(got.put_bytes, want.put_bytes);
  EXPECT_EQ(got.get_messages, want.get_messages);
  EXPECT_EQ(got.get_bytes, want.get_bytes);
  EXPECT_EQ(got.acc_messages, want.acc_messages);
  EXPECT_EQ(got.acc_bytes, want.acc_bytes);
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) {
    EXPECT_EQ(got.sent_histogram[b], want.sent_histogram[b]) << "bucket " << b;
  }
}

class Monitor : public BuiltScenario {
 protected:
  uint64_t StartWith(const ImageBuilder::MonitorImage& m) {
    uint64_t block = 0;
    Start([&](ImageBuilder& b) { block = b.add_monitor(m); });
    return block;
  }
  int Read(mpidbg_monitor_summary* s) {
    std::memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    return p().mpidbg_monitor_read(proc(), s);
  }
  int PeerGet(int rank, int which, mpidbg_monitor_peer_info* out) {
    std::memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    return p().mpidbg_monitor_peer_get(proc(), rank, which, out);
  }
  int CollGet(int kind, int which, mpidbg_monitor_coll_info* out) {
    std::memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    return p().mpidbg_monitor_coll_get(proc(), kind, which, out);
  }
  int FileGet(int index, int which, mpidbg_monitor_file_info* out) {
    std::memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    return p().mpidbg_monitor_file_get(proc(), index, which, out);
  }
  std::string Message(int rc) { return session_->error(rc); }
};

TEST_P(Monitor, SummaryDecodes) {
  StartWith(Image());
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.size, sizeof s);
  EXPECT_EQ(s.world_size, 4);
  EXPECT_EQ(s.active, 1);
  EXPECT_EQ(s.file_count, 2);  // the CLAIMED and EMPTY slots are not listed
  EXPECT_EQ(s.starts, 2u);
  EXPECT_EQ(s.stops, 1u);
  EXPECT_EQ(s.resets, 1u);
  EXPECT_EQ(s.first_start_time_ns, 1700000000000000001);
  EXPECT_EQ(s.reset_time_ns, 1700000000000000002);
  EXPECT_EQ(s.files_dropped, 3u);
  EXPECT_EQ(s.mpit_state, MPIDBG_MONITOR_MPIT_READ);
  EXPECT_EQ(s.mpit_peer_count, 4);
  EXPECT_EQ(s.mpit_time_ns, 1700000000000000003);
  EXPECT_STREQ(s.mpit_reason, "pml_monitoring_messages_count pml_monitoring_messages_size");
  EXPECT_STREQ(s.output_path, "/tmp/job.monitor.json");
}

TEST_P(Monitor, AccumulatedPeersDecodeExactly) {
  const ImageBuilder::MonitorImage m = Image();
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  for (int r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    mpidbg_monitor_peer_info info;
    ASSERT_EQ(PeerGet(r, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
    EXPECT_EQ(info.size, sizeof info);
    EXPECT_EQ(info.world_rank, r);
    ExpectPeer(info.counters, m.accumulated[static_cast<size_t>(r)]);
  }
  mpidbg_monitor_peer_info info;
  EXPECT_NE(PeerGet(4, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_NE(PeerGet(-1, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_NE(PeerGet(0, 2, &info), mqs_ok);  // neither accumulated nor current
}

TEST_P(Monitor, CurrentIsAccumulatedMinusBaselineNeverBelowZero) {
  const ImageBuilder::MonitorImage m = Image();
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_CURRENT, &info), mqs_ok);
  // Peer(10) - Peer(5): every counter 5 apart, sent_bytes too (kBig cancels out), each
  // bucket 500 apart.
  EXPECT_EQ(info.counters.sent_messages, 5u);
  EXPECT_EQ(info.counters.sent_bytes, 5u);
  EXPECT_EQ(info.counters.acc_bytes, 5u);
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) EXPECT_EQ(info.counters.sent_histogram[b], 500u);
  ASSERT_EQ(PeerGet(3, MPIDBG_MONITOR_CURRENT, &info), mqs_ok);
  mpidbg_monitor_peer want = Peer(30);
  const mpidbg_monitor_peer base = Peer(0);
  want.sent_messages = 0;  // baseline 1000 > accumulated 31
  want.sent_bytes -= base.sent_bytes;
  want.received_messages -= base.received_messages;
  want.received_bytes -= base.received_bytes;
  want.coll_messages -= base.coll_messages;
  want.coll_bytes -= base.coll_bytes;
  want.put_messages -= base.put_messages;
  want.put_bytes -= base.put_bytes;
  want.get_messages -= base.get_messages;
  want.get_bytes -= base.get_bytes;
  want.acc_messages -= base.acc_messages;
  want.acc_bytes -= base.acc_bytes;
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) want.sent_histogram[b] = 3000;
  ExpectPeer(info.counters, want);
  ASSERT_EQ(PeerGet(2, MPIDBG_MONITOR_CURRENT, &info), mqs_ok);
  ExpectPeer(info.counters, mpidbg_monitor_peer{});

  mpidbg_monitor_coll_info c;
  const char* names[] = {"one_to_all", "all_to_one", "all_to_all", "barrier"};
  const mpidbg_monitor_coll acc_want[] = {Coll(4, 96, 0), Coll(2, 0, 64), Coll(7, kBig, kBig + 1),
                                          Coll(9, 0, 0)};
  const mpidbg_monitor_coll cur_want[] = {Coll(3, 72, 0), Coll(0, 0, 0), Coll(7, kBig, kBig + 1),
                                          Coll(0, 0, 0)};
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    SCOPED_TRACE(k);
    ASSERT_EQ(CollGet(k, MPIDBG_MONITOR_ACCUMULATED, &c), mqs_ok);
    EXPECT_EQ(c.kind, k);
    EXPECT_STREQ(c.kind_name, names[k]);
    EXPECT_EQ(c.counters.operations, acc_want[k].operations);
    EXPECT_EQ(c.counters.bytes_sent, acc_want[k].bytes_sent);
    EXPECT_EQ(c.counters.bytes_received, acc_want[k].bytes_received);
    ASSERT_EQ(CollGet(k, MPIDBG_MONITOR_CURRENT, &c), mqs_ok);
    EXPECT_STREQ(c.kind_name, names[k]);
    EXPECT_EQ(c.counters.operations, cur_want[k].operations);
    EXPECT_EQ(c.counters.bytes_sent, cur_want[k].bytes_sent);
    EXPECT_EQ(c.counters.bytes_received, cur_want[k].bytes_received);
  }
  EXPECT_NE(CollGet(MPIDBG_COLL_KINDS, MPIDBG_MONITOR_ACCUMULATED, &c), mqs_ok);
  EXPECT_NE(CollGet(-1, MPIDBG_MONITOR_ACCUMULATED, &c), mqs_ok);
}

TEST_P(Monitor, FilesReadyOnlyInSlotOrder) {
  StartWith(Image());
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  ASSERT_EQ(s.file_count, 2);
  mpidbg_monitor_file_info f;
  ASSERT_EQ(FileGet(0, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
  EXPECT_EQ(f.index, 0);
  EXPECT_STREQ(f.counters.name, "out.dat");
  EXPECT_EQ(f.counters.state, MPIDBG_MONITOR_FILE_READY);
  EXPECT_EQ(f.counters.opens, 101u);
  EXPECT_EQ(f.counters.read_operations, 102u);
  EXPECT_EQ(f.counters.read_bytes, 103u + kBig);
  EXPECT_EQ(f.counters.write_operations, 104u);
  EXPECT_EQ(f.counters.write_bytes, 105u);
  ASSERT_EQ(FileGet(0, MPIDBG_MONITOR_CURRENT, &f), mqs_ok);
  EXPECT_STREQ(f.counters.name, "out.dat");  // the name is the accumulated entry's
  EXPECT_EQ(f.counters.opens, 50u);
  EXPECT_EQ(f.counters.read_bytes, 50u);
  EXPECT_EQ(f.counters.write_bytes, 50u);
  ASSERT_EQ(FileGet(1, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
  EXPECT_EQ(f.index, 1);
  EXPECT_STREQ(f.counters.name, "/scratch/in.h5");
  EXPECT_EQ(f.counters.write_operations, 304u);
  ASSERT_EQ(FileGet(1, MPIDBG_MONITOR_CURRENT, &f), mqs_ok);
  EXPECT_EQ(f.counters.write_operations, 304u);  // zero baseline
  EXPECT_NE(FileGet(2, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
  EXPECT_NE(FileGet(-1, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
}

TEST_P(Monitor, MpitReadGivesTheMpisCounters) {
  StartWith(Image());
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  mpidbg_monitor_mpit_peer_info mp{};
  mp.size = sizeof mp;
  ASSERT_EQ(p().mpidbg_monitor_mpit_peer_get(proc(), 3, &mp), mqs_ok);
  EXPECT_EQ(mp.world_rank, 3);
  EXPECT_EQ(mp.counters.pml_messages, 1u);
  EXPECT_EQ(mp.counters.pml_bytes, 2u);
  EXPECT_EQ(mp.counters.osc_sent_messages, 3u);
  EXPECT_EQ(mp.counters.osc_sent_bytes, 4u);
  EXPECT_EQ(mp.counters.osc_received_messages, 5u);
  EXPECT_EQ(mp.counters.osc_received_bytes, kBig);
  EXPECT_EQ(mp.counters.coll_messages, 7u);
  EXPECT_EQ(mp.counters.coll_bytes, 8u);
  ASSERT_EQ(p().mpidbg_monitor_mpit_peer_get(proc(), 1, &mp), mqs_ok);
  EXPECT_EQ(mp.counters.pml_messages, 0u);
  EXPECT_NE(p().mpidbg_monitor_mpit_peer_get(proc(), 4, &mp), mqs_ok);
  mpidbg_monitor_coll_info c{};
  c.size = sizeof c;
  ASSERT_EQ(p().mpidbg_monitor_mpit_coll_get(proc(), MPIDBG_COLL_ALL_TO_ALL, &c), mqs_ok);
  EXPECT_STREQ(c.kind_name, "all_to_all");
  EXPECT_EQ(c.counters.operations, 21u);
  EXPECT_EQ(c.counters.bytes_sent, 22u);
  EXPECT_EQ(c.counters.bytes_received, 0u);  // the MPI does not count it
  ASSERT_EQ(p().mpidbg_monitor_mpit_coll_get(proc(), MPIDBG_COLL_BARRIER, &c), mqs_ok);
  EXPECT_EQ(c.counters.operations, 0u);
  EXPECT_NE(p().mpidbg_monitor_mpit_coll_get(proc(), 4, &c), mqs_ok);
}

TEST_P(Monitor, MpitUnavailableSaysWhy) {
  ImageBuilder::MonitorImage m = Image();
  m.header.mpit_state = MPIDBG_MONITOR_MPIT_UNAVAILABLE;
  std::strcpy(m.header.mpit_reason, "no pml_monitoring_* performance variables (MPICH)");
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.mpit_state, MPIDBG_MONITOR_MPIT_UNAVAILABLE);
  EXPECT_EQ(s.mpit_peer_count, 0);
  EXPECT_STREQ(s.mpit_reason, "no pml_monitoring_* performance variables (MPICH)");
  mpidbg_monitor_mpit_peer_info mp{};
  mp.size = sizeof mp;
  EXPECT_EQ(p().mpidbg_monitor_mpit_peer_get(proc(), 0, &mp), mqs_no_information);
  mpidbg_monitor_coll_info c{};
  c.size = sizeof c;
  EXPECT_EQ(p().mpidbg_monitor_mpit_coll_get(proc(), 0, &c), mqs_no_information);
  // Our own counters are there all the same.
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_EQ(info.counters.sent_messages, 11u);
}

TEST_P(Monitor, NotReadYetIsNoInformation) {
  ImageBuilder::MonitorImage m = Image();
  m.header.mpit_state = MPIDBG_MONITOR_MPIT_NOT_READ;
  m.header.mpit_reason[0] = '\0';
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.mpit_state, MPIDBG_MONITOR_MPIT_NOT_READ);
  mpidbg_monitor_mpit_peer_info mp{};
  mp.size = sizeof mp;
  EXPECT_EQ(p().mpidbg_monitor_mpit_peer_get(proc(), 0, &mp), mqs_no_information);
}

TEST_P(Monitor, ResetInProgressKeepsAccumulatedOnly) {
  ImageBuilder::MonitorImage m = Image();
  m.header.reset_seq = 3;  // a reset stopped mid-copy (a core file, say)
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  ExpectPeer(info.counters, Peer(10));
  const int rc = PeerGet(0, MPIDBG_MONITOR_CURRENT, &info);
  EXPECT_NE(rc, mqs_ok);
  EXPECT_NE(Message(rc).find("reset was in progress"), std::string::npos) << Message(rc);
  mpidbg_monitor_coll_info c;
  EXPECT_NE(CollGet(0, MPIDBG_MONITOR_CURRENT, &c), mqs_ok);
  ASSERT_EQ(CollGet(0, MPIDBG_MONITOR_ACCUMULATED, &c), mqs_ok);
  EXPECT_EQ(c.counters.operations, 4u);
  mpidbg_monitor_file_info f;
  EXPECT_NE(FileGet(0, MPIDBG_MONITOR_CURRENT, &f), mqs_ok);
  ASSERT_EQ(FileGet(0, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
  EXPECT_EQ(f.counters.opens, 101u);
}

TEST_P(Monitor, ResetFinishingDuringTheReadIsReadAgain) {
  ImageBuilder::MonitorImage m = Image();
  m.header.reset_seq = 3;
  const uint64_t block = StartWith(m);
  FakeTarget& t = *scenario_.target;
  // The first header read sees the reset copying; it finishes before the second.
  int header_reads = 0;
  t.on_read = [&](uint64_t addr, size_t len) {
    if (addr == block && len > 4 && ++header_reads == 2) {
      t.put32(block + offsetof(mpidbg_monitor, reset_seq), 4);
    }
  };
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  t.on_read = nullptr;
  EXPECT_GE(header_reads, 2);
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_CURRENT, &info), mqs_ok);
  EXPECT_EQ(info.counters.sent_messages, 5u);
}

TEST_P(Monitor, ResetStartingDuringTheReadIsReadAgain) {
  const uint64_t block = StartWith(Image());
  FakeTarget& t = *scenario_.target;
  const uint64_t seq_at = block + offsetof(mpidbg_monitor, reset_seq);
  // A whole reset happens between the header and the check after the arrays: the
  // baseline read may be the old one, so the read is taken again.
  int checks = 0;
  t.on_read = [&](uint64_t addr, size_t len) {
    if (addr == seq_at && len == 4 && ++checks == 1) t.put32(seq_at, 4);
  };
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  t.on_read = nullptr;
  EXPECT_EQ(checks, 2);
  mpidbg_monitor_peer_info info;
  EXPECT_EQ(PeerGet(0, MPIDBG_MONITOR_CURRENT, &info), mqs_ok);
}

TEST_P(Monitor, EachReadIsFresh) {
  const ImageBuilder::MonitorImage m = Image();
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_EQ(info.counters.sent_messages, 11u);
  // The counter moves without any generation change; the getter answers the last read
  // until the next read.
  const uint64_t block = scenario_.builder->root.monitor;
  const uint64_t peers =
      scenario_.target->get64(block + offsetof(mpidbg_monitor, accumulated_peers));
  scenario_.target->put64(peers + offsetof(mpidbg_monitor_peer, sent_messages), 12);
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_EQ(info.counters.sent_messages, 11u);
  ASSERT_EQ(Read(&s), mqs_ok);
  ASSERT_EQ(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  EXPECT_EQ(info.counters.sent_messages, 12u);
}

TEST_P(Monitor, NoBlockMeansNoInformation) {
  Start([](ImageBuilder&) {});
  mpidbg_monitor_summary s;
  EXPECT_EQ(Read(&s), mqs_no_information);
  mpidbg_monitor_peer_info info;
  EXPECT_NE(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);  // nothing read
}

TEST_P(Monitor, OlderRootWithoutTheFieldIsNoInformation) {
  // A runtime whose root ends before `monitor`: whatever lies past its written size is
  // not the root's.
  Start([](ImageBuilder& b) {
    b.add_monitor(Image());
    b.root.size = offsetof(mpidbg_root, monitor);
  });
  mpidbg_monitor_summary s;
  EXPECT_EQ(Read(&s), mqs_no_information);
}

TEST_P(Monitor, SmallCallerStructuresGetTheirPrefix) {
  StartWith(Image());
  mpidbg_monitor_summary s;
  std::memset(&s, 0xab, sizeof s);
  s.size = offsetof(mpidbg_monitor_summary, file_count);
  ASSERT_EQ(p().mpidbg_monitor_read(proc(), &s), mqs_ok);
  EXPECT_EQ(s.size, offsetof(mpidbg_monitor_summary, file_count));
  EXPECT_EQ(s.world_size, 4);
  EXPECT_EQ(s.file_count, static_cast<int32_t>(0xabababab));  // untouched
  EXPECT_NE(p().mpidbg_monitor_read(proc(), nullptr), mqs_ok);
  mpidbg_monitor_peer_info info{};
  info.size = 2;
  EXPECT_NE(p().mpidbg_monitor_peer_get(proc(), 0, 0, &info), mqs_ok);
}

TEST_P(Monitor, DamagedBlocksFailCleanly) {
  const uint64_t block = StartWith(Image());
  FakeTarget& t = *scenario_.target;
  mpidbg_monitor_summary s;
  auto expect_error = [&](const char* what) {
    const int rc = Read(&s);
    EXPECT_NE(rc, mqs_ok) << what;
    EXPECT_NE(rc, mqs_no_information) << what;
    EXPECT_FALSE(Message(rc).empty()) << what;
    mpidbg_monitor_peer_info info;
    EXPECT_NE(PeerGet(0, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok) << what;  // nothing stale
  };
  auto put32 = [&](size_t off, uint32_t v) { t.put32(block + off, v); };
  auto put64 = [&](size_t off, uint64_t v) { t.put64(block + off, v); };
  const uint64_t peers = t.get64(block + offsetof(mpidbg_monitor, accumulated_peers));

  put32(offsetof(mpidbg_monitor, size), 8);
  expect_error("block size too small");
  put32(offsetof(mpidbg_monitor, size), 0x7fffffff);
  expect_error("block size huge");
  put32(offsetof(mpidbg_monitor, size), sizeof(mpidbg_monitor));
  ASSERT_EQ(Read(&s), mqs_ok);

  put32(offsetof(mpidbg_monitor, world_size), 0x7fffffff);
  expect_error("huge world size");
  put32(offsetof(mpidbg_monitor, world_size), 0xffffffff);
  expect_error("negative world size");
  put32(offsetof(mpidbg_monitor, world_size), 1 << 20);
  expect_error("world size beyond the array");
  put32(offsetof(mpidbg_monitor, world_size), 4);
  put32(offsetof(mpidbg_monitor, peer_size), 16);
  expect_error("peer element too small");
  put32(offsetof(mpidbg_monitor, peer_size), sizeof(mpidbg_monitor_peer) + 4);
  expect_error("peer element size misaligned");
  put32(offsetof(mpidbg_monitor, peer_size), sizeof(mpidbg_monitor_peer));
  put32(offsetof(mpidbg_monitor, buckets), 0);
  expect_error("no buckets");
  put32(offsetof(mpidbg_monitor, buckets), 1000);
  expect_error("buckets beyond the element");
  put32(offsetof(mpidbg_monitor, buckets), MPIDBG_MONITOR_BUCKETS);
  put64(offsetof(mpidbg_monitor, accumulated_peers), 0x10);
  expect_error("unreadable peers");
  put64(offsetof(mpidbg_monitor, accumulated_peers), 0);
  expect_error("no peer array");
  put64(offsetof(mpidbg_monitor, accumulated_peers), peers);
  put64(offsetof(mpidbg_monitor, baseline_peers), 0xfffffff0);
  expect_error("unreadable baseline");
  put64(offsetof(mpidbg_monitor, baseline_peers), peers);
  ASSERT_EQ(Read(&s), mqs_ok);

  put32(offsetof(mpidbg_monitor, file_capacity), 0xffffffff);
  expect_error("huge file capacity");
  put32(offsetof(mpidbg_monitor, file_capacity), 4000);
  expect_error("file capacity beyond the array");
  put32(offsetof(mpidbg_monitor, file_capacity), 4);
  put32(offsetof(mpidbg_monitor, file_size), 8);
  expect_error("file element too small");
  put32(offsetof(mpidbg_monitor, file_size), sizeof(mpidbg_monitor_file));
  ASSERT_EQ(Read(&s), mqs_ok);

  put32(offsetof(mpidbg_monitor, mpit_peer_count), 0x7fffffff);
  expect_error("huge MPI_T peer count");
  put32(offsetof(mpidbg_monitor, mpit_peer_count), 0x80000000);
  expect_error("negative MPI_T peer count");
  put32(offsetof(mpidbg_monitor, mpit_peer_count), 4);
  put64(offsetof(mpidbg_monitor, mpit_peers), 0x20);
  expect_error("unreadable MPI_T peers");
  // Not read: the array is not looked at.
  put32(offsetof(mpidbg_monitor, mpit_state), MPIDBG_MONITOR_MPIT_UNAVAILABLE);
  EXPECT_EQ(Read(&s), mqs_ok);
}

TEST_P(Monitor, UnreadableBlockFailsCleanly) {
  Start([](ImageBuilder& b) { b.root.monitor = 0x30; });
  mpidbg_monitor_summary s;
  const int rc = Read(&s);
  EXPECT_NE(rc, mqs_ok);
  EXPECT_NE(rc, mqs_no_information);
}

TEST_P(Monitor, NewerRuntimeWithLargerElementsDecodes) {
  ImageBuilder::MonitorImage m = Image();
  m.header.peer_size = sizeof(mpidbg_monitor_peer) + 64;
  m.header.file_size = sizeof(mpidbg_monitor_file) + 32;
  m.header.size = sizeof(mpidbg_monitor) + 128;
  StartWith(m);
  mpidbg_monitor_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.file_count, 2);
  mpidbg_monitor_peer_info info;
  ASSERT_EQ(PeerGet(3, MPIDBG_MONITOR_ACCUMULATED, &info), mqs_ok);
  ExpectPeer(info.counters, m.accumulated[3]);
  mpidbg_monitor_file_info f;
  ASSERT_EQ(FileGet(1, MPIDBG_MONITOR_ACCUMULATED, &f), mqs_ok);
  EXPECT_STREQ(f.counters.name, "/scratch/in.h5");
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Monitor, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
