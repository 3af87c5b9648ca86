// Record tables: slab chain, slot reuse, the sequence protocol, counters.
#include "core/slab_table.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "core/record_write.h"

namespace {

using mpidbg::core::SlabTable;

struct TestRoot {
  mpidbg_table table{0, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 0, 0};
  uint64_t generation = 0;
};

// Walks the chain the way a reader does, collecting live records.
std::vector<const mpidbg_record_header*> LiveRecords(const mpidbg_table& t) {
  std::vector<const mpidbg_record_header*> out;
  uint64_t addr = t.first_slab;
  for (uint32_t n = 0; addr != 0 && n < t.slab_count; ++n) {
    auto* slab = reinterpret_cast<const mpidbg_slab*>(static_cast<uintptr_t>(addr));
    EXPECT_EQ(slab->magic, MPIDBG_SLAB_MAGIC);
    EXPECT_EQ(slab->kind, t.kind);
    EXPECT_EQ(slab->record_size, t.record_size);
    EXPECT_EQ(slab->header_size, sizeof(mpidbg_slab));
    const char* first = reinterpret_cast<const char*>(slab) + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      auto* h = reinterpret_cast<const mpidbg_record_header*>(first + uint64_t{i} * slab->record_size);
      if (h->kind != MPIDBG_KIND_FREE) out.push_back(h);
    }
    addr = slab->next;
  }
  return out;
}

TEST(SlabTable, EmptyTableHasNoSlabs) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  EXPECT_EQ(root.table.first_slab, 0u);
  EXPECT_EQ(root.table.slab_count, 0u);
  EXPECT_TRUE(LiveRecords(root.table).empty());
}

TEST(SlabTable, CreateWritesHeaderAndCounts) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  auto* h = table.Create(MPIDBG_OPERATION_BLOCKING);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->seq & 1u, 1u) << "seq must be odd while the record is written";
  EXPECT_EQ(root.table.live_count, 0u) << "not live before EndCreate";
  reinterpret_cast<mpidbg_operation_record*>(h)->tag = 42;
  table.EndCreate(h);
  EXPECT_EQ(h->seq & 1u, 0u);
  EXPECT_EQ(h->kind, MPIDBG_KIND_OPERATION);
  EXPECT_EQ(h->size, sizeof(mpidbg_operation_record));
  EXPECT_EQ(h->flags, MPIDBG_OPERATION_BLOCKING);
  EXPECT_EQ(root.table.live_count, 1u);
  EXPECT_EQ(root.table.slab_count, 1u);
  EXPECT_EQ(root.generation, 1u);
  auto live = LiveRecords(root.table);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0], h);
  EXPECT_EQ(reinterpret_cast<const mpidbg_operation_record*>(live[0])->tag, 42);
}

TEST(SlabTable, UpdateAndReleaseChangeSeqAndGeneration) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  auto* h = table.Create(0);
  table.EndCreate(h);
  const uint32_t seq = h->seq;
  const uint64_t gen = root.generation;
  table.BeginUpdate(h);
  EXPECT_EQ(h->seq, seq + 1);
  table.EndUpdate(h);
  EXPECT_EQ(h->seq, seq + 2);
  EXPECT_GT(root.generation, gen);
  table.Release(h);
  EXPECT_EQ(h->kind, MPIDBG_KIND_FREE);
  EXPECT_EQ(h->seq & 1u, 0u);
  EXPECT_EQ(root.table.live_count, 0u);
  EXPECT_TRUE(LiveRecords(root.table).empty());
}

TEST(SlabTable, ReleasedSlotIsReusedAndBodyZeroed) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  auto* a = table.Create(0);
  reinterpret_cast<mpidbg_operation_record*>(a)->count = 99;
  table.EndCreate(a);
  table.Release(a);
  auto* b = table.Create(0);
  EXPECT_EQ(a, b);
  EXPECT_EQ(reinterpret_cast<mpidbg_operation_record*>(b)->count, 0);
  table.EndCreate(b);
  EXPECT_EQ(root.table.slab_count, 1u);
}

