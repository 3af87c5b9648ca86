// thread_live_test.cc — a thread's live words (records.h, mpidbg_thread_live) as the
// thread extensions show them, on every kind of target: a call that returns by itself
// shows from the live words while the record says NOT_IN_MPI, and so does a blocking send
// whose envelope is a flight entry (the words' op names it); a record that publishes its
// call wins, the call count comes from the live words always, an unreadable block leaves
// the record as it is, a snapshot reused at the same generation shows the words as they
// are now, records written before the live field have none, and a runtime that writes
// the words without op (live_size 0) has them read as far as they go; a Test-family
// call names the requests it tests there (live_size 72), a runtime whose words end at op
// none; a thread that paused recording says so there.
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

// A thread outside MPI as its record says, with `calls` counted by the record, and live
// words of this build's size.
mpidbg_thread_record idle_record(uint64_t tid, uint64_t calls, uint64_t live) {
  mpidbg_thread_record t{};
  t.tid = tid;
  t.state = MPIDBG_THREAD_NOT_IN_MPI;
  t.call = MPIDBG_CALL_NONE;
  t.calls = calls;
  t.root = -1;
  t.live = live;
  t.live_size = sizeof(mpidbg_thread_live);
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
  void expect_requests_from_live_words(int32_t state, int32_t call);
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

// A thread polling with MPI_Testany: its record says NOT_IN_MPI, its live words name the
// call and the request array it tests (live_size 72), which the waited operations come
// from as a Wait-family call's come from its record.
// A thread in `call` (`state`) whose live words name an Isend's and an Irecv's requests
// waits for both; back from the call, for nothing.
void ThreadLive::expect_requests_from_live_words(int32_t state, int32_t call) {
  build();
  const int hs = GetParam().handle_size;
  const uint64_t array = builder().add_handle_array(
      {request_value(kIsendRequest, hs), request_value(kIrecvAnyRequest, hs)}, hs);
  mpidbg_thread_live words = live_words(state, call, kLiveEntry, 0, 0, 31);
  words.requests = array;
  words.request_count = 2;
  const uint64_t live = builder().add_thread_live(words);
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  mpidbg_thread_info t = thread(kLiveTid);
  EXPECT_EQ(t.state, state);
  EXPECT_EQ(t.call, call);
  EXPECT_EQ(t.call_class, MPIDBG_CLASS_WAIT);
  EXPECT_EQ(t.calls, 31u);
  ASSERT_EQ(t.waited_count, 2);
  int index = -1;
  for (int i = 0; i < thread_count(); ++i) {
    mpidbg_thread_info u{};
    u.size = sizeof u;
    ASSERT_EQ(p().mpidbg_thread_get(proc(), i, &u), mqs_ok);
    if (u.tid == kLiveTid) index = i;
  }
  mpidbg_operation_info op{};
  op.size = sizeof op;
  ASSERT_EQ(p().mpidbg_thread_waited_operation(proc(), index, 0, &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Isend);
  EXPECT_EQ(op.request, request_value(kIsendRequest, hs));
  ASSERT_EQ(p().mpidbg_thread_waited_operation(proc(), index, 1, &op), mqs_ok);
  EXPECT_EQ(op.call, MPIDBG_CALL_MPI_Irecv);

  // Back from the call: the words name no array, and the thread waits for nothing.
  ImageBuilder::encode_thread_live(
      &target(), live, live_words(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 31));
  t = thread(kLiveTid);
  expect_outside_mpi(t, 31);
  EXPECT_EQ(t.waited_count, 0);
}

TEST_P(ThreadLive, ATestCallNamesItsRequestsInTheLiveWords) {
  expect_requests_from_live_words(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Testany);
}

// A Wait-family call writes only the live words too: blocked, with what it waits for.
TEST_P(ThreadLive, AWaitNamesItsRequestsInTheLiveWords) {
  expect_requests_from_live_words(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Waitall);
}

// A runtime whose words end at op (live_size 56) names no request array there: the call
// shows, with no waited requests.
TEST_P(ThreadLive, WordsEndingAtOpNameNoRequests) {
  build();
  const int hs = GetParam().handle_size;
  mpidbg_thread_live words = live_words(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Test,
                                        kLiveEntry, 0, 0, 32);
  words.requests = builder().add_handle_array({request_value(kIsendRequest, hs)}, hs);
  words.request_count = 1;
  words.paused = 1;  // beyond the written size too: no pause
  const uint32_t ending_at_op = offsetof(mpidbg_thread_live, requests);
  mpidbg_thread_record r = idle_record(kLiveTid, 3, builder().add_thread_live(words, ending_at_op));
  r.live_size = ending_at_op;
  builder().add_thread(r);
  start();
  const mpidbg_thread_info t = thread(kLiveTid);
  EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Test);
  EXPECT_EQ(t.calls, 32u);
  EXPECT_EQ(t.waited_count, 0);
  EXPECT_EQ(t.recording_paused, 0);
}

// A thread that paused recording: its live words say so, whatever its state, and the
// extension passes it on; a damaged count pauses nothing (nor do words that end before
// it: WordsEndingAtOpNameNoRequests).
TEST_P(ThreadLive, PausedRecordingShowsFromTheLiveWords) {
  build();
  mpidbg_thread_live words = live_words(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 40);
  words.paused = 2;
  const uint64_t live = builder().add_thread_live(words);
  builder().add_thread(idle_record(kLiveTid, 3, live));
  start();
  mpidbg_thread_info t = thread(kLiveTid);
  expect_outside_mpi(t, 40);
  EXPECT_EQ(t.recording_paused, 2);
  EXPECT_EQ(thread(kIdleTid).recording_paused, 0);  // no live words: not paused

  // Resumed, at the same generation: the snapshot merges the words as they are now.
  words.paused = 0;
  ImageBuilder::encode_thread_live(&target(), live, words);
  EXPECT_EQ(thread(kLiveTid).recording_paused, 0);
  // A count no program makes is damage, not a pause.
  words.paused = -1;
  ImageBuilder::encode_thread_live(&target(), live, words);
  EXPECT_EQ(thread(kLiveTid).recording_paused, 0);
}

TEST_P(ThreadLive, ATestCallPublishedInTheRecordWins) {
  // A runtime whose words end before `requests` publishes the Test family in the
  // record (IN_MPI, with its requests): the record's.
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

// A thread below MPI_THREAD_MULTIPLE blocked in MPI_Ssend: its record says NOT_IN_MPI,
// its live words name the call and the flight entry of its envelope (request 0, POSTED,
// the newest of its ring, after a DONE one).
class BlockedInRing : public ThreadLive {
 protected:
  static constexpr int64_t kSendEntryTime = kLiveEntry + 9;

  mpidbg_flight_entry ssend_entry() {
    mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Ssend, MPIDBG_OPERATION_SEND,
                                              kDupHandle, kDupJob, 41, 2, 2, 77);
    e.mode = MPIDBG_MODE_SYNCHRONOUS;
    e.count = 3;
    e.bytes = 24;
    e.post_time_ns = kSendEntryTime;
    return e;
  }

  // The thread's record (live words at `live`, of `live_size` bytes as it says) with its
  // ring; returns the address of the blocking entry.
  uint64_t add_blocked_thread(uint64_t live, uint32_t live_size, mpidbg_thread_record* out) {
    mpidbg_flight_entry done = make_flight_entry(MPIDBG_CALL_MPI_Recv, MPIDBG_OPERATION_RECV,
                                                 kWorldHandle, kWorldJob, 40, 1, 1, 5);
    done.state = MPIDBG_FLIGHT_DONE;
    const uint64_t ring = builder().add_flight_ring(4, {{0, done}, {1, ssend_entry()}});
    mpidbg_thread_record t = idle_record(kLiveTid, 3, live);
    t.live_size = live_size;
    t.flight_entries = ring;
    t.flight_head = 2;
    t.flight_capacity = 4;
    t.flight_entry_size = sizeof(mpidbg_flight_entry);
    *out = t;
    return ring + sizeof(mpidbg_flight_entry);
  }

  // Every read of the watched words (one per snapshot use) was `bytes` long.
  void expect_reads_of(size_t bytes) {
    EXPECT_FALSE(watched_reads_.empty());
    for (size_t len : watched_reads_) EXPECT_EQ(len, bytes);
  }

  static mpidbg_thread_live in_ssend(uint64_t op) {
    mpidbg_thread_live l = live_words(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Ssend,
                                      kSendEntryTime, kDupHandle, kDupJob, 8);
    l.op = op;
    return l;
  }

  void expect_blocked_in_ssend(const mpidbg_thread_info& t) {
    EXPECT_EQ(t.state, MPIDBG_THREAD_BLOCKED);
    EXPECT_EQ(t.call, MPIDBG_CALL_MPI_Ssend);
    EXPECT_STREQ(t.call_name, "MPI_Ssend");
    EXPECT_EQ(t.entry_time_ns, kSendEntryTime);
    EXPECT_EQ(t.comm_id, kDupJob);
    EXPECT_EQ(t.calls, 8u);
    ASSERT_EQ(t.has_operation, 1);
    EXPECT_EQ(t.operation.call, MPIDBG_CALL_MPI_Ssend);
    EXPECT_EQ(t.operation.blocking, 1);
    EXPECT_EQ(t.operation.request, 0u);
    EXPECT_EQ(t.operation.peer, 2);
    EXPECT_EQ(t.operation.tag, 77);
    EXPECT_EQ(t.operation.bytes, 24);
  }
};

TEST_P(BlockedInRing, TheLiveWordsNameTheEntryOfTheBlockingCall) {
  build();
  const uint64_t live = builder().add_thread_live(in_ssend(0));
  mpidbg_thread_record t;
  const uint64_t entry = add_blocked_thread(live, sizeof(mpidbg_thread_live), &t);
  ImageBuilder::encode_thread_live(&target(), live, in_ssend(entry));
  builder().add_thread(t);
  // Words naming the entry under a record that publishes a call (which a runtime keeps
  // in step): the record's op, here none.
  mpidbg_thread_record barrier = idle_record(kLiveTid + 1, 4, builder().add_thread_live(in_ssend(entry)));
  barrier.state = MPIDBG_THREAD_BLOCKED;
  barrier.call = MPIDBG_CALL_MPI_Barrier;
  barrier.entry_time_ns = kRecordEntry;
  builder().add_thread(barrier);
  start();
  expect_blocked_in_ssend(thread(kLiveTid));
  const mpidbg_thread_info in_barrier = thread(kLiveTid + 1);
  EXPECT_EQ(in_barrier.call, MPIDBG_CALL_MPI_Barrier);
  EXPECT_EQ(in_barrier.has_operation, 0);

  // Back from the call: the words say NOT_IN_MPI and name no entry (the runtime also
  // marks the entry DONE and steps the generation; the fake leaves both as they were, so
  // the reused snapshot is merged again).
  ImageBuilder::encode_thread_live(
      &target(), live, live_words(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0, 0, 0, 8));
  const mpidbg_thread_info after = thread(kLiveTid);
  expect_outside_mpi(after, 8);
  EXPECT_EQ(after.has_operation, 0);
}

// A runtime that writes the 48 bytes before op and no live_size (its thread records end
// before it): the words are read as far as they go, and name no operation.
TEST_P(BlockedInRing, WordsWithoutOpAreReadAsFarAsTheyGo) {
  ImageBuilder::Options options;
  options.thread_record_bytes = kThreadRecordSizeBeforeLiveSize;
  build(options);
  const uint64_t live = builder().add_thread_live(in_ssend(0), MPIDBG_THREAD_LIVE_SIZE_V2);
  mpidbg_thread_record t;
  add_blocked_thread(live, sizeof(mpidbg_thread_live), &t);  // live_size not written
  builder().add_thread(t);
  start();
  ASSERT_EQ(builder().record_size(MPIDBG_KIND_THREAD), 168u);
  watch(live);
  const mpidbg_thread_info got = thread(kLiveTid);
  expect_reads_of(MPIDBG_THREAD_LIVE_SIZE_V2);
  EXPECT_EQ(got.state, MPIDBG_THREAD_BLOCKED);
  EXPECT_EQ(got.call, MPIDBG_CALL_MPI_Ssend);
  EXPECT_EQ(got.entry_time_ns, kSendEntryTime);
  EXPECT_EQ(got.comm_id, kDupJob);
  EXPECT_EQ(got.calls, 8u);
  EXPECT_EQ(got.has_operation, 0);
  target().on_read = nullptr;
}

TEST_P(BlockedInRing, LiveSizeZeroReadsTheWordsBeforeOp) {
  build();
  const uint64_t live = builder().add_thread_live(in_isend(17), MPIDBG_THREAD_LIVE_SIZE_V2);
  mpidbg_thread_record t = idle_record(kLiveTid, 3, live);
  t.live_size = 0;
  builder().add_thread(t);
  start();
  watch(live);
  expect_in_isend(thread(kLiveTid), 17);
  expect_reads_of(MPIDBG_THREAD_LIVE_SIZE_V2);
  target().on_read = nullptr;
}

TEST_P(BlockedInRing, ALiveSizeBelowTheOldWordsIsDamage) {
  build();
  const uint64_t live = builder().add_thread_live(in_isend(17));
  mpidbg_thread_record t = idle_record(kLiveTid, 3, live);
  t.live_size = 8;
  builder().add_thread(t);
  start();
  watch(live);
  expect_outside_mpi(thread(kLiveTid), 3);
  EXPECT_TRUE(watched_reads_.empty());
  target().on_read = nullptr;
}

TEST_P(BlockedInRing, ALargerLiveSizeReadsWhatThisReaderKnows) {
  // A newer runtime's longer words: this reader's sizeof, the rest left unread.
  build();
  const uint64_t live = builder().add_thread_live(in_ssend(0));
  mpidbg_thread_record t;
  const uint64_t entry = add_blocked_thread(live, sizeof(mpidbg_thread_live) + 64, &t);
  ImageBuilder::encode_thread_live(&target(), live, in_ssend(entry));
  builder().add_thread(t);
  start();
  watch(live);
  expect_blocked_in_ssend(thread(kLiveTid));
  expect_reads_of(sizeof(mpidbg_thread_live));
  target().on_read = nullptr;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, ThreadLive, all_kinds_and_handles(), kind_name);
INSTANTIATE_TEST_SUITE_P(AllTargets, BlockedInRing, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
