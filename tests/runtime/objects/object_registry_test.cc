// ObjectRegistry on a fake root: create, find, update, free into an orphan, eviction,
// reuse of a handle value, handles handed out again, predefined records, discard.
#include "core/object_registry.h"

#include <gtest/gtest.h>

#include "core/record_arrays.h"

namespace {

using mpidbg::core::ObjectRegistry;
using mpidbg::core::ObjectRegistryShared;
using mpidbg::core::OrphanList;
using mpidbg::core::SlabTable;

// The parts of mpidbg_root a registry uses.
struct FakeRoot {
  uint64_t generation = 0;
  uint64_t create_counter = 0;
  uint64_t free_counter = 0;
  uint32_t orphan_budget = 8;
  uint32_t orphan_keep_all = 0;
  uint64_t orphan_count = 0;
  uint64_t orphan_evictions = 0;
  uint64_t orphan_releases = 0;
  mpidbg_table infos{0, MPIDBG_KIND_INFO, sizeof(mpidbg_info_record), 0, 0};
};

int g_drops = 0;
void DropInfo(mpidbg_object_head* h) {
  auto* r = reinterpret_cast<mpidbg_info_record*>(h);
  mpidbg::core::FreeArray(r->entries);
  r->entries = mpidbg_array{0, 0, 1};
  ++g_drops;
}

// Every slot in use, walked as a debugger does.
std::vector<const mpidbg_info_record*> Records(const mpidbg_table& t) {
  std::vector<const mpidbg_info_record*> out;
  uint64_t addr = t.first_slab;
  for (uint32_t n = 0; addr != 0 && n < t.slab_count; ++n) {
    auto* slab = reinterpret_cast<const mpidbg_slab*>(static_cast<uintptr_t>(addr));
    const char* first = reinterpret_cast<const char*>(slab) + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      auto* h = reinterpret_cast<const mpidbg_record_header*>(first + uint64_t{i} * slab->record_size);
      if (h->kind == t.kind) out.push_back(reinterpret_cast<const mpidbg_info_record*>(h));
    }
    addr = slab->next;
  }
  return out;
}

template <ObjectRegistry::Rehandout kPolicy>
class RegistryFixture : public ::testing::Test {
 protected:
  RegistryFixture()
      : table(&root.infos, &root.generation, MPIDBG_KIND_INFO, sizeof(mpidbg_info_record), 4),
        orphans(OrphanList::Counters{&root.orphan_budget, &root.orphan_keep_all,
                                     &root.orphan_count, &root.orphan_evictions,
                                     &root.orphan_releases}),
        registry(&table, ObjectRegistryShared{&root.create_counter, &root.free_counter, &orphans},
                 &DropInfo, kPolicy) {
    g_drops = 0;
  }
  ~RegistryFixture() override { orphans.ReleaseAll(); }

  // A published record of `handle` owning a 3-byte entries array.
  mpidbg_info_record* Create(uint64_t handle, uint32_t flags = 0, int32_t creator = 365) {
    mpidbg_object_head* h = registry.BeginCreate(handle, creator, flags);
    EXPECT_NE(h, nullptr);
    if (h == nullptr) return nullptr;
    auto* r = reinterpret_cast<mpidbg_info_record*>(h);
    r->entries = mpidbg::core::MakeArray("k\0v", 3, 1);
    r->nkeys = 1;
    registry.EndCreate(h);
    return r;
  }
  size_t InUse() { return Records(root.infos).size(); }

  FakeRoot root;
  SlabTable table;
  OrphanList orphans;
  ObjectRegistry registry;
};

using ObjectRegistryTest = RegistryFixture<ObjectRegistry::Rehandout::kOrphanOld>;
using CountingRegistryTest = RegistryFixture<ObjectRegistry::Rehandout::kCountReference>;

