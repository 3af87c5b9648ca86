// Flight rings (records.h layout 2, mpidbg_flight_entry): the pending point-to-point
// requests a thread keeps in its ring instead of operation records, seen through the
// message queues and the request query on every kind of target; damaged rings skipped
// and logged; a layout-1 runtime decoded as before.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "handles/handles_session.h"
#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kRingTid = 1300;
constexpr uint32_t kCapacity = 8;
// Posts 0 .. 11 were appended: positions 4 .. 11 are in the ring, 8 .. 11 wrapped around
// into entries 0 .. 3.
constexpr uint64_t kHead = 12;

constexpr uint64_t kRingIsendRequest = 0xac000101;
constexpr uint64_t kRingIrecvRequest = 0xac000102;
constexpr uint64_t kDoneRequest = 0xac000103;
constexpr uint64_t kCarriedRequest = 0xac000104;
constexpr uint64_t kTornRequest = 0xac000105;
constexpr uint64_t kStaleRequest = 0xac000106;
constexpr uint64_t kBothRequest = 0xac000107;  // in the ring and in an operation record
constexpr uint64_t kAnyRequest = 0xac000108;

constexpr char kLongTypeName[] = "a_struct_type_name_longer_than_the_field";

// Datatype handles: MPICH-like integers (the record holds the value sign-extended, the
// ring entry zero-extended: only the low four bytes compare) or Open MPI-like addresses.
uint64_t particle_type(uint32_t handle_size) {
  return handle_size == 4 ? 0x8c000001u : uint64_t{0x55d000aa1000};
}
uint64_t long_name_type(uint32_t handle_size) {
  return handle_size == 4 ? 0x8c000002u : uint64_t{0x55d000aa2000};
}
uint64_t as_recorded(uint64_t handle, uint32_t handle_size) {
  if (handle_size != 4) return handle;
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(handle)));
}

bool has_line(const mqs_pending_operation& op, const std::string& text) {
  for (const auto& line : op.extra_text) {
    if (std::string(line).find(text) != std::string::npos) return true;
  }
  return false;
}

int log_lines_with(const std::string& text) {
  int n = 0;
  for (const std::string& line : FakeDebugger::log()) n += line.find(text) != std::string::npos;
  return n;
}

// The flight ring fields of a thread record.
void attach_ring(mpidbg_thread_record* t, uint64_t ring, uint32_t capacity, uint64_t head,
                 uint32_t entry_size = sizeof(mpidbg_flight_entry)) {
  t->flight_entries = ring;
  t->flight_head = head;
  t->flight_capacity = capacity;
  t->flight_entry_size = entry_size;
}

mpidbg_thread_record ring_thread(uint64_t tid) {
  mpidbg_thread_record t{};
  t.tid = tid;
  t.state = MPIDBG_THREAD_NOT_IN_MPI;
  t.call = MPIDBG_CALL_NONE;
  t.root = -1;
  return t;
}

