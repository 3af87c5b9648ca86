// thread_live_test.cc — a thread's live words (records.h, mpidbg_thread_live) as the
// thread extensions show them, on every kind of target: a call that returns by itself
// shows from the live words while the record says NOT_IN_MPI, a record that publishes
// its call wins, the call count comes from the live words always, an unreadable block
// leaves the record as it is, a snapshot reused at the same generation shows the words
// as they are now, and records written before the live field have none.
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kLiveTid = 1400;
constexpr int64_t kRecordEntry = 1700000000650000000;
constexpr int64_t kLiveEntry = 1700000000700000000;

// A thread outside MPI as its record says, with `calls` counted by the record.
mpidbg_thread_record idle_record(uint64_t tid, uint64_t calls, uint64_t live) {
  mpidbg_thread_record t{};
  t.tid = tid;
  t.state = MPIDBG_THREAD_NOT_IN_MPI;
  t.call = MPIDBG_CALL_NONE;
  t.calls = calls;
  t.root = -1;
  t.live = live;
  return t;
}

mpidbg_thread_live live_words(int32_t state, int32_t call, int64_t entry_time_ns,
                              uint64_t comm_handle, uint64_t comm_job_id, uint64_t calls) {
  mpidbg_thread_live l{};
  l.state = state;
  l.call = call;
  l.site = 0x401234;
  l.entry_time_ns = entry_time_ns;
  l.comm_handle = comm_handle;
  l.comm_job_id = comm_job_id;
  l.calls = calls;
  return l;
}

// A thread in MPI_Isend on MPI_COMM_WORLD as its live words say.
mpidbg_thread_live in_isend(uint64_t calls) {
  return live_words(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Isend, kLiveEntry, kWorldHandle,
                    kWorldJob, calls);
}

class ThreadLive : public testing::TestWithParam<KindAndHandles> {
 protected:
  ImageBuilder& builder() { return *scenario_.builder; }

  // The main scenario (three threads without live words) laid out with `options`; the
  // test adds its threads, then start().
  void build(const ImageBuilder::Options& options = ImageBuilder::Options()) {
    scenario_ = build_main_scenario(GetParam().kind, GetParam().handle_size, options);
  }
  void start() {
    builder().commit();
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok) << session_->process_message;
    ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  }
  const PluginApi& p() { return plugin(); }
  mqs_process* proc() { return session_->process(); }
  FakeTarget& target() { return *scenario_.target; }

  // The thread with this tid as mpidbg_thread_get shows it (tid 0 when absent).
  mpidbg_thread_info thread(uint64_t tid) {
    int count = 0;
    EXPECT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
    for (int i = 0; i < count; ++i) {
      mpidbg_thread_info t{};
      t.size = sizeof t;
      EXPECT_EQ(p().mpidbg_thread_get(proc(), i, &t), mqs_ok);
      if (t.tid == tid) return t;
    }
    ADD_FAILURE() << "no thread " << tid;
    return mpidbg_thread_info{};
  }

  int thread_count() {
    int count = 0;
    EXPECT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
    return count;
  }

  // Reads the plugin made of [addr, addr + 1) from now on.
  void watch(uint64_t addr) {
    watched_reads_.clear();
    target().on_read = [this, addr](uint64_t at, size_t len) {
      if (at <= addr && addr - at < len) watched_reads_.push_back(len);
    };
  }

  void expect_outside_mpi(const mpidbg_thread_info& t, uint64_t calls) {
    EXPECT_EQ(t.state, MPIDBG_THREAD_NOT_IN_MPI);
    EXPECT_EQ(t.call, MPIDBG_CALL_NONE);
    EXPECT_STREQ(t.call_name, "");
    EXPECT_EQ(t.entry_time_ns, 0);
    EXPECT_EQ(t.comm_handle, 0u);
    EXPECT_EQ(t.comm_id, 0u);
    EXPECT_STREQ(t.comm_name, "");
    EXPECT_EQ(t.calls, calls);
  }

  void expect_in_isend(const mpidbg_thread_info& t, uint64_t calls) {
    EXPECT_EQ(t.state, MPIDBG_THREAD_IN_MPI);
    EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Isend);
    EXPECT_EQ(t.call_class, MPIDBG_CLASS_P2P);
    EXPECT_STREQ(t.call_name, "MPI_Isend");
    EXPECT_EQ(t.entry_time_ns, kLiveEntry);
    EXPECT_EQ(t.comm_handle, kWorldHandle);
    EXPECT_EQ(t.comm_id, kWorldJob);
    EXPECT_STREQ(t.comm_name, "MPI_COMM_WORLD");
    EXPECT_EQ(t.calls, calls);
    EXPECT_EQ(t.has_operation, 0);  // a nonblocking post has no blocking envelope
    EXPECT_EQ(t.waited_count, 0);
  }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
  std::vector<size_t> watched_reads_;
};

