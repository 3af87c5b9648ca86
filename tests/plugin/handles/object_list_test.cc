// object_list_test.cc — mpidbg_object_list_query and mpidbg_latest_time_query as a
// debugger calls them, over a fake process on every target kind with 4- and 8-byte
// handles: every kind listed with its handle, name, state, creator, creation site and
// time; predefined objects and orphans; blocking envelopes left out; a damaged record
// left out while the rest is listed; bad arguments; the allocator running dry; every
// allocation given back.
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fake_target.h"
#include "handles_session.h"
#include "mpidbg/mpidbg_handles.h"
#include "plugin_api.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

const PluginApi& api() { return plugin(); }

long g_allocations_left = -1;  // -1: unlimited
void* failing_malloc(size_t n) {
  if (g_allocations_left == 0) return nullptr;
  if (g_allocations_left > 0) --g_allocations_left;
  return FakeDebugger::basic_callbacks()->mqs_malloc_fp(n);
}
void failing_free(void* p) { FakeDebugger::basic_callbacks()->mqs_free_fp(p); }
const mqs_basic_callbacks* failing_callbacks() {
  static const mqs_basic_callbacks cb = [] {
    mqs_basic_callbacks c = *FakeDebugger::basic_callbacks();
    c.mqs_malloc_fp = failing_malloc;
    c.mqs_free_fp = failing_free;
    return c;
  }();
  return &cb;
}

constexpr int64_t kT0 = 1700000000000000000;