TEST_F(ObjectRegistryTest, CreateFillsTheHeadAndPublishes) {
  const uint64_t gen0 = root.generation;
  mpidbg_object_head* h = registry.BeginCreate(0x1234, 365, 0);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->hdr.seq & 1u, 1u);  // being written
  EXPECT_EQ(h->hdr.kind, MPIDBG_KIND_INFO);
  EXPECT_EQ(h->hdr.size, sizeof(mpidbg_info_record));
  EXPECT_EQ(h->handle, 0x1234u);
  EXPECT_EQ(h->create_serial, 1u);
  EXPECT_GT(h->create_time_ns, 0);
  EXPECT_EQ(h->creator, 365);
  EXPECT_EQ(h->fortran_index, -1);
  EXPECT_EQ(h->free_serial, 0u);
  EXPECT_EQ(registry.Find(0x1234), nullptr);  // not mapped before EndCreate
  registry.EndCreate(h);
  EXPECT_EQ(h->hdr.seq & 1u, 0u);
  EXPECT_GT(root.generation, gen0);
  EXPECT_EQ(root.infos.live_count, 1u);
  EXPECT_EQ(registry.Find(0x1234), h);
  EXPECT_EQ(registry.FindLive(0x1234), h);
  EXPECT_EQ(registry.Find(0x9999), nullptr);
  EXPECT_EQ(registry.table(), &table);

  mpidbg_info_record* second = Create(0x5678);
  EXPECT_EQ(second->obj.create_serial, 2u);
  EXPECT_EQ(root.create_counter, 2u);
}

TEST_F(ObjectRegistryTest, InvalidHandleIsNotRecorded) {
  EXPECT_EQ(registry.BeginCreate(0, 365, 0), nullptr);
  EXPECT_EQ(registry.BeginCreate(~uint64_t{0}, 365, 0), nullptr);
  EXPECT_EQ(InUse(), 0u);
}

TEST_F(ObjectRegistryTest, PredefinedRecordsHaveNoCreationTime) {
  mpidbg_info_record* r = Create(0x77, MPIDBG_REC_PREDEFINED, 200);
  EXPECT_EQ(r->obj.create_time_ns, 0);
  EXPECT_EQ(r->obj.hdr.flags, MPIDBG_REC_PREDEFINED);
  EXPECT_EQ(registry.FindLive(0x77), &r->obj);
}

TEST_F(ObjectRegistryTest, UpdateWindowBumpsSeqAndGeneration) {
  mpidbg_info_record* r = Create(0x10);
  const uint32_t seq = r->obj.hdr.seq;
  const uint64_t gen = root.generation;
  registry.BeginUpdate(&r->obj);
  EXPECT_EQ(r->obj.hdr.seq & 1u, 1u);
  r->nkeys = 5;
  registry.EndUpdate(&r->obj);
  EXPECT_EQ(r->obj.hdr.seq & 1u, 0u);
  EXPECT_GT(r->obj.hdr.seq, seq);
  EXPECT_GT(root.generation, gen);
  EXPECT_EQ(r->nkeys, 5);
}