// The main scenario plus a thread whose ring holds posts of every state, the datatype
// records that name them, and an operation record the runtime carried a post into.
class FlightRings : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    FakeDebugger::log().clear();
    hs_ = GetParam().handle_size;
    base_ = base_address(GetParam().kind);
    scenario_ = build_main_scenario(GetParam().kind, hs_);
    ImageBuilder& b = *scenario_.builder;
    b.root.thread_level = MPIDBG_THREAD_SERIALIZED;
    b.root.post_counter = 28;

    mpidbg_datatype_record stale{};
    stale.obj = make_head(as_recorded(particle_type(hs_), hs_), 30, "stale particle");
    stale.obj.hdr.flags = MPIDBG_REC_FREED;
    stale.obj.free_serial = 1;
    b.add_datatype(stale);
    mpidbg_datatype_record particle{};
    particle.obj = make_head(as_recorded(particle_type(hs_), hs_), 31, "particle");
    b.add_datatype(particle);
    mpidbg_datatype_record long_name{};
    long_name.obj = make_head(as_recorded(long_name_type(hs_), hs_), 32, kLongTypeName);
    b.add_datatype(long_name);

    std::vector<ImageBuilder::FlightPost> posts;
    mpidbg_flight_entry isend = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                                  kWorldHandle, kWorldJob, 21, 2, 2, 21);
    isend.request = request_value(kRingIsendRequest, hs_);
    isend.count = 5;
    isend.bytes = 20;
    isend.buffer = base_ + 0xa000;
    isend.datatype = particle_type(hs_);
    isend.post_time_ns = 1700000000700000000;
    isend.create_pc = base_ + 0x1234;
    posts.push_back({4, isend});

    mpidbg_flight_entry done = make_flight_entry(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                                 kWorldHandle, kWorldJob, 22, 3, 3, 22);
    done.request = request_value(kDoneRequest, hs_);
    done.state = MPIDBG_FLIGHT_DONE;
    posts.push_back({5, done});

    mpidbg_flight_entry carried = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                                    kWorldHandle, kWorldJob, 23, 0, 0, 23);
    carried.request = request_value(kCarriedRequest, hs_);
    carried.state = MPIDBG_FLIGHT_CARRIED;
    posts.push_back({6, carried});

    mpidbg_flight_entry irecv = make_flight_entry(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                                  kWorldHandle, kWorldJob, 24, 3, 3, 24);
    irecv.request = request_value(kRingIrecvRequest, hs_);
    irecv.count = 2;
    irecv.bytes = 16;
    irecv.buffer = base_ + 0xb000;
    irecv.datatype = long_name_type(hs_);
    posts.push_back({7, irecv});

    // Being written: an odd seq.
    mpidbg_flight_entry torn = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                                 kWorldHandle, kWorldJob, 25, 1, 1, 25);
    torn.request = request_value(kTornRequest, hs_);
    torn.seq = 2 * (8 + 1) + 1;
    posts.push_back({8, torn});

    // Entry 1 still holds post 1, long left the window (post 9 is expected there).
    mpidbg_flight_entry stale_post = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                                       kWorldHandle, kWorldJob, 2, 1, 1, 99);
    stale_post.request = request_value(kStaleRequest, hs_);
    posts.push_back({1, stale_post});

    // Carried into an operation record while still POSTED here: the record is kept.
    mpidbg_flight_entry both = make_flight_entry(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                                 kWorldHandle, kWorldJob, 26, 0, 0, 26);
    both.request = request_value(kBothRequest, hs_);
    both.count = 6;
    both.datatype = particle_type(hs_);
    posts.push_back({10, both});
    mpidbg_operation_record both_rec = make_op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                               kWorldHandle, kWorldJob, 26, 0, 0, 26);
    both_rec.request = request_value(kBothRequest, hs_);
    both_rec.count = 7;
    std::strcpy(both_rec.datatype_name, "as recorded");
    b.add_op(both_rec);

    mpidbg_flight_entry any = make_flight_entry(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV,
                                                kDupHandle, kDupJob, 27, MPIDBG_RANK_ANY_SOURCE,
                                                MPIDBG_RANK_ANY_SOURCE, MPIDBG_TAG_ANY);
    any.request = request_value(kAnyRequest, hs_);
    any.count = 3;
    any.bytes = 3;
    posts.push_back({11, any});

    mpidbg_thread_record t = ring_thread(kRingTid);
    ring_ = b.add_flight_ring(kCapacity, posts);
    attach_ring(&t, ring_, kCapacity, kHead);
    b.add_thread(t);
    b.commit();
  }

  void Walk() {
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok) << session_->process_message;
    ASSERT_EQ(session_->walk(&comms_), mqs_ok);
  }

  const WalkedComm& comm_with(uint64_t job) {
    for (const WalkedComm& c : comms_) {
      if (c.comm.unique_id == job) return c;
    }
    ADD_FAILURE() << "no communicator " << job;
    static WalkedComm none;
    return none;
  }

  uint32_t hs_ = 4;
  uint64_t base_ = 0;
  uint64_t ring_ = 0;
  Scenario scenario_;
  std::unique_ptr<Session> session_;
  std::vector<WalkedComm> comms_;
};