class ObjectList : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    baseline_ = FakeDebugger::live_allocations();
    mpich_ = GetParam().handle_size == 4;
    target_ = std::make_unique<FakeTarget>(GetParam().kind.pointer_size, GetParam().kind.big_endian);
    b_ = std::make_unique<ImageBuilder>(target_.get(),
                                        GetParam().kind.pointer_size == 4 ? 0x10000000u : 0x7f0000000000u);
    build();
    b_->commit();
    // A datatype record whose kind was overwritten: the walk must skip it alone.
    target_->put16(damaged_slot_ + 4, 0x7777);
    session_ = std::make_unique<HandleSession>(target_.get());
    ASSERT_EQ(session_->start(), MPIDBG_SUCCESS);
  }
  void TearDown() override {
    session_.reset();
    EXPECT_EQ(FakeDebugger::live_allocations(), baseline_) << "debugger memory not given back";
  }

  uint64_t h(uint64_t n) const { return mpich_ ? 0x8c000000u | n : 0x7f3a00000000u + n * 0x40; }

  mpidbg_object_head head(uint64_t handle, uint64_t serial, const char* name, int32_t creator,
                          int64_t time_ns, uint32_t flags = 0) {
    mpidbg_object_head o = make_head(handle, serial, name);
    o.creator = creator;
    o.create_time_ns = time_ns;
    o.hdr.flags = flags;
    return o;
  }

  void build() {
    mpidbg_root& root = b_->root;
    root.flavour = mpich_ ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI;
    root.handle_size = GetParam().handle_size;
    root.process_state = MPIDBG_PROCESS_RUNNING;
    root.world_rank = 0;
    root.world_size = 2;
    root.generation = 3;
    root.init_time_ns = kT0;
    root.comm_world_handle = h(0x1);

    const uint64_t ranks = b_->add_int32_array({0, 1});
    mpidbg_comm_record world = make_comm(h(0x1), 0x10, 0, 2, ranks, 1, "");
    world.hdr.flags = MPIDBG_REC_PREDEFINED;
    world.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    b_->add_comm(world);
    mpidbg_comm_record dup = make_comm(h(0x2), 0x11, 0, 2, ranks, 2, "halo");
    dup.creator = MPIDBG_CALL_MPI_Comm_dup;
    dup.create_time_ns = kT0 + 5;
    dup.create_pc = 0x401234;
    dup.fortran_index = 3;
    b_->add_comm(dup);
    mpidbg_comm_record gone = make_comm(h(0x3), 0x12, 0, 2, ranks, 3, "");
    gone.creator = MPIDBG_CALL_MPI_Comm_split;
    gone.hdr.flags = MPIDBG_REC_FREED;
    gone.free_serial = 4;
    gone.create_pc = 0x401300;
    b_->add_comm(gone);

    mpidbg_operation_record isend = make_op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, h(0x2), 0x11, 7, 1, 1, 5);
    isend.request = h(0x500);
    isend.post_time_ns = kT0 + 90;  // the newest time the process recorded
    isend.create_pc = 0x401400;
    b_->add_op(isend);
    mpidbg_operation_record blocking = make_op(MPIDBG_CALL_MPI_Recv, MPIDBG_OPERATION_RECV, h(0x1), 0x10, 8, 1, 1, 5);
    blocking.hdr.flags = MPIDBG_OPERATION_BLOCKING;
    b_->add_op(blocking);
    mpidbg_operation_record persistent = make_op(MPIDBG_CALL_MPI_Recv_init, MPIDBG_OPERATION_RECV, h(0x1), 0x10, 9, 1, 1, 6);
    persistent.request = h(0x501);
    persistent.hdr.flags = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
    persistent.free_serial = 5;  // MPI_Request_free'd, kept
    b_->add_op(persistent);

    mpidbg_datatype_record t{};
    t.obj = head(h(0x10), 1, "MPI_INT", MPIDBG_CALL_MPIDBG_PREDEFINED, 0, MPIDBG_REC_PREDEFINED);
    b_->add_datatype(t);
    t = {};
    t.obj = head(h(0x11), 2, "", MPIDBG_CALL_MPI_Type_vector, kT0 + 10);
    t.obj.fortran_index = 12;
    t.create_pc = 0x401500;
    b_->add_datatype(t);
    t = {};
    t.obj = head(h(0x12), 3, "broken", MPIDBG_CALL_MPI_Type_contiguous, kT0 + 11);
    damaged_slot_ = b_->add_datatype(t);
    t = {};
    // A name filling its whole field, unterminated.
    t.obj = head(h(0x13), 4, "", MPIDBG_CALL_MPI_Type_contiguous, kT0 + 12,
                 MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    std::memset(t.obj.name, 'x', sizeof t.obj.name);
    t.obj.free_serial = 6;
    b_->add_datatype(t);

    mpidbg_group_record g{};
    g.obj = head(h(0x20), 5, "", MPIDBG_CALL_MPI_Comm_group, kT0 + 20);
    g.create_pc = 0x401600;
    b_->add_group(g);
    mpidbg_reduce_op_record op{};
    op.obj = head(h(0x30), 6, "", MPIDBG_CALL_MPI_Op_create, kT0 + 30);
    b_->add_reduce_op(op);
    mpidbg_errhandler_record eh{};
    eh.obj = head(h(0x40), 7, "MPI_ERRORS_RETURN", MPIDBG_CALL_NONE, 0, MPIDBG_REC_PREDEFINED);
    b_->add_errhandler(eh);
    mpidbg_info_record info{};
    info.obj = head(h(0x50), 8, "", MPIDBG_CALL_MPI_Info_create, kT0 + 40);
    b_->add_info(info);
    mpidbg_window_record win{};
    win.obj = head(h(0x60), 9, "", MPIDBG_CALL_MPI_Win_create, kT0 + 50);
    b_->add_window(win);
    mpidbg_file_record file{};
    file.obj = head(h(0x70), 10, "", MPIDBG_CALL_MPI_File_open, kT0 + 60);
    b_->add_file(file);
    mpidbg_message_record msg{};
    msg.obj = head(h(0x80), 11, "", MPIDBG_CALL_MPI_Mprobe, kT0 + 70);
    b_->add_message(msg);
    mpidbg_session_record ses{};
    ses.obj = head(h(0x90), 12, "", MPIDBG_CALL_MPI_Session_init, kT0 + 80);
    b_->add_session(ses);
  }

  int list(int kind, std::vector<mpidbg_object_entry_t>* out) {
    int count = -1;
    mpidbg_object_entry_t* entries = nullptr;
    const int rc = api().mpidbg_object_list_query(session_->image(), session_->debugger.image_info,
                                                  session_->process(), session_->debugger.process_info,
                                                  kind, &count, &entries);
    out->clear();
    if (rc == MPIDBG_SUCCESS) {
      EXPECT_GE(count, 0);
      EXPECT_EQ(entries == nullptr, count == 0);
      if (entries != nullptr) out->assign(entries, entries + count);
    } else {
      EXPECT_EQ(count, 0);
      EXPECT_EQ(entries, nullptr);
    }
    debugger_free(entries);
    return rc;
  }

  const mpidbg_object_entry_t* find(const std::vector<mpidbg_object_entry_t>& v, int kind, uint64_t handle) {
    for (const auto& e : v) {
      if (e.kind == kind && e.c_handle == handle) return &e;
    }
    return nullptr;
  }

  long baseline_ = 0;
  bool mpich_ = false;
  uint64_t damaged_slot_ = 0;
  std::unique_ptr<FakeTarget> target_;
  std::unique_ptr<ImageBuilder> b_;
  std::unique_ptr<HandleSession> session_;
};