TEST_F(ObjectRegistryTest, FreeKeepsAnOrphan) {
  mpidbg_info_record* r = Create(0x10);
  EXPECT_EQ(registry.MarkFreed(0x10, /*released_now=*/true), &r->obj);
  EXPECT_EQ(r->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  EXPECT_EQ(r->obj.free_serial, 1u);
  EXPECT_EQ(root.free_counter, 1u);
  EXPECT_EQ(root.orphan_count, 1u);
  EXPECT_EQ(registry.Find(0x10), &r->obj);  // a stale handle copy still decodes
  EXPECT_EQ(registry.FindLive(0x10), nullptr);
  EXPECT_EQ(r->nkeys, 1);                   // fields stay
  EXPECT_NE(r->entries.address, 0u);
  // Freed twice (MPI's error): nothing changes.
  EXPECT_EQ(registry.MarkFreed(0x10, true), &r->obj);
  EXPECT_EQ(r->obj.free_serial, 1u);
  EXPECT_EQ(root.orphan_count, 1u);
  // Unknown handle.
  EXPECT_EQ(registry.MarkFreed(0x99, true), nullptr);
}

TEST_F(ObjectRegistryTest, ReleasedLaterByRecordOrByHandle) {
  mpidbg_info_record* a = Create(0x10);
  mpidbg_info_record* b = Create(0x20);
  registry.MarkFreed(0x10, /*released_now=*/false);
  registry.MarkFreed(0x20, /*released_now=*/false);
  EXPECT_EQ(a->obj.hdr.flags, MPIDBG_REC_FREED);
  registry.MarkReleased(&a->obj);
  EXPECT_EQ(a->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  EXPECT_TRUE(registry.MarkHandleReleased(0x20));
  EXPECT_EQ(b->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  EXPECT_FALSE(registry.MarkHandleReleased(0x20));  // already
  Create(0x30);
  EXPECT_FALSE(registry.MarkHandleReleased(0x30));  // live
  EXPECT_FALSE(registry.MarkHandleReleased(0x40));  // unknown
}

TEST_F(ObjectRegistryTest, OrphansBeyondTheBudgetAreEvictedOldestFirst) {
  root.orphan_budget = 2;
  Create(0x1);
  Create(0x2);
  Create(0x3);
  registry.MarkFreed(0x1, true);
  registry.MarkFreed(0x2, true);
  EXPECT_EQ(g_drops, 0);
  registry.MarkFreed(0x3, true);
  EXPECT_EQ(root.orphan_evictions, 1u);
  EXPECT_EQ(root.orphan_count, 2u);
  EXPECT_EQ(g_drops, 1);                    // the evicted record's array was freed
  EXPECT_EQ(registry.Find(0x1), nullptr);   // the oldest is gone
  EXPECT_NE(registry.Find(0x2), nullptr);
  EXPECT_NE(registry.Find(0x3), nullptr);
  EXPECT_EQ(InUse(), 2u);
  EXPECT_EQ(root.infos.live_count, 2u);
}

TEST_F(ObjectRegistryTest, NewRecordTakesTheSlotOfTheOrphanTheBudgetEvictsNext) {
  root.orphan_budget = 2;
  mpidbg_info_record* a = Create(0x1);
  Create(0x2);
  registry.MarkFreed(0x1, true);
  registry.MarkFreed(0x2, true);
  EXPECT_EQ(root.infos.live_count, 2u);
  const uint32_t seq = a->obj.hdr.seq;
  // The budget is full: the new record is written over the oldest orphan, in its slot.
  mpidbg_info_record* c = Create(0x3);
  EXPECT_EQ(c, a);
  EXPECT_EQ(c->obj.hdr.seq, seq + 2);  // one write window from the old record to the new
  EXPECT_EQ(c->obj.handle, 0x3u);
  EXPECT_EQ(c->obj.hdr.flags & MPIDBG_REC_FREED, 0u);
  EXPECT_EQ(c->obj.free_serial, 0u);
  EXPECT_EQ(c->nkeys, 1);
  EXPECT_EQ(g_drops, 1);                   // the orphan's array was freed
  EXPECT_EQ(registry.Find(0x1), nullptr);  // its stale handle no longer maps to the slot
  EXPECT_EQ(registry.Find(0x3), &c->obj);
  EXPECT_EQ(root.orphan_evictions, 1u);
  EXPECT_EQ(root.orphan_count, 1u);
  EXPECT_EQ(root.infos.live_count, 2u);
  EXPECT_EQ(InUse(), 2u);
  // The same handle value handed out again takes the slot of its own orphan.
  registry.MarkFreed(0x3, true);
  mpidbg_info_record* d = Create(0x2);
  EXPECT_EQ(registry.Find(0x2), &d->obj);
  EXPECT_EQ(registry.FindLive(0x2), &d->obj);
  EXPECT_EQ(root.orphan_count, 1u);
  EXPECT_EQ(root.orphan_evictions, 2u);
}

// An orphan MarkFreed left mapped, evicted into a new record: its handle's word in the
// map is cleared before the slot is reused, or a later handle of the same word would
// find it taken (and go to the map behind it) while it names a record of another handle.
TEST_F(ObjectRegistryTest, AnEvictedOrphanStillMappedLeavesTheMap) {
  root.orphan_budget = 1;
  const uint64_t h1 = 0x1000;
  uint64_t h3 = h1 + 1;
  while (mpidbg::core::RecordMap::SlotOf(h3) != mpidbg::core::RecordMap::SlotOf(h1)) ++h3;
  mpidbg_info_record* a = Create(h1);
  registry.MarkFreed(h1, true);  // one step: the orphan stays mapped
  mpidbg_info_record* b = Create(0x2);  // the budget is full: takes the orphan's slot
  ASSERT_EQ(b, a);
  Create(h3);  // no orphan left: a slot of its own, its handle's word the orphan's was
  EXPECT_EQ(registry.spilled_handles(), 0u);
  EXPECT_EQ(registry.Find(h1), nullptr);
  EXPECT_NE(registry.FindLive(h3), nullptr);
}

TEST_F(ObjectRegistryTest, PredefinedRecordsNeverTakeAnOrphansSlot) {
  root.orphan_budget = 1;
  Create(0x1);
  registry.MarkFreed(0x1, true);
  Create(0x2, MPIDBG_REC_PREDEFINED);
  EXPECT_EQ(root.orphan_count, 1u);
  EXPECT_NE(registry.Find(0x1), nullptr);
}

TEST_F(ObjectRegistryTest, ReleaseAllDropsEveryOrphanButNoLiveRecord) {
  Create(0x1);
  Create(0x2);
  Create(0x3);
  registry.MarkFreed(0x1, true);
  registry.MarkFreed(0x2, false);
  EXPECT_EQ(orphans.ReleaseAll(), 2u);
  EXPECT_EQ(root.orphan_releases, 2u);
  EXPECT_EQ(root.orphan_count, 0u);
  EXPECT_EQ(g_drops, 2);
  EXPECT_EQ(registry.Find(0x1), nullptr);
  EXPECT_EQ(registry.Find(0x2), nullptr);
  EXPECT_NE(registry.FindLive(0x3), nullptr);
  EXPECT_EQ(InUse(), 1u);
}

TEST_F(ObjectRegistryTest, KeepAllKeepsEveryOrphan) {
  root.orphan_budget = 1;
  root.orphan_keep_all = 1;
  for (uint64_t h = 1; h <= 5; ++h) Create(h);
  for (uint64_t h = 1; h <= 5; ++h) registry.MarkFreed(h, true);
  EXPECT_EQ(root.orphan_count, 5u);
  EXPECT_EQ(root.orphan_evictions, 0u);
  EXPECT_EQ(InUse(), 5u);
}

TEST_F(ObjectRegistryTest, ReusedHandleValueMapsToTheNewRecord) {
  mpidbg_info_record* old_rec = Create(0x10);
  registry.MarkFreed(0x10, true);
  mpidbg_info_record* new_rec = Create(0x10);
  ASSERT_NE(old_rec, new_rec);
  EXPECT_EQ(registry.Find(0x10), &new_rec->obj);
  EXPECT_EQ(registry.FindLive(0x10), &new_rec->obj);
  EXPECT_EQ(old_rec->obj.hdr.kind, MPIDBG_KIND_INFO);  // the orphan stays in the table
  EXPECT_EQ(old_rec->obj.hdr.flags & MPIDBG_REC_FREED, MPIDBG_REC_FREED);
  EXPECT_EQ(new_rec->obj.hdr.flags, 0u);
  EXPECT_GT(new_rec->obj.create_serial, old_rec->obj.create_serial);
  // Releasing the orphan leaves the new mapping alone.
  orphans.ReleaseAll();
  EXPECT_EQ(registry.FindLive(0x10), &new_rec->obj);
  // Freeing the new one works as usual.
  registry.MarkFreed(0x10, true);
  EXPECT_EQ(new_rec->obj.free_serial, 2u);
}

TEST_F(ObjectRegistryTest, LiveHandleHandedOutAgainOrphansTheOldRecord) {
  mpidbg_info_record* old_rec = Create(0x10);
  mpidbg_info_record* new_rec = Create(0x10);
  EXPECT_EQ(old_rec->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  EXPECT_EQ(old_rec->obj.free_serial, 1u);
  EXPECT_EQ(root.orphan_count, 1u);
  EXPECT_EQ(registry.FindLive(0x10), &new_rec->obj);
  EXPECT_NE(registry.MarkFreed(0x10, true), nullptr);
  EXPECT_EQ(new_rec->obj.hdr.flags & MPIDBG_REC_FREED, MPIDBG_REC_FREED);
}

TEST_F(CountingRegistryTest, LiveHandleHandedOutAgainIsOneMoreReference) {
  Create(0x10);
  const uint64_t in_use = InUse();
  mpidbg_info_record* second = Create(0x10);
  EXPECT_EQ(InUse(), in_use);  // the old record was replaced, not orphaned
  EXPECT_EQ(root.orphan_count, 0u);
  EXPECT_EQ(g_drops, 1);
  Create(0x10);
  // Three references: the first two frees leave the record live.
  EXPECT_EQ(registry.MarkFreed(0x10, true), nullptr);
  EXPECT_EQ(registry.MarkFreed(0x10, true), nullptr);
  mpidbg_object_head* live = registry.FindLive(0x10);
  ASSERT_NE(live, nullptr);
  EXPECT_NE(live, &second->obj);
  EXPECT_EQ(registry.MarkFreed(0x10, true), live);
  EXPECT_EQ(registry.FindLive(0x10), nullptr);
  EXPECT_EQ(root.orphan_count, 1u);
  // A new object under the same value starts with one reference again.
  Create(0x10);
  EXPECT_NE(registry.MarkFreed(0x10, true), nullptr);
}

TEST_F(ObjectRegistryTest, PredefinedRecordSurvivesResultsWithItsHandle) {
  mpidbg_info_record* pre = Create(0x48, MPIDBG_REC_PREDEFINED, 200);
  EXPECT_EQ(registry.MarkFreed(0x48, true), nullptr);  // never freed
  EXPECT_EQ(pre->obj.hdr.flags, MPIDBG_REC_PREDEFINED);
  // A call returns the predefined handle: it gets its own record.
  mpidbg_info_record* result = Create(0x48);
  EXPECT_EQ(pre->obj.hdr.flags, MPIDBG_REC_PREDEFINED);
  EXPECT_EQ(registry.FindLive(0x48), &result->obj);
  EXPECT_EQ(registry.MarkFreed(0x48, true), &result->obj);
  EXPECT_EQ(registry.FindLive(0x48), &pre->obj);
  EXPECT_EQ(registry.Find(0x48), &result->obj);  // newest, an orphan
  orphans.ReleaseAll();
  EXPECT_EQ(registry.Find(0x48), &pre->obj);
  EXPECT_EQ(registry.FindLive(0x48), &pre->obj);
  EXPECT_EQ(pre->obj.hdr.kind, MPIDBG_KIND_INFO);
}

TEST_F(ObjectRegistryTest, DiscardDropsWithoutOrphan) {
  mpidbg_info_record* r = Create(0x10);
  registry.Discard(&r->obj);
  EXPECT_EQ(registry.Find(0x10), nullptr);
  EXPECT_EQ(root.orphan_count, 0u);
  EXPECT_EQ(g_drops, 1);
  EXPECT_EQ(InUse(), 0u);
  EXPECT_EQ(root.infos.live_count, 0u);
  registry.Discard(nullptr);
}

TEST_F(ObjectRegistryTest, SlotsAreReusedAfterRelease) {
  root.orphan_budget = 0;
  for (int round = 0; round < 50; ++round) {
    Create(0x100 + round);
    registry.MarkFreed(0x100 + round, true);
  }
  EXPECT_EQ(root.infos.slab_count, 1u);  // 4 slots per slab, never more than one in use
  EXPECT_EQ(root.orphan_evictions, 50u);
  EXPECT_EQ(InUse(), 0u);
}

}  // namespace