TEST(SlabTable, GrowsByChainingSlabsThatNeverMove) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 3);
  std::vector<mpidbg_record_header*> recs;
  for (int i = 0; i < 10; ++i) {
    auto* h = table.Create(0);
    ASSERT_NE(h, nullptr);
    reinterpret_cast<mpidbg_operation_record*>(h)->tag = i;
    table.EndCreate(h);
    recs.push_back(h);
  }
  EXPECT_EQ(root.table.slab_count, 4u);
  EXPECT_EQ(root.table.live_count, 10u);
  const uint64_t first = root.table.first_slab;
  auto live = LiveRecords(root.table);
  ASSERT_EQ(live.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(live[i], recs[i]) << "slots are handed out in order";
  for (auto* h : recs) table.Release(h);
  EXPECT_EQ(root.table.first_slab, first);
  EXPECT_EQ(root.table.slab_count, 4u) << "slabs are never freed";
  EXPECT_EQ(root.table.live_count, 0u);
}

TEST(SlabTable, TakeSlotKeepsSlotOutOfTheFreeList) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  auto* reserved = table.TakeSlot();
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->kind, MPIDBG_KIND_FREE);
  for (int i = 0; i < 8; ++i) {
    auto* h = table.Create(0);
    EXPECT_NE(h, reserved);
    table.EndCreate(h);
  }
  table.BeginCreate(reserved, MPIDBG_OPERATION_BLOCKING);
  table.EndCreate(reserved);
  EXPECT_EQ(root.table.live_count, 9u);
  table.Clear(reserved);
  EXPECT_EQ(root.table.live_count, 8u);
  EXPECT_EQ(reserved->kind, MPIDBG_KIND_FREE);
}

TEST(SlabTable, ConcurrentCreateReleaseKeepsCountsConsistent) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 16);
  constexpr int kThreads = 4, kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&table, t] {
      std::vector<mpidbg_record_header*> mine;
      for (int i = 0; i < kRounds; ++i) {
        auto* h = table.Create(0);
        ASSERT_NE(h, nullptr);
        reinterpret_cast<mpidbg_operation_record*>(h)->tag = t;
        table.EndCreate(h);
        mine.push_back(h);
        if (mine.size() > 8) {
          EXPECT_EQ(reinterpret_cast<mpidbg_operation_record*>(mine.front())->tag, t)
              << "a slot was handed to two owners";
          table.Release(mine.front());
          mine.erase(mine.begin());
        }
      }
      for (auto* h : mine) table.Release(h);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(root.table.live_count, 0u);
  EXPECT_TRUE(LiveRecords(root.table).empty());
  EXPECT_EQ(root.generation, uint64_t{kThreads} * kRounds * 2);
}

TEST(SlabTable, BatchesTakeAndReturnUnderOneLock) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  mpidbg_record_header* slots[10];
  ASSERT_EQ(table.TakeSlots(slots, 10), 10u);  // spans three slabs
  EXPECT_EQ(root.table.slab_count, 3u);
  std::set<mpidbg_record_header*> distinct(slots, slots + 10);
  EXPECT_EQ(distinct.size(), 10u);
  for (auto* h : slots) EXPECT_EQ(h->kind, MPIDBG_KIND_FREE);
  table.ReturnSlots(slots, 10);
  mpidbg_record_header* again[12];
  ASSERT_EQ(table.TakeSlots(again, 12), 12u);  // the ten come back, then a fresh slab
  EXPECT_EQ(root.table.slab_count, 3u);
  table.ReturnSlots(again, 12);
  EXPECT_EQ(root.table.live_count, 0u);
}

// The per-message lifecycle: no zeroing, no generation step until the caller bumps once.
TEST(SlabTable, OpenCloseVacateLeaveTheGenerationToTheCaller) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  auto* h = table.TakeSlot();
  ASSERT_NE(h, nullptr);
  auto* op = reinterpret_cast<mpidbg_operation_record*>(h);
  table.OpenRecord(h, MPIDBG_OPERATION_BLOCKING);
  EXPECT_EQ(h->seq & 1u, 1u);
  EXPECT_EQ(h->kind, MPIDBG_KIND_OPERATION);
  op->tag = 5;
  table.CloseRecord(h);
  EXPECT_EQ(h->seq & 1u, 0u);
  EXPECT_EQ(root.table.live_count, 1u);
  EXPECT_EQ(root.generation, 0u);
  ASSERT_EQ(LiveRecords(root.table).size(), 1u);
  table.BumpGenerationHot();
  EXPECT_EQ(root.generation, 1u);
  const uint32_t seq = h->seq;
  table.Vacate(h);
  EXPECT_EQ(h->seq, seq + 2);
  EXPECT_EQ(h->kind, MPIDBG_KIND_FREE);
  EXPECT_EQ(op->tag, 5) << "vacating leaves the body; readers skip FREE slots";
  EXPECT_EQ(root.table.live_count, 0u);
  EXPECT_TRUE(LiveRecords(root.table).empty());
  table.ReturnSlot(h);
}