TEST_P(ObjectList, EveryKindInKindThenCreationOrder) {
  std::vector<mpidbg_object_entry_t> all;
  ASSERT_EQ(list(0, &all), MPIDBG_SUCCESS);
  std::vector<std::pair<int, uint64_t>> got;
  for (const auto& e : all) got.emplace_back(e.kind, e.c_handle);
  const std::vector<std::pair<int, uint64_t>> want = {
      {MPIDBG_HANDLE_COMM, h(0x1)},       {MPIDBG_HANDLE_COMM, h(0x2)},
      {MPIDBG_HANDLE_COMM, h(0x3)},       {MPIDBG_HANDLE_REQUEST, h(0x500)},
      {MPIDBG_HANDLE_REQUEST, h(0x501)},  {MPIDBG_HANDLE_DATATYPE, h(0x10)},
      {MPIDBG_HANDLE_DATATYPE, h(0x11)},  {MPIDBG_HANDLE_DATATYPE, h(0x13)},
      {MPIDBG_HANDLE_GROUP, h(0x20)},     {MPIDBG_HANDLE_OP, h(0x30)},
      {MPIDBG_HANDLE_ERRHANDLER, h(0x40)}, {MPIDBG_HANDLE_INFO, h(0x50)},
      {MPIDBG_HANDLE_WIN, h(0x60)},       {MPIDBG_HANDLE_FILE, h(0x70)},
      {MPIDBG_HANDLE_MESSAGE, h(0x80)},   {MPIDBG_HANDLE_SESSION, h(0x90)}};
  EXPECT_EQ(got, want) << "the damaged datatype and the blocking envelope are left out";
}