TEST_P(FlightRings, PostedSendIsPendingInItsQueue) {
  Walk();
  const WalkedComm& world = comm_with(kWorldJob);
  // The scenario's Isend (10) and Ibsend (12), then the ring's Isend (21); the DONE,
  // CARRIED, torn and stale posts are not pending.
  ASSERT_EQ(world.sends.size(), 3u);
  const mqs_pending_operation& s = world.sends[2];
  EXPECT_EQ(s.status, mqs_st_pending);
  EXPECT_EQ(s.desired_local_rank, 2);
  EXPECT_EQ(s.desired_global_rank, 2);
  EXPECT_EQ(s.tag_wild, 0);
  EXPECT_EQ(s.desired_tag, 21);
  EXPECT_EQ(s.desired_length, 20);
  EXPECT_EQ(s.system_buffer, 0);
  EXPECT_EQ(s.buffer, base_ + 0xa000);
  EXPECT_STREQ(s.extra_text[0], "MPI_Isend");
  EXPECT_STREQ(s.extra_text[1], "count 5 x particle");
  EXPECT_TRUE(has_line(s, "request 0x")) << s.extra_text[2];
  EXPECT_TRUE(has_line(s, "standard send"));
  EXPECT_EQ(log_lines_with("flight ring"), 0);
}

