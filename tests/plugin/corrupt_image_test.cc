// Damaged runtimes: every case ends in an error code or skipped records, never in a
// crash, a hang or an unbounded read.
#include <cstddef>
#include <random>
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

bool log_mentions(const std::string& text) {
  for (const std::string& line : FakeDebugger::log()) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

class CorruptImage : public testing::TestWithParam<TargetKind> {
 protected:
  void SetUp() override {
    FakeDebugger::log().clear();
    scenario_ = build_main_scenario(GetParam(), 4);
  }
  FakeTarget& target() { return *scenario_.target; }
  ImageBuilder& builder() { return *scenario_.builder; }
  uint64_t root() { return builder().root_addr(); }
  // Damage done after a session started is seen at the next update only if the
  // generation moves: the plugin keeps its decode while it stands still.
  void next_generation() {
    builder().root.generation += 1;
    target().put64(root() + offsetof(mpidbg_root, generation), builder().root.generation);
  }

  // A session over the (damaged) target that walked once.
  int walk(std::vector<WalkedComm>* comms, int* start_rc = nullptr) {
    session_ = std::make_unique<Session>(&target());
    const int rc = session_->start();
    if (start_rc != nullptr) *start_rc = rc;
    return session_->walk(comms);
  }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

TEST_P(CorruptImage, SlabChainCycle) {
  const std::vector<uint64_t> slabs = builder().slabs(MPIDBG_KIND_COMM);
  ASSERT_GE(slabs.size(), 2u);
  target().put64(slabs.back() + offsetof(mpidbg_slab, next), slabs.front());
  const std::vector<uint64_t> op_slabs = builder().slabs(MPIDBG_KIND_OPERATION);
  target().put64(op_slabs.back() + offsetof(mpidbg_slab, next), op_slabs.back());  // self loop
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  EXPECT_EQ(comms.size(), 6u);  // each record once
  EXPECT_TRUE(log_mentions("cycle"));
  EXPECT_LT(target().reads, 200u);
}

TEST_P(CorruptImage, AbsurdCapacityAndRecordSize) {
  const std::vector<uint64_t> slabs = builder().slabs(MPIDBG_KIND_OPERATION);
  target().put32(slabs.front() + offsetof(mpidbg_slab, capacity), 0xffffffffu);
  const std::vector<uint64_t> tslabs = builder().slabs(MPIDBG_KIND_THREAD);
  target().put32(tslabs.front() + offsetof(mpidbg_slab, record_size), 1u << 30);
  const std::vector<uint64_t> cslabs = builder().slabs(MPIDBG_KIND_COMM);
  target().put32(cslabs.back() + offsetof(mpidbg_slab, header_size), 0x7fffffffu);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  EXPECT_EQ(comms.size(), 4u);  // the first comm slab is intact
  for (const WalkedComm& c : comms) {
    EXPECT_TRUE(c.sends.empty());
    EXPECT_TRUE(c.receives.empty());
  }
  int count = -1;
  ASSERT_EQ(plugin().mpidbg_thread_count(session_->process(), &count), mqs_ok);
  EXPECT_EQ(count, 0);
  EXPECT_LT(target().bytes_read, 64u * 1024);
}

TEST_P(CorruptImage, CapacityTimesRecordSizeOverflowsBudget) {
  const std::vector<uint64_t> slabs = builder().slabs(MPIDBG_KIND_OPERATION);
  target().put32(slabs.front() + offsetof(mpidbg_slab, capacity), 1u << 20);
  target().put32(slabs.front() + offsetof(mpidbg_slab, record_size), 1u << 16);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  // No operations decoded: the freed "busy" communicator has none left and drops out.
  EXPECT_EQ(comms.size(), 5u);
}

TEST_P(CorruptImage, HugeOrNegativeGroupSize) {
  target().put32(scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64 +
                     offsetof(mpidbg_comm_record, size),
                 1u << 30);  // first slot: the split communicator
  session_ = std::make_unique<Session>(&target());
  ASSERT_EQ(session_->start(), mqs_ok);
  const PluginApi& p = plugin();
  ASSERT_EQ(p.mqs_update_communicator_list(session_->process()), mqs_ok);
  ASSERT_EQ(p.mqs_setup_communicator_iterator(session_->process()), mqs_ok);
  mqs_communicator comm;
  bool seen = false;
  while (p.mqs_get_communicator(session_->process(), &comm) == mqs_ok) {
    if (std::string(comm.name) == "evens") {
      seen = true;
      EXPECT_EQ(comm.size, 1 << 30);
      int small[4] = {-7, -7, -7, -7};
      const int rc = p.mqs_get_comm_group(session_->process(), small);
      EXPECT_GE(rc, mqs_first_user_code);
      EXPECT_THAT(session_->error(rc), HasSubstr("group"));
      EXPECT_EQ(small[0], -7);
    }
    p.mqs_next_communicator(session_->process());
  }
  EXPECT_TRUE(seen);

  target().put32(scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64 +
                     offsetof(mpidbg_comm_record, size),
                 static_cast<uint32_t>(-5));
  next_generation();
  ASSERT_EQ(p.mqs_update_communicator_list(session_->process()), mqs_ok);
  ASSERT_EQ(p.mqs_setup_communicator_iterator(session_->process()), mqs_ok);
  while (p.mqs_get_communicator(session_->process(), &comm) == mqs_ok) {
    if (std::string(comm.name) == "evens") {
      EXPECT_EQ(comm.size, -5);
      int small[4];
      EXPECT_GE(p.mqs_get_comm_group(session_->process(), small), mqs_first_user_code);
    }
    p.mqs_next_communicator(session_->process());
  }
}

TEST_P(CorruptImage, GroupArrayUnreadable) {
  // The split's rank array points into unmapped memory.
  target().put64(scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64 +
                     offsetof(mpidbg_comm_record, world_ranks),
                 0x1000);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  bool seen = false;
  for (const WalkedComm& c : comms) {
    if (std::string(c.comm.name) != "evens") continue;
    seen = true;
    EXPECT_GE(c.group_rc, mqs_first_user_code);
    EXPECT_THAT(session_->error(c.group_rc), HasSubstr("target read failed at 0x1000"));
  }
  EXPECT_TRUE(seen);
}

TEST_P(CorruptImage, BadMagic) {
  target().put64(root(), 0x0123456789abcdefULL);
  std::vector<WalkedComm> comms;
  int start_rc = 0;
  EXPECT_NE(walk(&comms, &start_rc), mqs_ok);
  EXPECT_GE(start_rc, mqs_first_user_code);
  EXPECT_THAT(session_->process_message, HasSubstr("bad magic"));
  EXPECT_TRUE(comms.empty());
  int count = -1;
  EXPECT_NE(plugin().mpidbg_thread_count(session_->process(), &count), mqs_ok);
}

TEST_P(CorruptImage, ImplausibleRootSizeAndVersion) {
  target().put32(root() + offsetof(mpidbg_root, size), 1u << 30);
  std::vector<WalkedComm> comms;
  int start_rc = 0;
  walk(&comms, &start_rc);
  EXPECT_THAT(session_->error(start_rc), HasSubstr("size"));
  target().put32(root() + offsetof(mpidbg_root, size), 8);
  walk(&comms, &start_rc);
  EXPECT_THAT(session_->error(start_rc), HasSubstr("size"));
  target().put32(root() + offsetof(mpidbg_root, size), sizeof(mpidbg_root));
  target().put32(root() + offsetof(mpidbg_root, layout_version), 0);
  walk(&comms, &start_rc);
  EXPECT_THAT(session_->error(start_rc), HasSubstr("layout version 0"));
}

TEST_P(CorruptImage, TornRecordIsSkipped) {
  const uint64_t slot = scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64;  // split
  target().put32(slot + offsetof(mpidbg_record_header, seq), 7);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  EXPECT_EQ(comms.size(), 5u);
  for (const WalkedComm& c : comms) EXPECT_STRNE(c.comm.name, "evens");
}

TEST_P(CorruptImage, TornRecordFinishedOnReread) {
  const uint64_t slot = scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64;
  target().put32(slot + offsetof(mpidbg_record_header, seq), 7);
  // The writer finishes while the plugin reads: the slot-sized re-read sees it done.
  FakeTarget* t = &target();
  t->on_read = [t, slot](uint64_t addr, size_t len) {
    if (addr == slot && len == sizeof(mpidbg_comm_record)) {
      t->put32(slot + offsetof(mpidbg_record_header, seq), 8);
    }
  };
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  t->on_read = nullptr;
  EXPECT_EQ(comms.size(), 6u);
}

TEST_P(CorruptImage, ForeignKindAndTinySizeSkipped) {
  const uint64_t first = scenario_.builder->slabs(MPIDBG_KIND_COMM).front() + 64;
  const uint32_t rs = scenario_.builder->record_size(MPIDBG_KIND_COMM);
  target().put16(first + offsetof(mpidbg_record_header, kind), MPIDBG_KIND_OPERATION);
  target().put16(first + rs + offsetof(mpidbg_record_header, size), 3);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  EXPECT_EQ(comms.size(), 4u);
}

TEST_P(CorruptImage, ChainIntoUnmappedMemory) {
  const std::vector<uint64_t> slabs = builder().slabs(MPIDBG_KIND_COMM);
  target().put64(slabs.back() + offsetof(mpidbg_slab, next), 0x2000);
  const std::vector<uint64_t> tslabs = builder().slabs(MPIDBG_KIND_THREAD);
  // Beyond a 4-byte target's address space, or simply unmapped.
  target().put64(tslabs.front() + offsetof(mpidbg_slab, next), 0xfffffffffffff000ULL);
  std::vector<WalkedComm> comms;
  ASSERT_EQ(walk(&comms), mqs_ok);
  EXPECT_EQ(comms.size(), 6u);
  int count = -1;
  ASSERT_EQ(plugin().mpidbg_thread_count(session_->process(), &count), mqs_ok);
  EXPECT_EQ(count, 3);
}

TEST_P(CorruptImage, ThreadPointersIntoNowhere) {
  const uint64_t first = scenario_.builder->slabs(MPIDBG_KIND_THREAD).front() + 64;
  const uint32_t rs = scenario_.builder->record_size(MPIDBG_KIND_THREAD);
  target().put64(first + offsetof(mpidbg_thread_record, op), 0x12345678);
  target().put32(first + rs + offsetof(mpidbg_thread_record, request_count), 1u << 30);
  session_ = std::make_unique<Session>(&target());
  ASSERT_EQ(session_->start(), mqs_ok);
  const PluginApi& p = plugin();
  ASSERT_EQ(p.mqs_update_communicator_list(session_->process()), mqs_ok);
  mpidbg_thread_info t{};
  t.size = sizeof t;
  ASSERT_EQ(p.mpidbg_thread_get(session_->process(), 0, &t), mqs_ok);
  EXPECT_EQ(t.has_operation, 0);
  ASSERT_EQ(p.mpidbg_thread_get(session_->process(), 1, &t), mqs_ok);
  EXPECT_EQ(t.waited_count, 0);
  mpidbg_operation_info op{};
  op.size = sizeof op;
  EXPECT_EQ(p.mpidbg_thread_waited_operation(session_->process(), 1, 0, &op), mqs_no_information);

  // A sane count over an array that is not there.
  target().put32(first + rs + offsetof(mpidbg_thread_record, request_count), 2);
  target().put64(first + rs + offsetof(mpidbg_thread_record, requests), 0x3000);
  next_generation();
  ASSERT_EQ(p.mqs_update_communicator_list(session_->process()), mqs_ok);
  EXPECT_GE(p.mpidbg_thread_waited_operation(session_->process(), 1, 0, &op), mqs_first_user_code);
}

// Random damage anywhere in the runtime's memory: whatever the plugin makes of it, it
// must return, within a bounded number of reads.
TEST_P(CorruptImage, RandomDamage) {
  std::mt19937_64 rng(0x5eed + GetParam().pointer_size * 2 + GetParam().big_endian);
  const std::vector<std::pair<uint64_t, size_t>> regions = target().regions();
  for (int round = 0; round < 300; ++round) {
    Scenario s = build_main_scenario(GetParam(), round % 2 == 0 ? 4 : 8);
    const int flips = 1 + static_cast<int>(rng() % 16);
    for (int f = 0; f < flips; ++f) {
      const auto& [start, size] = regions[rng() % regions.size()];
      const uint64_t at = start + rng() % size;
      uint8_t byte = static_cast<uint8_t>(rng());
      s.target->write(at, &byte, 1);
    }
    Session session(s.target.get());
    session.start();
    std::vector<WalkedComm> comms;
    session.walk(&comms);
    int count = 0;
    if (plugin().mpidbg_thread_count(session.process(), &count) == mqs_ok) {
      for (int i = 0; i < count && i < 64; ++i) {
        mpidbg_thread_info t{};
        t.size = sizeof t;
        plugin().mpidbg_thread_get(session.process(), i, &t);
        for (int k = 0; k < t.waited_count && k < 64; ++k) {
          mpidbg_operation_info op{};
          op.size = sizeof op;
          plugin().mpidbg_thread_waited_operation(session.process(), i, k, &op);
        }
      }
    }
    ASSERT_LT(s.target->reads, 2000u) << "round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(AllTargets, CorruptImage, testing::ValuesIn(kTargetKinds),
                         [](const testing::TestParamInfo<TargetKind>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace mpidbg::test
