// RecordMap: handles alone in their slot, handles spilled to the map when their slot is
// taken (found, replaced, erased there, never moved back), compare-erase, bad handles.
#include "core/record_map.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using mpidbg::core::RecordMap;

// Records with just a handle, as the map sees them.
struct Records {
  std::vector<mpidbg_object_head> heads;
  explicit Records(size_t n) : heads(n) {}
  mpidbg_object_head* Make(size_t i, uint64_t handle) {
    heads[i] = mpidbg_object_head{};
    heads[i].handle = handle;
    return &heads[i];
  }
};

// A handle other than `h` that lands in the same slot.
uint64_t SameSlotAs(uint64_t h) {
  for (uint64_t c = h + 1;; ++c) {
    if (RecordMap::SlotOf(c) == RecordMap::SlotOf(h)) return c;
  }
}

TEST(RecordMap, LoneHandlesStayInTheirSlots) {
  RecordMap map(16);
  Records r(2);
  mpidbg_object_head* prev = nullptr;
  ASSERT_TRUE(map.Insert(r.Make(0, 0x4c000001), &prev));
  EXPECT_EQ(prev, nullptr);
  EXPECT_EQ(map.Find(0x4c000001), &r.heads[0]);
  EXPECT_EQ(map.Find(0x4c000002), nullptr);
  EXPECT_EQ(map.spilled(), 0u);
  // The same handle again: the newer record replaces the older, which is returned.
  ASSERT_TRUE(map.Insert(r.Make(1, 0x4c000001), &prev));
  EXPECT_EQ(prev, &r.heads[0]);
  EXPECT_EQ(map.Find(0x4c000001), &r.heads[1]);
  map.CompareErase(0x4c000001, &r.heads[0]);  // not what it maps to: stays
  EXPECT_EQ(map.Find(0x4c000001), &r.heads[1]);
  map.CompareErase(0x4c000001, &r.heads[1]);
  EXPECT_EQ(map.Find(0x4c000001), nullptr);
}

TEST(RecordMap, ASecondHandleOfATakenSlotSpillsAndStaysSpilled) {
  RecordMap map(16);
  Records r(4);
  const uint64_t a = 0x8c000007;
  const uint64_t b = SameSlotAs(a);
  mpidbg_object_head* prev = nullptr;
  ASSERT_TRUE(map.Insert(r.Make(0, a), &prev));
  ASSERT_TRUE(map.Insert(r.Make(1, b), &prev));
  EXPECT_EQ(prev, nullptr);
  EXPECT_EQ(map.spilled(), 1u);
  EXPECT_EQ(map.Find(a), &r.heads[0]);
  EXPECT_EQ(map.Find(b), &r.heads[1]);
  // The slot frees up; b is still in the map, and a new record of b replaces it there.
  map.CompareErase(a, &r.heads[0]);
  EXPECT_EQ(map.Find(a), nullptr);
  EXPECT_EQ(map.Find(b), &r.heads[1]);
  ASSERT_TRUE(map.Insert(r.Make(2, b), &prev));
  EXPECT_EQ(prev, &r.heads[1]);
  EXPECT_EQ(map.Find(b), &r.heads[2]);
  EXPECT_EQ(map.spilled(), 1u);
  // a comes back into the free slot; erasing b empties the map.
  ASSERT_TRUE(map.Insert(r.Make(3, a), &prev));
  EXPECT_EQ(prev, nullptr);
  map.CompareErase(b, &r.heads[1]);  // the replaced record: nothing happens
  EXPECT_EQ(map.Find(b), &r.heads[2]);
  map.CompareErase(b, &r.heads[2]);
  EXPECT_EQ(map.Find(b), nullptr);
  EXPECT_EQ(map.spilled(), 0u);
  EXPECT_EQ(map.Find(a), &r.heads[3]);
}

TEST(RecordMap, ReservedHandlesAreRefused) {
  RecordMap map(16);
  Records r(2);
  mpidbg_object_head* prev = nullptr;
  EXPECT_FALSE(map.Insert(r.Make(0, 0), &prev));
  EXPECT_FALSE(map.Insert(r.Make(1, ~uint64_t{0}), &prev));
  EXPECT_EQ(map.Find(0), nullptr);
  EXPECT_EQ(map.Find(~uint64_t{0}), nullptr);
}

// Many handles at once (MPICH-like index handles and Open MPI-like addresses): each one
// found, whether in its slot or spilled; all gone once erased.
TEST(RecordMap, ManyHandlesAreAllFoundAndErased) {
  RecordMap map(16);
  constexpr size_t kN = 5000;
  Records r(2 * kN);
  mpidbg_object_head* prev = nullptr;
  for (size_t i = 0; i < kN; ++i) {
    ASSERT_TRUE(map.Insert(r.Make(i, 0x8c000000u + i), &prev));
    ASSERT_TRUE(map.Insert(r.Make(kN + i, 0x7f1234560000ull + 0x140 * i), &prev));
  }
  EXPECT_GT(map.spilled(), 0u);  // more handles than slots
  for (size_t i = 0; i < kN; ++i) {
    ASSERT_EQ(map.Find(0x8c000000u + i), &r.heads[i]);
    ASSERT_EQ(map.Find(0x7f1234560000ull + 0x140 * i), &r.heads[kN + i]);
  }
  for (size_t i = 0; i < 2 * kN; ++i) map.CompareErase(r.heads[i].handle, &r.heads[i]);
  EXPECT_EQ(map.spilled(), 0u);
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ(map.Find(0x8c000000u + i), nullptr);
}

}  // namespace
