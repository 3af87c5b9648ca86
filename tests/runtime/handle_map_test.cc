// The runtime's handle -> record hash.
#include "core/handle_map.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

// A map that gives its memory back when the test ends (the runtime's maps live for
// the whole process and never do).
class TestMap : public mpidbg::core::HandleMap {
 public:
  using HandleMap::HandleMap;
  ~TestMap() { ReleaseMemory(); }
};
using HandleMap = mpidbg::core::HandleMap;

TEST(HandleMap, InsertFindErase) {
  TestMap m(8);
  uint64_t v = 0;
  EXPECT_FALSE(m.Find(5, &v));
  uint64_t prev = 123;
  EXPECT_TRUE(m.Insert(5, 50, &prev));
  EXPECT_EQ(prev, 0u);
  EXPECT_TRUE(m.Find(5, &v));
  EXPECT_EQ(v, 50u);
  EXPECT_TRUE(m.Insert(5, 51, &prev));
  EXPECT_EQ(prev, 50u);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_TRUE(m.Erase(5, &v));
  EXPECT_EQ(v, 51u);
  EXPECT_FALSE(m.Find(5, &v));
  EXPECT_FALSE(m.Erase(5));
  EXPECT_EQ(m.size(), 0u);
}

TEST(HandleMap, ReleaseMemoryLeavesAUsableEmptyMap) {
  TestMap m(8);
  for (uint64_t k = 1; k <= 100; ++k) m.Insert(k, k);
  m.ReleaseMemory();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.capacity(), 0u);
  EXPECT_FALSE(m.Find(1, nullptr));
  EXPECT_TRUE(m.Insert(1, 2));
  EXPECT_TRUE(m.Find(1, nullptr));
}

TEST(HandleMap, ReservedKeysAreRejected) {
  TestMap m;
  EXPECT_FALSE(m.Insert(HandleMap::kEmpty, 1));
  EXPECT_FALSE(m.Insert(HandleMap::kTombstone, 1));
  EXPECT_FALSE(m.Find(HandleMap::kEmpty, nullptr));
}

TEST(HandleMap, CompareEraseOnlyMatchingValue) {
  TestMap m;
  m.Insert(7, 70);
  EXPECT_FALSE(m.CompareErase(7, 71));
  EXPECT_TRUE(m.Find(7, nullptr));
  EXPECT_TRUE(m.CompareErase(7, 70));
  EXPECT_FALSE(m.Find(7, nullptr));
}

TEST(HandleMap, GrowsAndKeepsEverything) {
  TestMap m(8);
  for (uint64_t k = 1; k <= 5000; ++k) ASSERT_TRUE(m.Insert(k * 0x1000, k));
  EXPECT_EQ(m.size(), 5000u);
  EXPECT_GE(m.capacity(), 5000u * 10 / 7);
  for (uint64_t k = 1; k <= 5000; ++k) {
    uint64_t v = 0;
    ASSERT_TRUE(m.Find(k * 0x1000, &v));
    EXPECT_EQ(v, k);
  }
}

TEST(HandleMap, TombstonesDoNotGrowTheTableForever) {
  TestMap m(64);
  for (uint64_t round = 0; round < 100000; ++round) {
    ASSERT_TRUE(m.Insert(round + 1, round));
    ASSERT_TRUE(m.Erase(round + 1));
  }
  EXPECT_EQ(m.size(), 0u);
  EXPECT_LE(m.capacity(), 64u) << "churn at constant size must not grow the table";
}

// Ever-new keys come and go (as freed handles do): every rebuild replaces the array,
// and replaced arrays are freed once no reader is inside, not kept forever.
TEST(HandleMap, ReplacedArraysAreFreedUnderChurn) {
  TestMap m(64);
  for (uint64_t k = 1; k <= 200000; ++k) {
    ASSERT_TRUE(m.Insert(k, k));
    if (k > 8) {
      ASSERT_TRUE(m.Erase(k - 8));
    }
  }
  EXPECT_EQ(m.size(), 8u);
  EXPECT_LE(m.capacity(), 64u);
  EXPECT_EQ(m.retired_arrays(), 0u);
  for (uint64_t k = 200000 - 7; k <= 200000; ++k) EXPECT_TRUE(m.Find(k, nullptr)) << k;
}

TEST(HandleMap, ProbingSurvivesErasedNeighbours) {
  TestMap m(8);
  for (uint64_t k = 1; k <= 5; ++k) m.Insert(k, k);
  m.Erase(2);
  m.Erase(3);
  for (uint64_t k : {1, 4, 5}) EXPECT_TRUE(m.Find(k, nullptr)) << k;
  m.Insert(3, 33);
  uint64_t v = 0;
  EXPECT_TRUE(m.Find(3, &v));
  EXPECT_EQ(v, 33u);
}

TEST(HandleMap, ReadersRunConcurrentlyWithOneWriter) {
  TestMap m(8);
  for (uint64_t k = 1; k <= 16; ++k) m.Insert(k, k * 10);
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!stop.load()) {
      for (uint64_t k = 1; k <= 16; ++k) {
        uint64_t v = 0;
        if (!m.Find(k, &v) || v != k * 10) bad.fetch_add(1);
      }
    }
  });
  for (uint64_t k = 1000; k < 60000; ++k) {  // forces many growths and tombstones
    m.Insert(k, k);
    if (k % 3 == 0) m.Erase(k);
  }
  stop = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0) << "stable keys must stay visible while the table grows";
}

// A writer's own lookups (FindAsWriter) see what Find sees, across growth, rebuilds that
// drop tombstones and erased neighbours.
TEST(HandleMap, WriterLookupsAgreeWithFind) {
  HandleMap m(4);
  for (uint64_t k = 1; k < 5000; ++k) {
    m.Insert(k, k * 7);
    if (k % 4 == 0) m.Erase(k - 2);
    const uint64_t probe[] = {k, k - 1, k - 2, k + 1};
    for (uint64_t p : probe) {
      uint64_t a = 0, b = 0;
      const bool fa = m.Find(p, &a), fb = m.FindAsWriter(p, &b);
      ASSERT_EQ(fa, fb) << "key " << p;
      ASSERT_EQ(a, b) << "key " << p;
    }
  }
  uint64_t v = 1;
  EXPECT_FALSE(m.FindAsWriter(HandleMap::kEmpty, &v));
  EXPECT_FALSE(m.FindAsWriter(HandleMap::kTombstone, &v));
  EXPECT_EQ(v, 1u);
}

}  // namespace
