// Partitioned requests: mpidbg_operation_info carries how many partitions a
// partitioned send marked ready (or a receive saw arrive) from the record beside its
// operation record; other operations and damaged records say nothing.
#include <vector>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kPsendRequest = 0xac000101;
constexpr uint64_t kPrecvRequest = 0xac000102;

class Partitions : public BuiltScenario {
 protected:
  // A partitioned send to rank 2 (8 partitions, `ready` done) and a partitioned receive
  // from rank 3 (4 partitions, `arrived` done) on MPI_COMM_WORLD, both started.
  void StartWith(int32_t ready, int32_t arrived) {
    Start([&](ImageBuilder& b) {
      mpidbg_operation_record send = make_op(MPIDBG_CALL_MPI_Psend_init, MPIDBG_OPERATION_SEND,
                                             kWorldHandle, kWorldJob, 500, 2, 2, 7);
      send.hdr.flags = MPIDBG_OPERATION_PERSISTENT;
      send.request = kPsendRequest;
      send.mode = MPIDBG_MODE_STANDARD;
      send.count = 8 * 16;
      b.add_op(send);
      mpidbg_operation_record recv = make_op(MPIDBG_CALL_MPI_Precv_init, MPIDBG_OPERATION_RECV,
                                             kWorldHandle, kWorldJob, 501, 3, 3, 7);
      recv.hdr.flags = MPIDBG_OPERATION_PERSISTENT;
      recv.request = kPrecvRequest;
      recv.count = 4 * 16;
      b.add_op(recv);
      mpidbg_partition_record ps{};
      ps.request = kPsendRequest;
      ps.partitions = 8;
      ps.partition_count = 16;
      ps.direction = MPIDBG_OPERATION_SEND;
      ps.done = ready;
      ps.starts = 2;
      b.add_partition(ps);
      mpidbg_partition_record pr{};
      pr.request = kPrecvRequest;
      pr.partitions = 4;
      pr.partition_count = 16;
      pr.direction = MPIDBG_OPERATION_RECV;
      pr.done = arrived;
      b.add_partition(pr);
    });
    ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
    ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);  // MPI_COMM_WORLD
  }

  // The detail of the operation with this request in the current communicator's queue.
  bool Detail(int queue, uint64_t request, mpidbg_operation_info* out) {
    if (p().mqs_setup_operation_iterator(proc(), queue) != mqs_ok) return false;
    mqs_pending_operation pending;
    while (p().mqs_next_operation(proc(), &pending) == mqs_ok) {
      *out = mpidbg_operation_info{};
      out->size = sizeof *out;
      if (p().mpidbg_operation_get_detail(proc(), out) == mqs_ok && out->request == request) {
        return true;
      }
    }
    return false;
  }
};

TEST_P(Partitions, SendShowsPartitionsReadyAndReceiveArrived) {
  StartWith(5, 1);
  mpidbg_operation_info op;
  ASSERT_TRUE(Detail(mqs_pending_sends, kPsendRequest, &op));
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Psend_init);
  EXPECT_EQ(op.partitions, 8);
  EXPECT_EQ(op.partitions_done, 5);
  ASSERT_TRUE(Detail(mqs_pending_receives, kPrecvRequest, &op));
  EXPECT_EQ(op.partitions, 4);
  EXPECT_EQ(op.partitions_done, 1);
}

TEST_P(Partitions, OtherOperationsAreNotPartitioned) {
  StartWith(5, 1);
  mpidbg_operation_info op;
  ASSERT_TRUE(Detail(mqs_pending_sends, request_value(kIsendRequest, GetParam().handle_size), &op));
  EXPECT_EQ(op.partitions, 0);
  EXPECT_EQ(op.partitions_done, 0);
}

TEST_P(Partitions, ImpossibleCountsAreLeftOut) {
  StartWith(9, -1);  // more ready than partitions; fewer than none arrived
  mpidbg_operation_info op;
  ASSERT_TRUE(Detail(mqs_pending_sends, kPsendRequest, &op));
  EXPECT_EQ(op.partitions, 0);
  ASSERT_TRUE(Detail(mqs_pending_receives, kPrecvRequest, &op));
  EXPECT_EQ(op.partitions, 0);
}

TEST_P(Partitions, AnOlderCallerGetsItsOwnSizeOnly) {
  StartWith(5, 1);
  ASSERT_EQ(p().mqs_setup_operation_iterator(proc(), mqs_pending_sends), mqs_ok);
  mqs_pending_operation pending;
  bool seen = false;
  while (p().mqs_next_operation(proc(), &pending) == mqs_ok) {
    std::vector<unsigned char> buffer(sizeof(mpidbg_operation_info), 0xee);
    auto* info = reinterpret_cast<mpidbg_operation_info*>(buffer.data());
    info->size = offsetof(mpidbg_operation_info, partitions);
    ASSERT_EQ(p().mpidbg_operation_get_detail(proc(), info), mqs_ok);
    if (info->request != kPsendRequest) continue;
    seen = true;
    for (size_t i = offsetof(mpidbg_operation_info, partitions); i < buffer.size(); ++i) {
      EXPECT_EQ(buffer[i], 0xee) << "byte " << i << " past the caller's size";
    }
  }
  EXPECT_TRUE(seen);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, Partitions, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
