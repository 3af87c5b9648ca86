// Rank and tag normalisation for both libraries' wildcard encodings.
#include "core/normalise.h"

#include <gtest/gtest.h>

namespace {

using namespace mpidbg::core;

constexpr MpiEncodings kMpich{-2, -1, -1};    // ANY_SOURCE, PROC_NULL, ANY_TAG
constexpr MpiEncodings kOpenMpi{-1, -2, -1};

TEST(Normalise, RanksOfBothLibraries) {
  EXPECT_EQ(NormaliseRank(-2, kMpich), MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(NormaliseRank(-1, kMpich), MPIDBG_RANK_PROC_NULL);
  EXPECT_EQ(NormaliseRank(-1, kOpenMpi), MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(NormaliseRank(-2, kOpenMpi), MPIDBG_RANK_PROC_NULL);
  EXPECT_EQ(NormaliseRank(3, kMpich), 3);
  EXPECT_EQ(NormaliseRank(-7, kOpenMpi), MPIDBG_RANK_UNKNOWN);
}

TEST(Normalise, Tags) {
  EXPECT_EQ(NormaliseTag(-1, kMpich), MPIDBG_TAG_ANY);
  EXPECT_EQ(NormaliseTag(0, kMpich), 0);
  EXPECT_EQ(NormaliseTag(32767, kOpenMpi), 32767);
}

TEST(Normalise, PeerWorldRank) {
  const int32_t world[] = {4, 5, 6};
  EXPECT_EQ(PeerWorldRank(1, world, 3), 5);
  EXPECT_EQ(PeerWorldRank(3, world, 3), MPIDBG_RANK_UNKNOWN);
  EXPECT_EQ(PeerWorldRank(MPIDBG_RANK_ANY_SOURCE, world, 3), MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(PeerWorldRank(MPIDBG_RANK_PROC_NULL, world, 3), MPIDBG_RANK_PROC_NULL);
  EXPECT_EQ(PeerWorldRank(0, nullptr, 0), MPIDBG_RANK_UNKNOWN);
}

}  // namespace
