// The mpidbg_* extensions over the main scenario, on every kind of target.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

class Extensions : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    scenario_ = build_main_scenario(GetParam().kind, GetParam().handle_size);
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok) << session_->process_message;
    ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  }
  const PluginApi& p() { return plugin(); }
  mqs_process* proc() { return session_->process(); }

  // Index of the thread with this tid, -1 if absent.
  int thread_index(uint64_t tid) {
    int count = 0;
    EXPECT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
    for (int i = 0; i < count; ++i) {
      mpidbg_thread_info t{};
      t.size = sizeof t;
      EXPECT_EQ(p().mpidbg_thread_get(proc(), i, &t), mqs_ok);
      if (t.tid == tid) return i;
    }
    return -1;
  }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

TEST_P(Extensions, Version) { EXPECT_EQ(p().mpidbg_ext_version(), MPIDBG_EXT_VERSION); }

TEST_P(Extensions, ProcessSummary) {
  mpidbg_process_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(p().mpidbg_process_get_summary(proc(), &s), mqs_ok);
  EXPECT_EQ(s.size, sizeof s);
  EXPECT_EQ(s.world_rank, 1);
  EXPECT_EQ(s.world_size, 4);
  EXPECT_EQ(s.pid, 4242);
  EXPECT_EQ(s.thread_level, MPIDBG_THREAD_MULTIPLE);
  EXPECT_EQ(s.process_state, MPIDBG_PROCESS_RUNNING);
  EXPECT_EQ(s.thread_count, 3);
  EXPECT_EQ(s.generation, 7u);
  EXPECT_EQ(s.init_time_ns, 1700000000000000000);
  EXPECT_STREQ(s.mpi_library, "MPICH Version: 4.0.2");
  EXPECT_STREQ(s.hostname, "node-a");
  EXPECT_EQ(s.flavour, GetParam().handle_size == 4 ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI);
}

TEST_P(Extensions, SummaryHonoursCallerSize) {
  // An older host that knows only the first fields.
  unsigned char buf[sizeof(mpidbg_process_summary)];
  std::memset(buf, 0xee, sizeof buf);
  const uint32_t small = offsetof(mpidbg_process_summary, world_size);
  std::memcpy(buf, &small, sizeof small);
  ASSERT_EQ(p().mpidbg_process_get_summary(proc(), reinterpret_cast<mpidbg_process_summary*>(buf)),
            mqs_ok);
  for (size_t i = small; i < sizeof buf; ++i) ASSERT_EQ(buf[i], 0xee) << "byte " << i << " written";
  mpidbg_process_summary s;
  std::memcpy(&s, buf, small);
  EXPECT_EQ(s.world_rank, 1);

  mpidbg_process_summary tiny{};
  tiny.size = 2;
  EXPECT_NE(p().mpidbg_process_get_summary(proc(), &tiny), mqs_ok);
}

TEST_P(Extensions, ThreadsSortedWithBlockingOperation) {
  int count = 0;
  ASSERT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
  ASSERT_EQ(count, 3);
  mpidbg_thread_info t{};
  t.size = sizeof t;
  ASSERT_EQ(p().mpidbg_thread_get(proc(), 0, &t), mqs_ok);
  EXPECT_EQ(t.tid, kBlockedRecvTid);
  EXPECT_EQ(t.state, MPIDBG_THREAD_BLOCKED);
  EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Recv);
  EXPECT_EQ(t.call_class, MPIDBG_CLASS_P2P);
  EXPECT_STREQ(t.call_name, "MPI_Recv");
  EXPECT_STREQ(t.comm_name, "MPI_COMM_WORLD");
  EXPECT_EQ(t.comm_id, kWorldJob);
  EXPECT_EQ(t.calls, 99u);
  ASSERT_EQ(t.has_operation, 1);
  EXPECT_EQ(t.operation.size, sizeof(mpidbg_operation_info));
  EXPECT_EQ(t.operation.call, MPIDBG_CALL_MPI_Recv);
  EXPECT_EQ(t.operation.blocking, 1);
  EXPECT_EQ(t.operation.peer, 0);
  EXPECT_EQ(t.operation.tag, 5);
  EXPECT_EQ(t.operation.bytes, 4);
  EXPECT_STREQ(t.operation.comm_name, "MPI_COMM_WORLD");
  EXPECT_STREQ(t.operation.datatype_name, "MPI_INT");
  EXPECT_EQ(t.waited_count, 0);

  mpidbg_thread_info idle{};
  idle.size = sizeof idle;
  ASSERT_EQ(p().mpidbg_thread_get(proc(), 2, &idle), mqs_ok);
  EXPECT_EQ(idle.tid, kIdleTid);
  EXPECT_EQ(idle.state, MPIDBG_THREAD_NOT_IN_MPI);
  EXPECT_EQ(idle.has_operation, 0);
  EXPECT_STREQ(idle.call_name, "");

  EXPECT_NE(p().mpidbg_thread_get(proc(), 3, &idle), mqs_ok);
  EXPECT_NE(p().mpidbg_thread_get(proc(), -1, &idle), mqs_ok);
}

