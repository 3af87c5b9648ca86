// mpidbg_comm_get_neighbors: a process's topology neighbours from the recorded
// topology arguments, in MPI's order, and nothing for arguments that contradict
// themselves.
#include <vector>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kGridHandle = 0x84000101;   // 2 x 3, periodic in the second dimension
constexpr uint64_t kPairHandle = 0x84000102;   // 1 dimension of 2, periodic
constexpr uint64_t kGraphHandle = 0x84000103;  // MPI_Graph_create's 3-node example
constexpr uint64_t kDistHandle = 0x84000104;
constexpr uint64_t kBadGridHandle = 0x84000105;  // more cells than members

struct Neighbours {
  int rc = -1;
  std::vector<int> sources, destinations;
  int num_sources = -1, num_destinations = -1;
};

class Neighbors : public BuiltScenario {
 protected:
  void SetUp() override {
    Start([](ImageBuilder& b) {
      auto add = [&b](uint64_t handle, uint64_t job, int32_t rank, int32_t size, int32_t kind,
                      const std::vector<int32_t>& args) {
        std::vector<int32_t> world;
        for (int32_t r = 0; r < size; ++r) world.push_back(r);
        mpidbg_comm_record c =
            make_comm(handle, job, rank, size, b.add_int32_array(world), handle & 0xff, "topo");
        c.topology = kind;
        c.topo_args = b.int32_side_array(args);
        b.add_comm(c);
      };
      // ndims, dims, periods, coords, reorder: rank 4 is at (1, 1).
      add(kGridHandle, 0x9101, 4, 6, MPIDBG_TOPO_CART, {2, 2, 3, 0, 1, 1, 1, 0});
      add(kPairHandle, 0x9102, 0, 2, MPIDBG_TOPO_CART, {1, 2, 1, 0, 0});
      // nnodes, nedges, index, edges, reorder.
      add(kGraphHandle, 0x9103, 0, 3, MPIDBG_TOPO_GRAPH, {3, 4, 2, 3, 4, 1, 2, 0, 0, 0});
      // indegree, outdegree, weighted, sources, destinations, reorder.
      add(kDistHandle, 0x9104, 1, 6, MPIDBG_TOPO_DIST_GRAPH, {2, 1, 0, 3, 5, 2, 0});
      add(kBadGridHandle, 0x9105, 0, 4, MPIDBG_TOPO_CART, {2, 3, 3, 0, 0, 0, 0, 0});
    });
    ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  }

  // Stands the communicator iterator on `handle`.
  bool Select(uint64_t handle) {
    if (p().mqs_setup_communicator_iterator(proc()) != mqs_ok) return false;
    do {
      mpidbg_comm_detail d{};
      d.size = sizeof d;
      if (p().mpidbg_comm_get_detail(proc(), &d) == mqs_ok && d.handle == handle) return true;
    } while (p().mqs_next_communicator(proc()) == mqs_ok);
    return false;
  }

  Neighbours Of(uint64_t handle, int room = 8) {
    Neighbours n;
    EXPECT_TRUE(Select(handle)) << std::hex << handle;
    std::vector<int> s(8, -9), d(8, -9);
    n.rc = p().mpidbg_comm_get_neighbors(proc(), room, s.data(), &n.num_sources, room, d.data(),
                                         &n.num_destinations);
    if (n.rc == mqs_ok) {
      s.resize(static_cast<size_t>(std::min(n.num_sources, room)));
      d.resize(static_cast<size_t>(std::min(n.num_destinations, room)));
      n.sources = s;
      n.destinations = d;
    }
    return n;
  }
};

TEST_P(Neighbors, CartesianPerDimensionBeforeThenAfter) {
  // (1,1): (0,1) above; below is off the non-periodic edge; (1,0) and (1,2) beside.
  const Neighbours n = Of(kGridHandle);
  ASSERT_EQ(n.rc, mqs_ok);
  EXPECT_EQ(n.sources, (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(n.destinations, (std::vector<int>{1, 3, 5}));

  mpidbg_comm_detail d{};
  d.size = sizeof d;
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_EQ(d.topology, MPIDBG_TOPO_CART);
}

TEST_P(Neighbors, PeriodicDimensionOfTwoNamesTheOtherRankTwice) {
  const Neighbours n = Of(kPairHandle);
  ASSERT_EQ(n.rc, mqs_ok);
  EXPECT_EQ(n.sources, (std::vector<int>{1, 1}));
}

TEST_P(Neighbors, GraphEdgesOfThisNode) {
  const Neighbours n = Of(kGraphHandle);
  ASSERT_EQ(n.rc, mqs_ok);
  EXPECT_EQ(n.sources, (std::vector<int>{1, 2}));
  EXPECT_EQ(n.destinations, (std::vector<int>{1, 2}));
  mpidbg_comm_detail d{};
  d.size = sizeof d;
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_EQ(d.topology, MPIDBG_TOPO_GRAPH);
}

TEST_P(Neighbors, DistributedGraphAsGiven) {
  const Neighbours n = Of(kDistHandle);
  ASSERT_EQ(n.rc, mqs_ok);
  EXPECT_EQ(n.sources, (std::vector<int>{3, 5}));
  EXPECT_EQ(n.destinations, (std::vector<int>{2}));
}

TEST_P(Neighbors, TooLittleRoomStillGivesTheFullCounts) {
  const Neighbours n = Of(kGridHandle, 1);
  ASSERT_EQ(n.rc, mqs_ok);
  EXPECT_EQ(n.num_sources, 3);
  EXPECT_EQ(n.num_destinations, 3);
  EXPECT_EQ(n.sources, (std::vector<int>{1}));
}

TEST_P(Neighbors, ContradictionsAndPlainCommunicatorsNameNobody) {
  EXPECT_EQ(Of(kBadGridHandle).rc, mqs_no_information);
  EXPECT_EQ(Of(kWorldHandle).rc, mqs_no_information);
  ASSERT_TRUE(Select(kGridHandle));
  int ns = 0, nd = 0;
  EXPECT_NE(p().mpidbg_comm_get_neighbors(proc(), 1, nullptr, &ns, 1, nullptr, &nd), mqs_ok);
  EXPECT_NE(p().mpidbg_comm_get_neighbors(proc(), 0, nullptr, nullptr, 0, nullptr, &nd), mqs_ok);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, Neighbors, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