TEST_P(ThreadLive, ACallThatReturnsByItselfShowsFromTheLiveWords) {
  build();
  builder().add_thread(idle_record(kLiveTid, 3, builder().add_thread_live(in_isend(17))));
  start();
  EXPECT_EQ(thread_count(), 4);
  expect_in_isend(thread(kLiveTid), 17);
  // The threads without live words are as their records say.
  const mpidbg_thread_info blocked = thread(kBlockedRecvTid);
  EXPECT_EQ(blocked.state, MPIDBG_THREAD_BLOCKED);
  EXPECT_EQ(blocked.call, MPIDBG_CALL_MPI_Recv);
  EXPECT_EQ(blocked.calls, 99u);
  expect_outside_mpi(thread(kIdleTid), 3);
}

TEST_P(ThreadLive, ARecordThatPublishesItsCallWins) {
  build();
  mpidbg_thread_record blocked{};
  blocked.tid = kLiveTid;
  blocked.state = MPIDBG_THREAD_BLOCKED;
  blocked.call = MPIDBG_CALL_MPI_Recv;
  blocked.entry_time_ns = kRecordEntry;
  blocked.comm_handle = kDupHandle;
  blocked.comm_job_id = kDupJob;
  blocked.calls = 5;
  blocked.root = -1;
  // Words that disagree on everything (a runtime keeps them in step; the record wins).
  blocked.live = builder().add_thread_live(in_isend(6));
  builder().add_thread(blocked);
  start();
  const mpidbg_thread_info t = thread(kLiveTid);
  EXPECT_EQ(t.state, MPIDBG_THREAD_BLOCKED);
  EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Recv);
  EXPECT_STREQ(t.call_name, "MPI_Recv");
  EXPECT_EQ(t.entry_time_ns, kRecordEntry);
  EXPECT_EQ(t.comm_handle, kDupHandle);
  EXPECT_EQ(t.comm_id, kDupJob);
  EXPECT_EQ(t.calls, 6u);  // the count is the live words' always
}

TEST_P(ThreadLive, ATestCallPublishedInTheRecordWins) {
  // The Test family publishes IN_MPI in the record (with its requests): the record's.
  build();
  mpidbg_thread_record testing_thread = idle_record(kLiveTid, 8, 0);
  testing_thread.state = MPIDBG_THREAD_IN_MPI;
  testing_thread.call = MPIDBG_CALL_MPI_Testall;
  testing_thread.entry_time_ns = kRecordEntry;
  testing_thread.live = builder().add_thread_live(in_isend(9));
  builder().add_thread(testing_thread);
  start();
  const mpidbg_thread_info t = thread(kLiveTid);
  EXPECT_EQ(t.state, MPIDBG_THREAD_IN_MPI);
  EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Testall);
  EXPECT_EQ(t.entry_time_ns, kRecordEntry);
  EXPECT_EQ(t.calls, 9u);
}

TEST_P(ThreadLive, LiveWordsOutsideMpiGiveOnlyTheCount) {
  build();
  // Left its last call: state NOT_IN_MPI; the call and entry words of the last call may
  // still be there (the thread clears the call after the state).
  mpidbg_thread_live left = in_isend(40);
  left.state = MPIDBG_THREAD_NOT_IN_MPI;
  builder().add_thread(idle_record(kLiveTid, 3, builder().add_thread_live(left)));
  start();
  expect_outside_mpi(thread(kLiveTid), 40);
}

TEST_P(ThreadLive, UnreadableLiveWordsLeaveTheRecordAsItIs) {
  build();
  ImageBuilder& b = builder();
  // A block cut short by its mapping, an address between mappings, one beyond any.
  const uint8_t sixteen[16] = {1};
  const uint64_t short_block = b.add_bytes(sixteen, sizeof sixteen);
  const uint64_t gap = b.add_thread_live(in_isend(1)) + 0x80;
  const uint64_t wild = UINT64_C(0xfffffffffffff000);
  b.add_thread(idle_record(kLiveTid, 3, short_block));
  b.add_thread(idle_record(kLiveTid + 1, 4, gap));
  b.add_thread(idle_record(kLiveTid + 2, 5, wild));
  b.add_thread(idle_record(kLiveTid + 3, 6, b.add_thread_live(in_isend(7))));
  start();
  EXPECT_EQ(thread_count(), 7);
  expect_outside_mpi(thread(kLiveTid), 3);
  expect_outside_mpi(thread(kLiveTid + 1), 4);
  expect_outside_mpi(thread(kLiveTid + 2), 5);
  expect_in_isend(thread(kLiveTid + 3), 7);
  // The queues are walked as before.
  std::vector<WalkedComm> comms;
  EXPECT_EQ(session_->walk(&comms), mqs_ok);
  EXPECT_FALSE(comms.empty());
}