TEST_P(Extensions, OlderThreadInfoGetsAPrefixOfTheOperation) {
  unsigned char buf[sizeof(mpidbg_thread_info)];
  std::memset(buf, 0xee, sizeof buf);
  const uint32_t small = offsetof(mpidbg_thread_info, operation) + 16;
  std::memcpy(buf, &small, sizeof small);
  ASSERT_EQ(p().mpidbg_thread_get(proc(), 0, reinterpret_cast<mpidbg_thread_info*>(buf)), mqs_ok);
  for (size_t i = small; i < sizeof buf; ++i) ASSERT_EQ(buf[i], 0xee) << "byte " << i << " written";
  mpidbg_thread_info t;
  std::memcpy(&t, buf, small);
  EXPECT_EQ(t.size, small);
  EXPECT_EQ(t.has_operation, 1);
  EXPECT_EQ(t.operation.size, 16u);
  EXPECT_EQ(t.operation.call, MPIDBG_CALL_MPI_Recv);
}

TEST_P(Extensions, WaitedRequests) {
  const int w = thread_index(kWaitallTid);
  ASSERT_GE(w, 0);
  mpidbg_thread_info t{};
  t.size = sizeof t;
  ASSERT_EQ(p().mpidbg_thread_get(proc(), w, &t), mqs_ok);
  EXPECT_EQ(t.call_class, MPIDBG_CLASS_WAIT);
  EXPECT_STREQ(t.call_name, "MPI_Waitall");
  ASSERT_EQ(t.waited_count, 4);

  mpidbg_operation_info op{};
  op.size = sizeof op;
  ASSERT_EQ(p().mpidbg_thread_waited_operation(proc(), w, 0, &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Isend);
  EXPECT_EQ(op.request, request_value(kIsendRequest, GetParam().handle_size));
  EXPECT_EQ(op.peer, 2);
  EXPECT_EQ(op.tag, 7);
  EXPECT_EQ(op.count, 10);
  EXPECT_STREQ(op.call_name, "MPI_Isend");
  EXPECT_STREQ(op.comm_name, "MPI_COMM_WORLD");

  ASSERT_EQ(p().mpidbg_thread_waited_operation(proc(), w, 1, &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Irecv);
  EXPECT_EQ(op.peer, MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(op.tag, MPIDBG_TAG_ANY);

  EXPECT_EQ(p().mpidbg_thread_waited_operation(proc(), w, 2, &op), mqs_no_information);  // null
  EXPECT_EQ(p().mpidbg_thread_waited_operation(proc(), w, 3, &op), mqs_no_information);  // unknown
  EXPECT_NE(p().mpidbg_thread_waited_operation(proc(), w, 4, &op), mqs_ok);
  EXPECT_NE(p().mpidbg_thread_waited_operation(proc(), w, -1, &op), mqs_ok);
  // A thread not in a WAIT-class call waits for no requests.
  EXPECT_EQ(p().mpidbg_thread_waited_operation(proc(), thread_index(kBlockedRecvTid), 0, &op),
            mqs_no_information);
}

TEST_P(Extensions, CommunicatorDetailAndRemoteGroup) {
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  mpidbg_comm_detail d{};
  d.size = sizeof d;
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_EQ(d.handle, kWorldHandle);
  EXPECT_EQ(d.job_id, kWorldJob);
  EXPECT_EQ(d.predefined, 1);
  EXPECT_EQ(d.freed, 0);
  EXPECT_EQ(d.inter, 0);
  EXPECT_STREQ(d.creator_name, "MPIDBG_PREDEFINED");
  int remote[4] = {-9, -9, -9, -9};
  EXPECT_EQ(p().mpidbg_comm_get_remote_group(proc(), remote), mqs_no_information);

  // Move to the split and then the intercommunicator.
  ASSERT_EQ(p().mqs_next_communicator(proc()), mqs_ok);  // SELF
  ASSERT_EQ(p().mqs_next_communicator(proc()), mqs_ok);  // dup
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_STREQ(d.creator_name, "MPI_Comm_dup");
  EXPECT_EQ(d.parent_job_id, kWorldJob);
  ASSERT_EQ(p().mqs_next_communicator(proc()), mqs_ok);  // split
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_EQ(d.split_color, 1);
  EXPECT_EQ(d.creator, MPIDBG_CALL_MPI_Comm_split);
  ASSERT_EQ(p().mqs_next_communicator(proc()), mqs_ok);  // inter
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
  EXPECT_EQ(d.inter, 1);
  EXPECT_EQ(d.remote_size, 2);
  ASSERT_EQ(p().mpidbg_comm_get_remote_group(proc(), remote), mqs_ok);
  EXPECT_EQ(remote[0], 0);
  EXPECT_EQ(remote[1], 2);
  EXPECT_EQ(remote[2], -9);
}

// An intercommunicator to another job (spawn, accept, ...): the plugin names the job
// and reads the remote ranks in it; a record whose rank array does not have one rank
// per remote process is not trusted (version 4).
TEST_P(Extensions, CommunicatorToAnotherJob) {
  ImageBuilder& b = *scenario_.builder;
  const uint64_t local = b.add_int32_array({1, 3});
  const uint64_t unknown = b.add_int32_array({MPIDBG_RANK_UNKNOWN, MPIDBG_RANK_UNKNOWN});
  const char kJob[] = "child-job-7";
  mpidbg_comm_record spawned = make_comm(0x7001, 0xabc0, 0, 2, local, 40, "");
  spawned.hdr.flags = MPIDBG_COMM_INTER;
  spawned.remote_size = 2;
  spawned.remote_world_ranks = unknown;
  spawned.creator = MPIDBG_CALL_MPI_Comm_spawn;
  spawned.remote_job_id = mpidbg_array{b.add_bytes(kJob, sizeof kJob - 1), sizeof kJob - 1, 1};
  spawned.remote_job_ranks = mpidbg_array{b.add_int32_array({4, 5}), 2, sizeof(int32_t)};
  b.add_comm(spawned);
  // The same, but its rank array is short by one: not trusted.
  mpidbg_comm_record bad = spawned;
  bad.handle = 0x7002;
  bad.job_id = 0xabc1;
  bad.create_serial = 41;
  bad.remote_job_ranks.count = 1;
  b.add_comm(bad);
  b.root.generation += 1;  // the plugin decodes afresh when the generation moves
  b.commit();
  ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  int seen = 0;
  do {
    mpidbg_comm_detail d{};
    d.size = sizeof d;
    ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &d), mqs_ok);
    int ranks[3] = {-9, -9, -9};
    if (d.handle == 0x7001) {
      ++seen;
      EXPECT_EQ(d.remote_job, 1);
      EXPECT_STREQ(d.remote_job_id, kJob);
      ASSERT_EQ(p().mpidbg_comm_get_remote_job_group(proc(), ranks), mqs_ok);
      EXPECT_EQ(ranks[0], 4);
      EXPECT_EQ(ranks[1], 5);
      EXPECT_EQ(ranks[2], -9);
    } else if (d.handle == 0x7002) {
      ++seen;
      EXPECT_EQ(d.remote_job, 0);
      EXPECT_STREQ(d.remote_job_id, "");
      EXPECT_EQ(p().mpidbg_comm_get_remote_job_group(proc(), ranks), mqs_no_information);
    } else {
      EXPECT_EQ(d.remote_job, 0) << std::hex << d.handle;
      EXPECT_EQ(p().mpidbg_comm_get_remote_job_group(proc(), ranks), mqs_no_information);
    }
  } while (p().mqs_next_communicator(proc()) == mqs_ok);
  EXPECT_EQ(seen, 2);
  // An older caller's smaller struct gets its prefix only.
  mpidbg_comm_detail old{};
  old.size = offsetof(mpidbg_comm_detail, remote_job);
  old.remote_job = 77;
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  ASSERT_EQ(p().mpidbg_comm_get_detail(proc(), &old), mqs_ok);
  EXPECT_EQ(old.remote_job, 77);
}

TEST_P(Extensions, OperationDetailFollowsIterator) {
  ASSERT_EQ(p().mqs_setup_communicator_iterator(proc()), mqs_ok);
  mpidbg_operation_info op{};
  op.size = sizeof op;
  EXPECT_NE(p().mpidbg_operation_get_detail(proc(), &op), mqs_ok);  // no iterator yet
  ASSERT_EQ(p().mqs_setup_operation_iterator(proc(), mqs_pending_sends), mqs_ok);
  mqs_pending_operation pending;
  ASSERT_EQ(p().mqs_next_operation(proc(), &pending), mqs_ok);
  ASSERT_EQ(p().mpidbg_operation_get_detail(proc(), &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Isend);
  EXPECT_EQ(op.post_serial, 10u);
  EXPECT_EQ(op.tid, kWaitallTid);
  ASSERT_EQ(p().mqs_next_operation(proc(), &pending), mqs_ok);
  ASSERT_EQ(p().mpidbg_operation_get_detail(proc(), &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Ibsend);
  EXPECT_EQ(op.mode, MPIDBG_MODE_BUFFERED);
  EXPECT_EQ(static_cast<uint64_t>(op.bytes), kBigBytes);
  EXPECT_EQ(p().mqs_next_operation(proc(), &pending), mqs_end_of_list);
  EXPECT_NE(p().mpidbg_operation_get_detail(proc(), &op), mqs_ok);
}

TEST_P(Extensions, ThreadCallsRefreshWhenGenerationMoves) {
  ImageBuilder& b = *scenario_.builder;
  mpidbg_thread_record extra{};
  extra.tid = 1300;
  extra.state = MPIDBG_THREAD_IN_MPI;
  extra.call = MPIDBG_CALL_MPI_Comm_set_name;
  b.add_thread(extra);
  b.root.generation += 1;
  b.commit();
  int count = 0;
  ASSERT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
  EXPECT_EQ(count, 4);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, Extensions, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