TEST_P(FlightRings, PostedReceivesArePendingInPostingOrder) {
  Walk();
  const WalkedComm& world = comm_with(kWorldJob);
  // The scenario's four (11, 13, 14, 15), the ring's Irecv (24), and post 26 once.
  ASSERT_EQ(world.receives.size(), 6u);
  const mqs_pending_operation& r = world.receives[4];
  EXPECT_EQ(r.status, mqs_st_pending);
  EXPECT_EQ(r.desired_local_rank, 3);
  EXPECT_EQ(r.desired_global_rank, 3);
  EXPECT_EQ(r.desired_tag, 24);
  EXPECT_EQ(r.desired_length, 16);
  EXPECT_EQ(r.buffer, base_ + 0xb000);
  EXPECT_EQ(r.actual_local_rank, -1);
  EXPECT_EQ(r.actual_length, 0);
  EXPECT_STREQ(r.extra_text[0], "MPI_Irecv");
  // The record's name cut to the operation's 31 characters.
  EXPECT_EQ(std::string(r.extra_text[1]),
            "count 2 x " + std::string(kLongTypeName).substr(0, 31));

  const WalkedComm& dup = comm_with(kDupJob);
  ASSERT_EQ(dup.receives.size(), 1u);
  EXPECT_EQ(dup.receives[0].desired_local_rank, MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(dup.receives[0].tag_wild, 1);
  EXPECT_STREQ(dup.receives[0].extra_text[1], "count 3 x datatype 0x0");  // none to name
}

TEST_P(FlightRings, EntryAndRecordOfOnePostAppearOnceAsTheRecord) {
  Walk();
  const WalkedComm& world = comm_with(kWorldJob);
  int seen = 0;
  for (const mqs_pending_operation& r : world.receives) {
    if (r.desired_tag != 26) continue;
    ++seen;
    EXPECT_STREQ(r.extra_text[1], "count 7 x as recorded");
  }
  EXPECT_EQ(seen, 1);
}

TEST_P(FlightRings, RequestQueryOfARingPost) {
  HandleSession d(scenario_.target.get());
  ASSERT_EQ(d.start(), MPIDBG_SUCCESS);
  mpidbg_request_ext_info_t* r = nullptr;
  ASSERT_EQ(d.request_ext(request_value(kRingIsendRequest, hs_), &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->base.req_c_handle, request_value(kRingIsendRequest, hs_));
  EXPECT_EQ(r->req_ext_bitflags, 0u);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_POINT_TO_POINT);
  EXPECT_STREQ(r->req_creator_name, "MPI_Isend");
  EXPECT_EQ(r->req_direction, MPIDBG_OPERATION_SEND);
  EXPECT_EQ(r->req_mode, MPIDBG_MODE_STANDARD);
  EXPECT_EQ(r->req_peer, 2);
  EXPECT_EQ(r->req_peer_world, 2);
  EXPECT_EQ(r->req_tag, 21);
  EXPECT_EQ(r->req_actual_source, MPIDBG_RANK_UNKNOWN);
  EXPECT_EQ(r->req_actual_tag, MPIDBG_TAG_ANY);
  EXPECT_EQ(r->req_count, 5);
  EXPECT_EQ(r->req_bytes, 20);
  EXPECT_EQ(r->req_actual_bytes, 0);
  EXPECT_EQ(r->req_buffer, base_ + 0xa000);
  EXPECT_EQ(r->req_datatype, particle_type(hs_));
  EXPECT_STREQ(r->req_datatype_name, "particle");  // the live record, not the orphan
  EXPECT_EQ(r->req_comm, kWorldHandle);
  EXPECT_EQ(r->req_comm_job_id, kWorldJob);
  EXPECT_STREQ(r->req_comm_name, "MPI_COMM_WORLD");
  EXPECT_EQ(r->req_file_offset, -1);
  EXPECT_EQ(r->req_tid, kRingTid);
  EXPECT_EQ(r->req_post_time_ns, 1700000000700000000);
  EXPECT_EQ(r->req_post_serial, 21u);
  debugger_free(r);
}

TEST_P(FlightRings, RequestsOfPostsNotPendingAreUnknown) {
  HandleSession d(scenario_.target.get());
  ASSERT_EQ(d.start(), MPIDBG_SUCCESS);
  for (uint64_t request : {kDoneRequest, kCarriedRequest, kTornRequest, kStaleRequest}) {
    mpidbg_request_ext_info_t* r = nullptr;
    EXPECT_EQ(d.request_ext(request_value(request, hs_), &r), MPIDBG_ERR_NOT_FOUND)
        << std::hex << request;
    EXPECT_EQ(r, nullptr);
  }
}

TEST_P(FlightRings, RingReadInOneFetch) {
  Walk();
  // The ring's eight entries in one read, not entry by entry.
  std::vector<size_t> ring_reads;
  const uint64_t ring = ring_;
  scenario_.target->on_read = [&ring_reads, ring](uint64_t addr, size_t len) {
    if (addr >= ring && addr < ring + kCapacity * sizeof(mpidbg_flight_entry)) {
      ring_reads.push_back(len);
    }
  };
  scenario_.builder->root.generation += 1;
  scenario_.target->put64(scenario_.builder->root_addr() + offsetof(mpidbg_root, generation),
                          scenario_.builder->root.generation);
  std::vector<WalkedComm> again;
  ASSERT_EQ(session_->walk(&again), mqs_ok);
  EXPECT_EQ(ring_reads, (std::vector<size_t>{kCapacity * sizeof(mpidbg_flight_entry)}));
  scenario_.target->on_read = nullptr;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, FlightRings, all_kinds_and_handles(), kind_name);

// Starts of persistent requests (records.h, MPIDBG_FLIGHT_START): a POSTED start entry
// makes the request's inactive record started (one operation, the start's serial, time
// and thread); a start whose record is not there is an operation of its own, flagged
// persistent; a DONE start leaves the record inactive.
class PersistentStarts : public testing::TestWithParam<KindAndHandles> {
 protected:
  static constexpr uint64_t kStartedRequest = 0xac000301;
  static constexpr uint64_t kLoneRequest = 0xac000302;
  static constexpr uint64_t kIdleRequest = 0xac000303;
  static constexpr uint64_t kStartTid = 1500;

  void SetUp() override {
    FakeDebugger::log().clear();
    hs_ = GetParam().handle_size;
    scenario_ = build_main_scenario(GetParam().kind, hs_);
    ImageBuilder& b = *scenario_.builder;
    b.root.thread_level = MPIDBG_THREAD_SINGLE;
    b.root.post_counter = 60;
    // The records the inits made: inactive, with their first serials.
    for (uint64_t request : {kStartedRequest, kIdleRequest}) {
      mpidbg_operation_record rec = make_op(MPIDBG_CALL_MPI_Recv_init, MPIDBG_OPERATION_RECV,
                                            kWorldHandle, kWorldJob, 40, 2, 2, 41);
      rec.hdr.flags = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
      rec.request = request_value(request, hs_);
      rec.count = 4;
      rec.bytes = 16;
      std::strcpy(rec.datatype_name, "MPI_INT");
      rec.tid = 99;
      b.add_op(rec);
    }
    auto start = [&](uint64_t request, uint64_t serial, uint8_t state) {
      mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Recv_init, MPIDBG_OPERATION_RECV,
                                                kWorldHandle, kWorldJob, serial, 2, 2, 41);
      e.flags = MPIDBG_FLIGHT_START;
      e.request = request_value(request, hs_);
      e.count = 4;
      e.bytes = 16;
      e.state = state;
      e.post_time_ns = 1700000000000000000 + static_cast<int64_t>(serial);
      return e;
    };
    mpidbg_thread_record t = ring_thread(kStartTid);
    attach_ring(&t, b.add_flight_ring(4, {{0, start(kIdleRequest, 50, MPIDBG_FLIGHT_DONE)},
                                          {1, start(kStartedRequest, 55, MPIDBG_FLIGHT_POSTED)},
                                          {2, start(kLoneRequest, 57, MPIDBG_FLIGHT_POSTED)}}),
                4, 3);
    b.add_thread(t);
    b.commit();
  }

  mpidbg_request_ext_info_t* Request(uint64_t request) {
    session_ = std::make_unique<HandleSession>(scenario_.target.get());
    EXPECT_EQ(session_->start(), MPIDBG_SUCCESS);
    mpidbg_request_ext_info_t* r = nullptr;
    EXPECT_EQ(session_->request_ext(request_value(request, hs_), &r), MPIDBG_SUCCESS)
        << std::hex << request;
    return r;
  }

  // The world communicator's pending receives with tag 41.
  std::vector<mqs_pending_operation> Receives() {
    Session s(scenario_.target.get());
    EXPECT_EQ(s.start(), mqs_ok) << s.process_message;
    std::vector<WalkedComm> comms;
    EXPECT_EQ(s.walk(&comms), mqs_ok);
    std::vector<mqs_pending_operation> out;
    for (const WalkedComm& c : comms) {
      if (c.comm.unique_id != kWorldJob) continue;
      for (const mqs_pending_operation& r : c.receives) {
        if (r.desired_tag == 41) out.push_back(r);
      }
    }
    return out;
  }

  uint32_t hs_ = 4;
  Scenario scenario_;
  std::unique_ptr<HandleSession> session_;
};