// VacateBeside (a thread's exit, the clock thread) vacates as Vacate does; its step of
// live_count is a locked subtract (see slab_table.h).
TEST(SlabTable, VacateBesideFreesTheSlotAndCountsItOut) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  mpidbg_record_header* h[2] = {table.TakeSlot(), table.TakeSlot()};
  ASSERT_NE(h[0], nullptr);
  ASSERT_NE(h[1], nullptr);
  for (auto* r : h) {
    table.OpenRecord(r, 0);
    table.CloseRecord(r);
  }
  EXPECT_EQ(root.table.live_count, 2u);
  const uint32_t seq = h[0]->seq;
  table.VacateBeside(h[0]);
  EXPECT_EQ(h[0]->seq, seq + 2);
  EXPECT_EQ(h[0]->kind, MPIDBG_KIND_FREE);
  EXPECT_EQ(h[0]->flags, 0u);
  EXPECT_EQ(root.table.live_count, 1u);
  ASSERT_EQ(LiveRecords(root.table).size(), 1u);
  EXPECT_EQ(LiveRecords(root.table)[0], h[1]);
  table.Vacate(h[1]);
  EXPECT_EQ(root.table.live_count, 0u);
  for (auto* r : h) table.ReturnSlot(r);
}

TEST(SlabTable, RecreateTurnsALiveRecordIntoANewOneInOneWindow) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION,
                  sizeof(mpidbg_operation_record), 4);
  mpidbg_record_header* h = table.Create(MPIDBG_REC_FREED);
  ASSERT_NE(h, nullptr);
  reinterpret_cast<mpidbg_operation_record*>(h)->tag = 7;
  table.EndCreateInCall(h);
  EXPECT_EQ(root.table.live_count, 1u);
  const uint32_t seq = h->seq;
  const uint64_t changes = table.changes();
  table.BeginUpdate(h);
  table.RecreateOpened(h, 0);
  EXPECT_EQ(h->seq, seq + 1);  // still being written
  EXPECT_EQ(h->kind, MPIDBG_KIND_OPERATION);
  EXPECT_EQ(h->flags, 0u);
  EXPECT_EQ(reinterpret_cast<mpidbg_operation_record*>(h)->tag, 0);  // the body starts zeroed
  table.EndCreateInCall(h);
  EXPECT_EQ(h->seq, seq + 2);
  EXPECT_EQ(root.table.live_count, 1u);  // the same slot, counted once
  EXPECT_GT(table.changes(), changes);
  ASSERT_EQ(LiveRecords(root.table).size(), 1u);
  table.Release(h);
  EXPECT_EQ(root.table.live_count, 0u);
}

TEST(SlabTable, ChangesCountCreatesUpdatesAndClears) {
  TestRoot root;
  SlabTable table(&root.table, &root.generation, MPIDBG_KIND_OPERATION, sizeof(mpidbg_operation_record), 4);
  EXPECT_EQ(table.changes(), 0u);
  auto* h = table.Create(0);
  table.EndCreate(h);
  table.BeginUpdate(h);
  table.EndUpdate(h);
  EXPECT_EQ(table.changes(), 2u);
  table.OpenRecord(table.TakeSlot(), 0);  // per-message forms do not count
  EXPECT_EQ(table.changes(), 2u);
  table.Release(h);
  EXPECT_EQ(table.changes(), 3u);
}

TEST(RecordWrite, SeqIsOddOnlyInsideTheWindow) {
  mpidbg_record_header h{};
  EXPECT_TRUE(mpidbg::core::RecordSeqIsStable(h.seq));
  mpidbg::core::BeginRecordWrite(&h);
  EXPECT_FALSE(mpidbg::core::RecordSeqIsStable(h.seq));
  mpidbg::core::EndRecordWrite(&h);
  EXPECT_TRUE(mpidbg::core::RecordSeqIsStable(h.seq));
  EXPECT_EQ(h.seq, 2u);
}

TEST(RecordWrite, CopyNameTruncatesAndTerminates) {
  char buf[8];
  mpidbg::core::CopyName(buf, sizeof buf, "MPI_COMM_WORLD");
  EXPECT_STREQ(buf, "MPI_COM");
  mpidbg::core::CopyName(buf, sizeof buf, nullptr);
  EXPECT_STREQ(buf, "");
}

}  // namespace
