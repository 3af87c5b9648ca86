// Job-wide communicator ids: deterministic, never 0, sensitive to what distinguishes
// communicators, symmetric where both sides of an intercommunicator compute them.
#include "core/job_id.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

namespace {

using namespace mpidbg::core;

TEST(JobId, Mix64IsABijectionOnSamples) {
  std::set<uint64_t> seen;
  for (uint64_t i = 0; i < 10000; ++i) seen.insert(Mix64(i));
  EXPECT_EQ(seen.size(), 10000u);
  EXPECT_NE(Mix64(1), Mix64(2));
}

TEST(JobId, NeverZero) {
  EXPECT_NE(NonZero(0), 0u);
  EXPECT_EQ(NonZero(17), 17u);
  EXPECT_NE(kWorldJobId, 0u);
  for (int r = 0; r < 1000; ++r) EXPECT_NE(SelfJobId(r), 0u);
}

TEST(JobId, SelfDiffersPerRankAndFromWorld) {
  std::set<uint64_t> ids{kWorldJobId};
  for (int r = 0; r < 1000; ++r) ids.insert(SelfJobId(r));
  EXPECT_EQ(ids.size(), 1001u);
}

TEST(JobId, RankHashDependsOnOrderAndMembers) {
  const int32_t a[] = {0, 1, 2};
  const int32_t b[] = {2, 1, 0};
  const int32_t c[] = {0, 1};
  EXPECT_EQ(HashRanks(a, 3), HashRanks(a, 3));
  EXPECT_NE(HashRanks(a, 3), HashRanks(b, 3));
  EXPECT_NE(HashRanks(a, 3), HashRanks(c, 2));
  EXPECT_NE(HashRanks(a, 0), HashRanks(a, 1));
}

TEST(JobId, RankHashTellsLargeGroupsApart) {
  // Groups as splits make them: every rank in four lanes and the tail alike.
  std::vector<int32_t> all(1027);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
  std::set<uint64_t> seen;
  for (int32_t n : {1, 2, 3, 4, 5, 7, 8, 1024, 1025, 1027}) seen.insert(HashRanks(all.data(), n));
  EXPECT_EQ(seen.size(), 10u) << "prefixes of one group";
  for (size_t i = 0; i < all.size(); i += 97) {
    std::vector<int32_t> changed = all;
    changed[i] += 5000;  // one member another process
    EXPECT_TRUE(seen.insert(HashRanks(changed.data(), 1027)).second) << "member " << i;
  }
  std::vector<int32_t> swapped = all;
  std::swap(swapped[1025], swapped[1026]);  // two of the tail, the same lane
  EXPECT_NE(HashRanks(all.data(), 1027), HashRanks(swapped.data(), 1027));
  std::vector<int32_t> even, odd;
  for (int32_t r = 0; r < 2048; ++r) (r % 2 == 0 ? even : odd).push_back(r);
  EXPECT_NE(HashRanks(even.data(), 1024), HashRanks(odd.data(), 1024)) << "a split by parity";
}

// A duplicate's ids (kDuplicateMembers) as any other derived communicator's.
TEST(JobId, DerivedDependsOnParentCounterAndMembers) {
  const uint64_t m = HashRanks(std::initializer_list<int32_t>{0, 1}.begin(), 2);
  for (uint64_t members : {m, kDuplicateMembers}) {
    const uint64_t base = DerivedJobId(kWorldJobId, 0, members);
    EXPECT_EQ(base, DerivedJobId(kWorldJobId, 0, members));
    EXPECT_NE(base, DerivedJobId(kWorldJobId, 1, members));
    EXPECT_NE(base, DerivedJobId(SelfJobId(0), 0, members));
    EXPECT_NE(base, DerivedJobId(kWorldJobId, 0, members + 1));
    EXPECT_NE(base, 0u);
  }
  EXPECT_NE(DerivedJobId(kWorldJobId, 0, kDuplicateMembers), DerivedJobId(kWorldJobId, 0, m));
}

TEST(JobId, IntercommMemberHashIsSymmetric) {
  const int32_t left[] = {0, 2};
  const int32_t right[] = {1, 3};
  EXPECT_EQ(MemberHash(left, 2, right, 2, true), MemberHash(right, 2, left, 2, true));
  EXPECT_NE(MemberHash(left, 2, right, 2, true), MemberHash(left, 2, right, 2, false));
  EXPECT_EQ(MemberHash(left, 2, nullptr, 0, false), HashRanks(left, 2));
}

TEST(JobId, IntercommCreateKeyIsSymmetricAndTagged) {
  const uint64_t a = 0x1234, b = 0x9876;
  EXPECT_EQ(IntercommCounterKey(5, a, b), IntercommCounterKey(5, b, a));
  EXPECT_NE(IntercommCounterKey(5, a, b), IntercommCounterKey(6, a, b));
  const uint64_t key = IntercommCounterKey(5, a, b);
  EXPECT_NE(IntercommJobId(key, 0), IntercommJobId(key, 1));
}

TEST(JobId, CreateGroupDependsOnTagAndCounter) {
  const uint64_t m = 77;
  EXPECT_NE(CreateGroupJobId(kWorldJobId, 1, m, 0), CreateGroupJobId(kWorldJobId, 2, m, 0));
  EXPECT_NE(CreateGroupJobId(kWorldJobId, 1, m, 0), CreateGroupJobId(kWorldJobId, 1, m, 1));
  EXPECT_NE(CreateGroupCounterKey(kWorldJobId, m), DerivedCounterKey(kWorldJobId))
      << "recipes keep separate counters";
}

}  // namespace