TEST_P(PersistentStarts, APostedStartIsItsRecordStarted) {
  mpidbg_request_ext_info_t* r = Request(kStartedRequest);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->req_ext_bitflags & (MPIDBG_REQUEST_PERSISTENT | MPIDBG_REQUEST_INACTIVE),
            MPIDBG_REQUEST_PERSISTENT);
  EXPECT_STREQ(r->req_creator_name, "MPI_Recv_init");
  EXPECT_EQ(r->req_post_serial, 55u);
  EXPECT_EQ(r->req_post_time_ns, 1700000000000000055);
  EXPECT_EQ(r->req_tid, kStartTid);
  EXPECT_EQ(r->req_tag, 41);
  EXPECT_STREQ(r->req_datatype_name, "MPI_INT");  // the record's
  debugger_free(r);
}

TEST_P(PersistentStarts, ADoneStartLeavesTheRecordInactive) {
  mpidbg_request_ext_info_t* r = Request(kIdleRequest);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->req_ext_bitflags & (MPIDBG_REQUEST_PERSISTENT | MPIDBG_REQUEST_INACTIVE),
            MPIDBG_REQUEST_PERSISTENT | MPIDBG_REQUEST_INACTIVE);
  EXPECT_EQ(r->req_tid, 99u);
  debugger_free(r);
}