TEST_P(ObjectList, FieldsOfLivePredefinedAndOrphans) {
  std::vector<mpidbg_object_entry_t> all;
  ASSERT_EQ(list(0, &all), MPIDBG_SUCCESS);

  const auto* world = find(all, MPIDBG_HANDLE_COMM, h(0x1));
  ASSERT_NE(world, nullptr);
  EXPECT_STREQ(world->name, "MPI_COMM_WORLD") << "predefined comm named from the root";
  EXPECT_EQ(world->bitflags, MPIDBG_HANDLE_PREDEFINED);
  EXPECT_EQ(world->create_pc, 0u);
  EXPECT_STREQ(world->creator_name, "") << "no call of the program made it";

  const auto* dup = find(all, MPIDBG_HANDLE_COMM, h(0x2));
  ASSERT_NE(dup, nullptr);
  EXPECT_STREQ(dup->name, "halo");
  EXPECT_EQ(dup->bitflags, 0u);
  EXPECT_EQ(dup->creator, MPIDBG_CALL_MPI_Comm_dup);
  EXPECT_STREQ(dup->creator_name, "MPI_Comm_dup");
  EXPECT_EQ(dup->create_time_ns, kT0 + 5);
  EXPECT_EQ(dup->create_serial, 2u);
  EXPECT_EQ(dup->create_pc, 0x401234u);
  EXPECT_EQ(dup->fortran_handle, 3);
  EXPECT_NE(dup->record, 0u);

  const auto* gone = find(all, MPIDBG_HANDLE_COMM, h(0x3));
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->bitflags, MPIDBG_HANDLE_FREED_HANDLE) << "an orphan still needed by MPI";
  EXPECT_EQ(gone->free_serial, 4u);
  EXPECT_STREQ(gone->creator_name, "MPI_Comm_split");

  const auto* isend = find(all, MPIDBG_HANDLE_REQUEST, h(0x500));
  ASSERT_NE(isend, nullptr);
  EXPECT_STREQ(isend->creator_name, "MPI_Isend");
  EXPECT_EQ(isend->create_time_ns, kT0 + 90);
  EXPECT_EQ(isend->create_serial, 7u);
  EXPECT_EQ(isend->create_pc, 0x401400u);
  EXPECT_EQ(isend->bitflags, 0u);
  const auto* persistent = find(all, MPIDBG_HANDLE_REQUEST, h(0x501));
  ASSERT_NE(persistent, nullptr);
  EXPECT_EQ(persistent->bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_REQUEST_PERSISTENT |
                                      MPIDBG_REQUEST_INACTIVE);

  const auto* mpi_int = find(all, MPIDBG_HANDLE_DATATYPE, h(0x10));
  ASSERT_NE(mpi_int, nullptr);
  EXPECT_STREQ(mpi_int->name, "MPI_INT");
  EXPECT_EQ(mpi_int->bitflags, MPIDBG_HANDLE_PREDEFINED);
  EXPECT_STREQ(mpi_int->creator_name, "");
  const auto* vec = find(all, MPIDBG_HANDLE_DATATYPE, h(0x11));
  ASSERT_NE(vec, nullptr);
  EXPECT_STREQ(vec->creator_name, "MPI_Type_vector");
  EXPECT_EQ(vec->create_pc, 0x401500u);
  EXPECT_EQ(vec->fortran_handle, 12);
  const auto* released = find(all, MPIDBG_HANDLE_DATATYPE, h(0x13));
  ASSERT_NE(released, nullptr);
  EXPECT_EQ(released->bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT);
  EXPECT_EQ(std::string(released->name), std::string(MPIDBG_MAX_OBJECT_NAME - 1, 'x'))
      << "an unterminated name is cut and terminated";

  const auto* group = find(all, MPIDBG_HANDLE_GROUP, h(0x20));
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->create_pc, 0x401600u);
  EXPECT_STREQ(group->creator_name, "MPI_Comm_group");
  const auto* eh = find(all, MPIDBG_HANDLE_ERRHANDLER, h(0x40));
  ASSERT_NE(eh, nullptr);
  EXPECT_STREQ(eh->name, "MPI_ERRORS_RETURN");
  const auto* ses = find(all, MPIDBG_HANDLE_SESSION, h(0x90));
  ASSERT_NE(ses, nullptr);
  EXPECT_STREQ(ses->creator_name, "MPI_Session_init");
}

TEST_P(ObjectList, OneKind) {
  std::map<int, size_t> want = {{MPIDBG_HANDLE_COMM, 3}, {MPIDBG_HANDLE_REQUEST, 2},
                                {MPIDBG_HANDLE_DATATYPE, 3}, {MPIDBG_HANDLE_GROUP, 1},
                                {MPIDBG_HANDLE_OP, 1}, {MPIDBG_HANDLE_ERRHANDLER, 1},
                                {MPIDBG_HANDLE_INFO, 1}, {MPIDBG_HANDLE_WIN, 1},
                                {MPIDBG_HANDLE_FILE, 1}, {MPIDBG_HANDLE_MESSAGE, 1},
                                {MPIDBG_HANDLE_SESSION, 1}};
  for (const auto& [kind, n] : want) {
    std::vector<mpidbg_object_entry_t> v;
    ASSERT_EQ(list(kind, &v), MPIDBG_SUCCESS) << kind;
    EXPECT_EQ(v.size(), n) << kind;
    for (const auto& e : v) EXPECT_EQ(e.kind, kind);
  }
}