TEST_P(ThreadLive, ASnapshotReusedAtTheSameGenerationShowsTheWordsAsTheyAreNow) {
  build();
  const uint64_t live = builder().add_thread_live(in_isend(17));
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  expect_in_isend(thread(kLiveTid), 17);

  // The thread returns and posts an MPI_Irecv on the dup; no record changes, so the
  // generation stays.
  ImageBuilder::encode_thread_live(
      &target(), live,
      live_words(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Irecv, kLiveEntry + 5, kDupHandle,
                 kDupJob, 18));
  mpidbg_thread_info t = thread(kLiveTid);
  EXPECT_EQ(t.state, MPIDBG_THREAD_IN_MPI);
  EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Irecv);
  EXPECT_EQ(t.entry_time_ns, kLiveEntry + 5);
  EXPECT_EQ(t.comm_handle, kDupHandle);
  EXPECT_EQ(t.comm_id, kDupJob);
  EXPECT_EQ(t.calls, 18u);

  // And leaves it: the record's own values again, not the last merge's.
  ImageBuilder::encode_thread_live(
      &target(), live, live_words(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 18));
  expect_outside_mpi(thread(kLiveTid), 18);

  mpidbg_process_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(p().mpidbg_process_get_summary(proc(), &s), mqs_ok);
  EXPECT_EQ(s.generation, 7u);  // all of it from the one snapshot
}

TEST_P(ThreadLive, AReusedSnapshotCostsOneReadOfTheLiveWordsPerThread) {
  build();
  const uint64_t live = builder().add_thread_live(in_isend(17));
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  watch(live);
  const uint64_t reads_before = target().reads;
  // The mqs update at an unchanged generation: the generation, then the live words.
  ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  EXPECT_EQ(watched_reads_, std::vector<size_t>{sizeof(mpidbg_thread_live)});
  EXPECT_EQ(target().reads - reads_before, 2u);
  // The extensions' snapshot, likewise.
  watched_reads_.clear();
  int count = 0;
  ASSERT_EQ(p().mpidbg_thread_count(proc(), &count), mqs_ok);
  EXPECT_EQ(watched_reads_, std::vector<size_t>{sizeof(mpidbg_thread_live)});
  EXPECT_EQ(target().reads - reads_before, 4u);
  target().on_read = nullptr;
}

TEST_P(ThreadLive, AnUpdateAtTheSameGenerationMergesTheNewWords) {
  // mqs_update_communicator_list reuses the snapshot; what the extensions read next
  // comes from it, with the words as the update saw them or newer.
  build();
  const uint64_t live = builder().add_thread_live(in_isend(17));
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  ImageBuilder::encode_thread_live(
      &target(), live, live_words(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 21));
  ASSERT_EQ(p().mqs_update_communicator_list(proc()), mqs_ok);
  expect_outside_mpi(thread(kLiveTid), 21);
}

// Records written before the live field have none: not a layout-1 record (136 bytes),
// nor a layout-2 one that ends at the flight ring (160 bytes), even when the slot holds
// bytes that would point at live words.
TEST_P(ThreadLive, LayoutOneSlotsHaveNoLiveWords) {
  ImageBuilder::Options options;
  options.thread_record_bytes = kThreadRecordSizeV1;
  build(options);
  builder().root.layout_version = 1;
  const uint64_t live = builder().add_thread_live(in_isend(17));
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  ASSERT_EQ(builder().record_size(MPIDBG_KIND_THREAD), 136u);
  watch(live);
  expect_outside_mpi(thread(kLiveTid), 3);
  EXPECT_TRUE(watched_reads_.empty());
  target().on_read = nullptr;
}

TEST_P(ThreadLive, FieldsBeyondTheWrittenSizeAreNotLiveWords) {
  for (const uint32_t written :
       {kThreadRecordSizeV1, static_cast<uint32_t>(offsetof(mpidbg_thread_record, live))}) {
    SCOPED_TRACE(written);
    build();
    const uint64_t live = builder().add_thread_live(in_isend(17));
    mpidbg_thread_record t = idle_record(kLiveTid, 3, live);
    t.hdr.size = static_cast<uint16_t>(written);
    builder().add_thread(t);
    start();
    watch(live);
    expect_outside_mpi(thread(kLiveTid), 3);
    EXPECT_TRUE(watched_reads_.empty());
    target().on_read = nullptr;
    session_.reset();
  }
}

INSTANTIATE_TEST_SUITE_P(AllTargets, ThreadLive, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