TEST_P(PersistentStarts, AStartWithoutItsRecordIsAPersistentOperationOfItsOwn) {
  mpidbg_request_ext_info_t* r = Request(kLoneRequest);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->req_ext_bitflags & (MPIDBG_REQUEST_PERSISTENT | MPIDBG_REQUEST_INACTIVE),
            MPIDBG_REQUEST_PERSISTENT);
  EXPECT_EQ(r->req_post_serial, 57u);
  debugger_free(r);
}

TEST_P(PersistentStarts, EachStartedRequestIsOnePendingReceive) {
  // The started record and the lone start; the idle record is not pending.
  const std::vector<mqs_pending_operation> receives = Receives();
  ASSERT_EQ(receives.size(), 2u);
  EXPECT_STREQ(receives[0].extra_text[0], "MPI_Recv_init");
  EXPECT_STREQ(receives[1].extra_text[0], "MPI_Recv_init");
}

INSTANTIATE_TEST_SUITE_P(AllTargets, PersistentStarts, all_kinds_and_handles(), kind_name);

// Rings whose geometry is damaged: each is skipped and logged, the healthy ring beside
// them still read, and nothing is read or allocated to the damaged ring's sizes.
class DamagedFlightRings : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    FakeDebugger::log().clear();
    hs_ = GetParam().handle_size;
    scenario_ = build_main_scenario(GetParam().kind, hs_);
  }

  // A ring of `capacity` entries holding one POSTED Isend with post_serial `serial`
  // (tag `serial`) at position 0.
  uint64_t ring_with_one_send(uint32_t capacity, uint64_t serial,
                              uint32_t entry_size = sizeof(mpidbg_flight_entry)) {
    mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                              kWorldHandle, kWorldJob, serial, 2, 2,
                                              static_cast<int32_t>(serial));
    e.request = request_value(0xac000200 + serial, hs_);
    return scenario_.builder->add_flight_ring(capacity, {{0, e}}, entry_size);
  }
  void add_thread_with(uint64_t tid, uint64_t ring, uint32_t capacity, uint64_t head,
                       uint32_t entry_size = sizeof(mpidbg_flight_entry)) {
    mpidbg_thread_record t = ring_thread(tid);
    attach_ring(&t, ring, capacity, head, entry_size);
    scenario_.builder->add_thread(t);
  }
  // The world communicator's sends after a walk of the committed image.
  std::vector<int> world_send_tags() {
    scenario_.builder->commit();
    session_ = std::make_unique<Session>(scenario_.target.get());
    EXPECT_EQ(session_->start(), mqs_ok) << session_->process_message;
    std::vector<WalkedComm> comms;
    EXPECT_EQ(session_->walk(&comms), mqs_ok);
    std::vector<int> tags;
    for (const WalkedComm& c : comms) {
      if (c.comm.unique_id != kWorldJob) continue;
      for (const mqs_pending_operation& s : c.sends) {
        tags.push_back(static_cast<int>(s.desired_tag));
      }
    }
    return tags;
  }

  uint32_t hs_ = 4;
  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

