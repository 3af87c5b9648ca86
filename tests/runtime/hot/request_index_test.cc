// The request index: insert/find/erase, companions, backward-shift deletion under churn
// (no rebuilds, every entry reachable), growth.
#include "core/request_index.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace {

using mpidbg::core::RequestIndex;

TEST(RequestIndex, InsertFindErase) {
  RequestIndex index(16);
  EXPECT_EQ(index.Find(5), nullptr);
  RequestIndex::Entry previous;
  ASSERT_TRUE(index.Insert(5, 100, 0, &previous));
  EXPECT_EQ(previous.key, 0u);
  ASSERT_NE(index.Find(5), nullptr);
  EXPECT_EQ(index.Find(5)->record, 100u);
  ASSERT_TRUE(index.Insert(5, 200, 300, &previous));
  EXPECT_EQ(previous.record, 100u);
  EXPECT_EQ(index.size(), 1u);
  EXPECT_EQ(index.Find(5)->companion, 300u);
  EXPECT_FALSE(index.CompareErase(5, 100));
  RequestIndex::Entry out;
  EXPECT_TRUE(index.Erase(5, &out));
  EXPECT_EQ(out.record, 200u);
  EXPECT_EQ(out.companion, 300u);
  EXPECT_EQ(index.Find(5), nullptr);
  EXPECT_FALSE(index.Erase(5));
  EXPECT_FALSE(index.Insert(0, 1, 0));
  index.ReleaseMemory();
}

TEST(RequestIndex, ForgetCompanionOnlyIfItMatches) {
  RequestIndex index(16);
  index.Insert(7, 1, 2);
  index.ForgetCompanion(7, 3);
  EXPECT_EQ(index.Find(7)->companion, 2u);
  index.ForgetCompanion(7, 2);
  EXPECT_EQ(index.Find(7)->companion, 0u);
  index.ReleaseMemory();
}

// Millions of short-lived requests over a small live set: no growth beyond what the
// live set needs, and the index always agrees with a reference map.
TEST(RequestIndex, ChurnKeepsCapacityAndContents) {
  RequestIndex index(64);
  std::map<uint64_t, uint64_t> ref;
  std::mt19937_64 rng(42);
  for (int step = 0; step < 2000000; ++step) {
    const uint64_t key = 1 + rng() % 100;  // handles are reused, as MPI does
    if (ref.count(key) != 0 && rng() % 2 == 0) {
      ASSERT_TRUE(index.CompareErase(key, ref[key]));
      ref.erase(key);
    } else {
      ref[key] = rng() | 1;
      ASSERT_TRUE(index.Insert(key, ref[key], 0));
    }
    if (step % 4096 == 0) {
      for (const auto& [k, v] : ref) {
        const RequestIndex::Entry* e = index.Find(k);
        ASSERT_NE(e, nullptr);
        ASSERT_EQ(e->record, v);
      }
    }
  }
  EXPECT_EQ(index.size(), ref.size());
  EXPECT_LE(index.capacity(), 256u);
  index.ReleaseMemory();
}

TEST(RequestIndex, GrowsAndKeepsEverything) {
  RequestIndex index(16);
  for (uint64_t k = 1; k <= 10000; ++k) ASSERT_TRUE(index.Insert(k * 0x10000, k, 0));
  EXPECT_EQ(index.size(), 10000u);
  EXPECT_GE(index.capacity(), 20000u);
  for (uint64_t k = 1; k <= 10000; ++k) {
    const RequestIndex::Entry* e = index.Find(k * 0x10000);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->record, k);
  }
  for (uint64_t k = 1; k <= 10000; k += 2) ASSERT_TRUE(index.Erase(k * 0x10000));
  for (uint64_t k = 2; k <= 10000; k += 2) ASSERT_NE(index.Find(k * 0x10000), nullptr);
  index.ReleaseMemory();
}

}  // namespace