TEST_P(ObjectList, BadArguments) {
  std::vector<mpidbg_object_entry_t> v;
  EXPECT_EQ(list(12, &v), MPIDBG_ERR_OUT_OF_RANGE);
  EXPECT_EQ(list(-1, &v), MPIDBG_ERR_OUT_OF_RANGE);
  mpidbg_object_entry_t* entries = nullptr;
  int count = 0;
  EXPECT_EQ(api().mpidbg_object_list_query(session_->image(), session_->debugger.image_info,
                                           session_->process(), session_->debugger.process_info, 0,
                                           nullptr, &entries),
            MPIDBG_ERR_OUT_OF_RANGE);
  EXPECT_EQ(api().mpidbg_object_list_query(session_->image(), session_->debugger.image_info,
                                           session_->process(), session_->debugger.process_info, 0,
                                           &count, nullptr),
            MPIDBG_ERR_OUT_OF_RANGE);
  EXPECT_EQ(api().mpidbg_latest_time_query(session_->image(), session_->debugger.image_info,
                                           session_->process(), session_->debugger.process_info,
                                           nullptr),
            MPIDBG_ERR_OUT_OF_RANGE);
}

TEST_P(ObjectList, LatestTimeIsTheNewestRecorded) {
  int64_t latest = 0;
  ASSERT_EQ(api().mpidbg_latest_time_query(session_->image(), session_->debugger.image_info,
                                           session_->process(), session_->debugger.process_info,
                                           &latest),
            MPIDBG_SUCCESS);
  EXPECT_EQ(latest, kT0 + 90);
}

// A thread's live words move without the generation (a call that returns by itself
// publishes only them): the newest time follows them all the same.
TEST_P(ObjectList, LatestTimeFollowsAThreadsLiveWords) {
  mpidbg_thread_live words{};
  words.calls = 1;
  const uint64_t live = b_->add_thread_live(words);
  mpidbg_thread_record thread{};
  thread.tid = 77;
  thread.root = -1;
  thread.live = live;
  b_->add_thread(thread);
  b_->root.generation += 1;
  b_->commit();
  auto latest = [this] {
    int64_t ns = 0;
    EXPECT_EQ(api().mpidbg_latest_time_query(session_->image(), session_->debugger.image_info,
                                             session_->process(), session_->debugger.process_info,
                                             &ns),
              MPIDBG_SUCCESS);
    return ns;
  };
  EXPECT_EQ(latest(), kT0 + 90);
  words.state = MPIDBG_THREAD_IN_MPI;
  words.call = MPIDBG_CALL_MPI_Isend;
  words.entry_time_ns = kT0 + 500;
  words.calls = 2;
  ImageBuilder::encode_thread_live(target_.get(), live, words);
  EXPECT_EQ(latest(), kT0 + 500);
}

TEST_P(ObjectList, AllocatorRunningDryGivesNoMemAndLeaksNothing) {
  ASSERT_EQ(api().mpidbg_init_once(failing_callbacks()), MPIDBG_SUCCESS);
  std::vector<mpidbg_object_entry_t> v;
  ASSERT_EQ(list(0, &v), MPIDBG_SUCCESS);  // warm the decoded snapshots
  const long before = FakeDebugger::live_allocations();
  g_allocations_left = 0;
  EXPECT_EQ(list(0, &v), MPIDBG_ERR_NO_MEM);
  g_allocations_left = -1;
  EXPECT_EQ(FakeDebugger::live_allocations(), before);
  ASSERT_EQ(api().mpidbg_init_once(FakeDebugger::basic_callbacks()), MPIDBG_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, ObjectList, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