TEST_P(DamagedFlightRings, BadGeometryIsSkippedAndLogged) {
  add_thread_with(1401, ring_with_one_send(8, 31), 6, 1);        // not a power of two
  add_thread_with(1402, ring_with_one_send(8, 32), 1u << 30, 1);  // beyond the limit
  add_thread_with(1403, ring_with_one_send(8, 33), 8, 1, 64);    // entries too small
  add_thread_with(1404, ring_with_one_send(8, 34), 8, 1, 1u << 20);  // entries too large
  // Mapped nowhere (below the scenario's base on both pointer sizes).
  add_thread_with(1405, 0x1000, 8, 3);
  // Within every check, but more posts than the snapshot's byte budget allows: 1 << 20
  // entries of 4096 bytes.
  add_thread_with(1406, ring_with_one_send(8, 36), 1u << 20, 1u << 21, 4096);
  add_thread_with(1407, ring_with_one_send(8, 37), 8, 1);  // healthy
  const uint64_t bytes_before = scenario_.target->bytes_read;
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8, 37}));
  EXPECT_EQ(log_lines_with("flight ring"), 6);
  EXPECT_EQ(log_lines_with("flight ring of thread 1405"), 1);
  EXPECT_EQ(log_lines_with("cannot be read"), 1);
  EXPECT_EQ(log_lines_with("byte budget"), 1);
  EXPECT_LT(scenario_.target->bytes_read - bytes_before, uint64_t{1} << 20);
}

TEST_P(DamagedFlightRings, RingThatEndsInUnmappedMemoryAddsNothing) {
  // The thread claims 64 entries where only 8 are mapped: the read fails, and the one
  // good-looking entry at the start is not reported either.
  add_thread_with(1410, ring_with_one_send(8, 40), 64, 64);
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8}));
  EXPECT_EQ(log_lines_with("flight ring of thread 1410"), 1);
}

TEST_P(DamagedFlightRings, NoRingAndEmptyRingAreNotDamage) {
  add_thread_with(1420, 0, 0, 0);                         // never posted
  add_thread_with(1421, ring_with_one_send(8, 42), 8, 0);  // allocated, head still 0
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8}));
  EXPECT_EQ(log_lines_with("flight ring"), 0);
}

TEST_P(DamagedFlightRings, PostNewerThanTheHeadIsNotRead) {
  // Post 1 is in its entry but the head still says 1: the runtime stores the head after
  // the entry, so the entry is not yet part of the ring.
  mpidbg_flight_entry first = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                                kWorldHandle, kWorldJob, 50, 2, 2, 50);
  mpidbg_flight_entry next = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                               kWorldHandle, kWorldJob, 51, 2, 2, 51);
  add_thread_with(1430, scenario_.builder->add_flight_ring(4, {{0, first}, {1, next}}), 4, 1);
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8, 50}));
}

// What the walk left out reaches the host through the process summary (extension
// version 5); a healthy image reports nothing.
TEST_P(DamagedFlightRings, TheProcessSummaryCountsWhatTheWalkLeftOut) {
  add_thread_with(1450, ring_with_one_send(8, 45), 6, 1);  // bad geometry
  add_thread_with(1451, 0x1000, 8, 3);                      // mapped nowhere
  mpidbg_thread_record torn = ring_thread(1452);
  torn.hdr.seq = 7;  // being written, and still so after the retries
  scenario_.builder->add_thread(torn);
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8}));
  mpidbg_process_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(plugin().mpidbg_process_get_summary(session_->process(), &s), mqs_ok);
  EXPECT_EQ(s.size, sizeof s);
  EXPECT_EQ(s.rings_damaged, 2u);
  EXPECT_EQ(s.records_torn, 1u);
  EXPECT_EQ(s.records_bad, 0u);
  EXPECT_EQ(s.tables_damaged, 0u);
  EXPECT_EQ(s.live_unreadable, 0u);
}

TEST_P(DamagedFlightRings, AHealthyImageReportsNothingLeftOut) {
  add_thread_with(1460, ring_with_one_send(8, 46), 8, 1);
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8, 46}));
  mpidbg_process_summary s{};
  s.size = sizeof s;
  ASSERT_EQ(plugin().mpidbg_process_get_summary(session_->process(), &s), mqs_ok);
  EXPECT_EQ(s.records_torn + s.records_bad + s.tables_damaged + s.rings_damaged +
                s.live_unreadable,
            0u);
}

