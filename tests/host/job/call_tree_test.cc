// call_tree_test.cc — ranks grouped by call path: the prefix tree's rank sets, the
// classes at its leaves, their order, and bounds on what a path can make it hold.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "job/call_tree.h"

namespace mpidbg::job {
namespace {

using Path = std::vector<std::string>;

TEST(CallTree, RanksWhosePathsAgreeFormOneClass) {
  CallTree t = BuildCallTree({{0, {"main", "exchange", "MPI_Recv"}},
                              {3, {"main", "MPI_Barrier"}},
                              {1, {"main", "exchange", "MPI_Recv"}},
                              {2, {"main", "exchange", "MPI_Send"}},
                              {4, {"main", "MPI_Barrier"}},
                              {5, {"main", "MPI_Barrier"}}});
  ASSERT_EQ(t.classes.size(), 3u);
  EXPECT_EQ(t.classes[0].ranks, (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(t.classes[0].path, (Path{"main", "MPI_Barrier"}));
  EXPECT_EQ(t.classes[1].ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(t.classes[1].path, (Path{"main", "exchange", "MPI_Recv"}));
  EXPECT_EQ(t.classes[2].ranks, (std::vector<int>{2}));

  EXPECT_EQ(t.root.ranks, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  ASSERT_EQ(t.root.children.size(), 1u);
  const CallTreeNode& main = t.root.children[0];
  EXPECT_EQ(main.name, "main");
  ASSERT_EQ(main.children.size(), 2u);
  // Most ranks first: exchange (0, 1, 2) ties with MPI_Barrier (3, 4, 5); then by name.
  EXPECT_EQ(main.children[0].name, "MPI_Barrier");
  EXPECT_EQ(main.children[1].name, "exchange");
  EXPECT_EQ(main.children[1].ranks, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(main.children[1].ends_here);
  EXPECT_EQ(main.children[1].children[0].name, "MPI_Recv");
  EXPECT_TRUE(main.children[1].children[0].ends_here);
}

TEST(CallTree, APathThatIsAPrefixOfAnotherIsAClassOfItsOwn) {
  CallTree t = BuildCallTree({{0, {"main"}}, {1, {"main", "compute"}}});
  ASSERT_EQ(t.classes.size(), 2u);
  EXPECT_EQ(t.classes[0].path, (Path{"main"}));
  EXPECT_EQ(t.classes[1].path, (Path{"main", "compute"}));
  EXPECT_TRUE(t.root.children[0].ends_here);
}

TEST(CallTree, ARankTwiceKeepsItsFirstPath) {
  CallTree t = BuildCallTree({{7, {"main", "a"}}, {7, {"main", "b"}}});
  ASSERT_EQ(t.classes.size(), 1u);
  EXPECT_EQ(t.classes[0].path, (Path{"main", "a"}));
  EXPECT_EQ(t.root.ranks, (std::vector<int>{7}));
}

TEST(CallTree, ARunawayRecursionIsCutAtItsOutermostEnd) {
  Path deep = {"main"};
  for (int i = 0; i < 10000; ++i) deep.push_back("recurse");
  deep.push_back("MPI_Recv");
  CallTree t = BuildCallTree({{0, deep}});
  ASSERT_EQ(t.classes.size(), 1u);
  EXPECT_EQ(t.classes[0].path.size(), kMaxCallPathDepth);
  EXPECT_EQ(t.classes[0].path.back(), "MPI_Recv");
}

TEST(CallTree, ThousandsOfRanksInAFewClasses) {
  std::vector<RankPath> paths;
  for (int r = 0; r < 4096; ++r) {
    paths.push_back({r, r == 17 ? Path{"main", "MPI_Bcast"} : Path{"main", "MPI_Allreduce"}});
  }
  CallTree t = BuildCallTree(paths);
  ASSERT_EQ(t.classes.size(), 2u);
  EXPECT_EQ(t.classes[0].ranks.size(), 4095u);
  EXPECT_EQ(t.classes[1].ranks, (std::vector<int>{17}));
}

TEST(CallTree, NoPathsNoClasses) {
  CallTree t = BuildCallTree({});
  EXPECT_TRUE(t.classes.empty());
  EXPECT_TRUE(t.root.children.empty());
}

}  // namespace
}  // namespace mpidbg::job