TEST_P(DamagedFlightRings, LargerEntriesOfANewerRuntimeAreRead) {
  add_thread_with(1440, ring_with_one_send(8, 44, 128), 8, 1, 128);
  EXPECT_EQ(world_send_tags(), (std::vector<int>{7, 8, 44}));
  EXPECT_EQ(log_lines_with("flight ring"), 0);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, DamagedFlightRings, all_kinds_and_handles(), kind_name);

// A layout-1 runtime: thread records of 136 bytes, no flight ring fields. Ring memory
// that happens to sit where a layout-2 record would point must not be read.
class LayoutOneThreads : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override { FakeDebugger::log().clear(); }

  // The world communicator's sends and the thread count after a walk.
  void walk(Scenario& s, std::vector<int>* send_tags, int* threads) {
    Session session(s.target.get());
    ASSERT_EQ(session.start(), mqs_ok) << session.process_message;
    std::vector<WalkedComm> comms;
    ASSERT_EQ(session.walk(&comms), mqs_ok);
    for (const WalkedComm& c : comms) {
      if (c.comm.unique_id != kWorldJob) continue;
      for (const mqs_pending_operation& op : c.sends) {
        send_tags->push_back(static_cast<int>(op.desired_tag));
      }
    }
    mpidbg_process_summary summary{};
    summary.size = sizeof summary;
    ASSERT_EQ(plugin().mpidbg_process_get_summary(session.process(), &summary), mqs_ok);
    *threads = summary.thread_count;
  }

  // A thread record whose flight fields point at a ring with a POSTED Isend (tag 60).
  static void add_thread_beside_a_ring(ImageBuilder& b, uint32_t written_size) {
    mpidbg_flight_entry e = make_flight_entry(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND,
                                              kWorldHandle, kWorldJob, 60, 2, 2, 60);
    mpidbg_thread_record t = ring_thread(1500);
    attach_ring(&t, b.add_flight_ring(4, {{0, e}}), 4, 1);
    t.hdr.size = static_cast<uint16_t>(written_size);
    b.add_thread(t);
  }
};

TEST_P(LayoutOneThreads, SlotsOfTheOldSizeDecodeAsBefore) {
  ImageBuilder::Options options;
  options.thread_record_bytes = kThreadRecordSizeV1;
  Scenario s = build_main_scenario(GetParam().kind, GetParam().handle_size, options);
  s.builder->root.layout_version = 1;
  add_thread_beside_a_ring(*s.builder, 0);
  s.builder->commit();
  ASSERT_EQ(s.builder->record_size(MPIDBG_KIND_THREAD), 136u);
  std::vector<int> tags;
  int threads = 0;
  walk(s, &tags, &threads);
  EXPECT_EQ(tags, (std::vector<int>{7, 8}));
  EXPECT_EQ(threads, 4);
  EXPECT_EQ(log_lines_with("flight ring"), 0);
}

TEST_P(LayoutOneThreads, FieldsBeyondTheWrittenSizeAreNotRead) {
  // Slots of this build's size, but the writer wrote only the layout-1 record: the
  // bytes after it are not its fields.
  Scenario s = build_main_scenario(GetParam().kind, GetParam().handle_size);
  s.builder->root.layout_version = 1;
  add_thread_beside_a_ring(*s.builder, kThreadRecordSizeV1);
  s.builder->commit();
  std::vector<int> tags;
  int threads = 0;
  walk(s, &tags, &threads);
  EXPECT_EQ(tags, (std::vector<int>{7, 8}));
  EXPECT_EQ(threads, 4);
}

TEST_P(LayoutOneThreads, TheSameRingIsReadFromALayoutTwoRecord) {
  Scenario s = build_main_scenario(GetParam().kind, GetParam().handle_size);
  add_thread_beside_a_ring(*s.builder, 0);
  s.builder->commit();
  std::vector<int> tags;
  int threads = 0;
  walk(s, &tags, &threads);
  EXPECT_EQ(tags, (std::vector<int>{7, 8, 60}));
  EXPECT_EQ(threads, 4);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, LayoutOneThreads, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
