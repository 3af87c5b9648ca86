// The handle interface, version 1 (mpidbg_handles.h part 1) and the extensions of the
// same kinds (communicator, request, status detail; name maps), on every kind of target
// with both handle sizes: set-up and published data, every field of every structure,
// orphans, null and unknown handles, before MPI_Init, damaged records, the cache, the
// infos shared with the message-queue interface, and allocation failures.
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fake_target.h"
#include "handles_session.h"
#include "plugin_api.h"
#include "scenario.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

// The handle values of the image: MPICH-like integers (4 bytes, some negative as ints)
// or Open MPI-like object addresses (8 bytes).
struct Handles {
  uint64_t world, self, comm_null, cart, graph, dist, inter, twice_freed, reused, released;
  uint64_t req_send, req_persist, req_matched, req_freed, req_rma, req_file, req_greq,
      req_coll, request_null;
  uint64_t eh_fatal, eh_return, eh_comm, eh_win, eh_file, eh_null;
  uint64_t win, win_freed, file, info;
};

Handles handles_for(uint32_t handle_size) {
  Handles h{};
  if (handle_size == 4) {
    h.world = 0x44000000;
    h.self = 0x44000001;
    h.comm_null = 0x04000000;
    h.cart = 0x84000002;
    h.graph = 0x84000003;
    h.dist = 0x84000004;
    h.inter = 0x84000005;
    h.twice_freed = 0x84000006;
    h.reused = 0x84000007;
    h.released = 0x84000008;
    h.req_send = 0xac000001;
    h.req_persist = 0xac000002;
    h.req_matched = 0xac000003;
    h.req_freed = 0xac000004;
    h.req_rma = 0xac000005;
    h.req_file = 0xac000006;
    h.req_greq = 0xac000007;
    h.req_coll = 0xac000008;
    h.request_null = 0x2c000000;
    h.eh_fatal = 0x54000000;
    h.eh_return = 0x54000001;
    h.eh_comm = 0x94000000;
    h.eh_win = 0x94000001;
    h.eh_file = 0x94000002;
    h.eh_null = 0x14000000;
    h.win = 0xa0000000;
    h.win_freed = 0xa0000001;
    h.file = 0x5a5a0010;
    h.info = 0x9c000000;
    return h;
  }
  uint64_t next = 0x7f3a00001000;
  for (uint64_t* p : {&h.world, &h.self, &h.comm_null, &h.cart, &h.graph, &h.dist, &h.inter,
                      &h.twice_freed, &h.reused, &h.released, &h.req_send, &h.req_persist,
                      &h.req_matched, &h.req_freed, &h.req_rma, &h.req_file, &h.req_greq,
                      &h.req_coll, &h.request_null, &h.eh_fatal, &h.eh_return, &h.eh_comm,
                      &h.eh_win, &h.eh_file, &h.eh_null, &h.win, &h.win_freed, &h.file,
                      &h.info}) {
    *p = next;
    next += 0x1c0;
  }
  return h;
}

// Job ids of the communicators.
constexpr uint64_t kWorldJob = 0x1000, kSelfJob = 0x1001, kCartJob = 0x2000,
                   kGraphJob = 0x2001, kDistJob = 0x2002, kInterJob = 0x2003;

// Keyval of MPI_TAG_UB as each MPI numbers it.
int tag_ub_keyval(bool mpich) { return mpich ? 0x64400001 : 0; }

class HandlesV1 : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    baseline_ = FakeDebugger::live_allocations();
    hs_ = GetParam().handle_size;
    mpich_ = hs_ == 4;
    h_ = handles_for(hs_);
    target_ = std::make_unique<FakeTarget>(GetParam().kind.pointer_size, GetParam().kind.big_endian);
    b_ = std::make_unique<ImageBuilder>(target_.get(), 0x10000);
    build();
    b_->commit();
    session_ = std::make_unique<HandleSession>(target_.get());
  }

  void TearDown() override {
    session_.reset();
    FakeDebugger::fail_allocations_after(-1);
    EXPECT_EQ(FakeDebugger::live_allocations(), baseline_) << "debugger memory leaked";
  }

  void start() { ASSERT_EQ(session_->start(), MPIDBG_SUCCESS); }

  // The Fortran index each MPI would report for a handle.
  int32_t fidx(uint64_t handle, int32_t openmpi_index) const {
    return mpich_ ? static_cast<int32_t>(static_cast<uint32_t>(handle)) : openmpi_index;
  }

  mpidbg_comm_record comm(uint64_t handle, uint64_t job, int32_t rank,
                          const std::vector<int32_t>& world_ranks, uint64_t serial,
                          const char* name, int32_t findex) {
    mpidbg_comm_record c = make_comm(handle, job, rank, static_cast<int32_t>(world_ranks.size()),
                                     b_->add_int32_array(world_ranks), serial, name);
    c.fortran_index = fidx(handle, findex);
    c.creator = MPIDBG_CALL_MPI_Comm_dup;
    return c;
  }

  void build_root() {
    mpidbg_root& r = b_->root;
    r.flavour = mpich_ ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI;
    r.handle_size = hs_;
    r.process_state = MPIDBG_PROCESS_RUNNING;
    r.world_rank = 1;
    r.world_size = 4;
    r.generation = 5;
    r.comm_world_handle = h_.world;
    r.comm_self_handle = h_.self;
    r.comm_null_handle = h_.comm_null;
    r.request_null_handle = h_.request_null;
    r.errhandler_null_handle = h_.eh_null;
    r.group_null_handle = h_.info + 0x10;
    r.group_empty_handle = h_.info + 0x20;
    r.datatype_null_handle = h_.info + 0x30;
    r.reduce_op_null_handle = h_.info + 0x40;
    r.info_null_handle = h_.info + 0x50;
    r.win_null_handle = h_.info + 0x60;
    r.file_null_handle = h_.info + 0x70;
    r.message_null_handle = h_.info + 0x80;
    r.message_no_proc_handle = h_.info + 0x90;
    const int ptr = GetParam().kind.pointer_size;
    set_status_layout(r, mpich_, ptr);
  }

  void build_comms() {
    mpidbg_comm_record world = comm(h_.world, kWorldJob, 1, {0, 1, 2, 3}, 1, "", 0);
    world.hdr.flags = MPIDBG_REC_PREDEFINED;
    world.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    world.errhandler = h_.eh_fatal;
    b_->add_comm(world);
    mpidbg_comm_record self = comm(h_.self, kSelfJob, 0, {1}, 2, "MPI_COMM_SELF", 1);
    self.hdr.flags = MPIDBG_REC_PREDEFINED;
    self.errhandler = h_.eh_return;
    b_->add_comm(self);

    mpidbg_comm_record cart = comm(h_.cart, kCartJob, 2, {3, 0, 1, 2}, 10, "grid", 5);
    cart.hdr.flags = MPIDBG_COMM_CART;
    cart.parent_job_id = kWorldJob;
    cart.creator = MPIDBG_CALL_MPI_Cart_create;
    cart.split_color = 7;
    cart.split_key = -3;
    cart.errhandler = h_.eh_comm;
    cart.info = h_.info;
    cart.topology = MPIDBG_TOPO_CART;
    cart.topo_args = b_->int32_side_array({2, 2, 2, 1, 0, 1, 0, 1});
    cart.attributes = b_->int64_side_array({77, 0x1234, tag_ub_keyval(mpich_), 32767});
    cart.create_time_ns = 1700000000000000123;
    cart_ = cart;
    cart_slot_ = b_->add_comm(cart);

    mpidbg_comm_record graph = comm(h_.graph, kGraphJob, 0, {1, 2, 3}, 11, "net", 6);
    graph.hdr.flags = MPIDBG_COMM_GRAPH;
    graph.creator = MPIDBG_CALL_MPI_Graph_create;
    graph.errhandler = h_.eh_comm;
    graph.topology = MPIDBG_TOPO_GRAPH;
    graph.topo_args = b_->int32_side_array({3, 4, 2, 3, 4, 1, 2, 0, 0, 0});
    b_->add_comm(graph);

    mpidbg_comm_record dist = comm(h_.dist, kDistJob, 1, {0, 1, 2, 3}, 12, "", 7);
    dist.hdr.flags = MPIDBG_COMM_DIST_GRAPH;
    dist.creator = MPIDBG_CALL_MPI_Dist_graph_create_adjacent;
    dist.topology = MPIDBG_TOPO_DIST_GRAPH;
    dist.topo_args = b_->int32_side_array({2, 1, 1, 0, 3, 5, 6, 2, 7, 1});
    b_->add_comm(dist);

    mpidbg_comm_record inter = comm(h_.inter, kInterJob, 0, {1, 3}, 13, "bridge", 8);
    inter.hdr.flags = MPIDBG_COMM_INTER;
    inter.creator = MPIDBG_CALL_MPI_Intercomm_create;
    inter.remote_size = 2;
    inter.remote_world_ranks = b_->add_int32_array({0, 2});
    inter.errhandler = h_.eh_fatal;
    b_->add_comm(inter);

    // Two orphans of one handle: the one freed last (not the one created last) answers.
    mpidbg_comm_record a = comm(h_.twice_freed, 0x3000, 0, {1}, 14, "freed last", 9);
    a.hdr.flags = MPIDBG_REC_FREED;
    a.free_serial = 5;
    a.errhandler = h_.eh_comm;  // freed: not counted as attached
    b_->add_comm(a);
    mpidbg_comm_record bb = comm(h_.twice_freed, 0x3001, 0, {1}, 15, "freed first", 10);
    bb.hdr.flags = MPIDBG_REC_FREED;
    bb.free_serial = 2;
    b_->add_comm(bb);
    // An orphan and a live record of a reused handle: the live one answers.
    mpidbg_comm_record old = comm(h_.reused, 0x3002, 0, {1}, 16, "old", 11);
    old.hdr.flags = MPIDBG_REC_FREED;
    old.free_serial = 3;
    b_->add_comm(old);
    b_->add_comm(comm(h_.reused, 0x3003, 0, {1}, 17, "new", 12));
    mpidbg_comm_record gone = comm(h_.released, 0x3004, 0, {1}, 18, "gone", 13);
    gone.hdr.flags = MPIDBG_REC_FREED | MPIDBG_REC_RELEASED;
    gone.free_serial = 4;
    b_->add_comm(gone);
  }

  mpidbg_operation_record op(int32_t call, int32_t direction, uint64_t comm_handle, uint64_t job,
                      uint64_t serial, uint64_t request) {
    mpidbg_operation_record o = make_op(call, direction, comm_handle, job, serial, 3, 2, 5);
    o.request = request;
    o.file_offset = -1;
    return o;
  }

  void build_ops() {
    mpidbg_operation_record send = op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, h_.cart, kCartJob, 1, h_.req_send);
    send.buffer = 0x5000;
    send.datatype = mpich_ ? 0x4c000405 : 0x7f3a0000f000;
    std::strcpy(send.datatype_name, "MPI_INT");
    send.count = 10;
    send.bytes = 40;
    send.tid = 4242;
    send.post_time_ns = 1700000000000000456;
    send_ = send;
    b_->add_op(send);
    mpidbg_operation_record persist =
        op(MPIDBG_CALL_MPI_Recv_init, MPIDBG_OPERATION_RECV, h_.cart, kCartJob, 2, h_.req_persist);
    persist.hdr.flags = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
    persist.peer = MPIDBG_RANK_ANY_SOURCE;
    persist.peer_world = MPIDBG_RANK_ANY_SOURCE;
    persist.tag = MPIDBG_TAG_ANY;
    b_->add_op(persist);
    mpidbg_operation_record matched =
        op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV, h_.cart, kCartJob, 3, h_.req_matched);
    matched.status = MPIDBG_OPERATION_MATCHED;
    matched.actual_source = 1;
    matched.actual_tag = 8;
    matched.actual_bytes = 16;
    b_->add_op(matched);
    mpidbg_operation_record blocking = op(MPIDBG_CALL_MPI_Send, MPIDBG_OPERATION_SEND, h_.cart, kCartJob, 4, 0);
    blocking.hdr.flags = MPIDBG_OPERATION_BLOCKING;
    b_->add_op(blocking);
    mpidbg_operation_record rma = op(MPIDBG_CALL_MPI_Rput, MPIDBG_OPERATION_RMA, h_.cart, kCartJob, 5, h_.req_rma);
    rma.object = h_.win;
    rma.target_disp = 64;
    b_->add_op(rma);
    mpidbg_operation_record file =
        op(MPIDBG_CALL_MPI_File_iread_at, MPIDBG_OPERATION_FILE, h_.cart, kCartJob, 6, h_.req_file);
    file.object = h_.file;
    file.file_offset = 4096;
    b_->add_op(file);
    mpidbg_operation_record freed = op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, h_.world, kWorldJob, 7, h_.req_freed);
    freed.hdr.flags = MPIDBG_REC_FREED;
    freed.free_serial = 9;
    freed.status = MPIDBG_OPERATION_COMPLETE;
    b_->add_op(freed);
    mpidbg_operation_record greq = op(MPIDBG_CALL_MPI_Grequest_start, MPIDBG_OPERATION_GENERALIZED, 0, 0, 8, h_.req_greq);
    greq.extra_state = 0xabc;
    greq.query_fn = 0x401234;
    b_->add_op(greq);
    mpidbg_operation_record coll = op(MPIDBG_CALL_MPI_Ibarrier, MPIDBG_OPERATION_COLLECTIVE, h_.graph, kGraphJob, 9, h_.req_coll);
    coll.peer = -1;
    b_->add_op(coll);
  }

  mpidbg_errhandler_record errhandler(uint64_t handle, uint64_t serial, const char* name,
                                      int32_t target, uint64_t function, int32_t findex) {
    mpidbg_errhandler_record e{};
    e.obj = make_head(handle, serial, name);
    e.obj.fortran_index = fidx(handle, findex);
    e.target = target;
    e.function = function;
    return e;
  }

  void build_objects() {
    mpidbg_errhandler_record fatal =
        errhandler(h_.eh_fatal, 3, "MPI_ERRORS_ARE_FATAL", MPIDBG_ERRH_ANY, 0, 1);
    fatal.obj.hdr.flags = MPIDBG_REC_PREDEFINED;
    fatal.obj.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    b_->add_errhandler(fatal);
    mpidbg_errhandler_record ret =
        errhandler(h_.eh_return, 4, "MPI_ERRORS_RETURN", MPIDBG_ERRH_ANY, 0, 2);
    ret.obj.hdr.flags = MPIDBG_REC_PREDEFINED;
    b_->add_errhandler(ret);
    mpidbg_errhandler_record user =
        errhandler(h_.eh_comm, 20, "", MPIDBG_ERRH_COMM, 0x401000, 3);
    user.obj.creator = MPIDBG_CALL_MPI_Comm_create_errhandler;
    eh_comm_slot_ = b_->add_errhandler(user);
    b_->add_errhandler(errhandler(h_.eh_win, 21, "", MPIDBG_ERRH_WIN, 0x402000, 4));
    mpidbg_errhandler_record file_eh = errhandler(h_.eh_file, 22, "", MPIDBG_ERRH_FILE, 0x403000, 5);
    file_eh.obj.hdr.flags = MPIDBG_REC_FREED;
    file_eh.obj.free_serial = 6;
    b_->add_errhandler(file_eh);

    mpidbg_window_record win{};
    win.obj = make_head(h_.win, 30, "");
    win.comm_handle = h_.cart;
    win.comm_job_id = kCartJob;
    win.errhandler = h_.eh_win;
    b_->add_window(win);
    mpidbg_window_record win_freed{};
    win_freed.obj = make_head(h_.win_freed, 31, "");
    win_freed.obj.hdr.flags = MPIDBG_REC_FREED;
    win_freed.comm_handle = h_.cart;
    win_freed.comm_job_id = kCartJob;
    win_freed.errhandler = h_.eh_win;
    b_->add_window(win_freed);
    mpidbg_file_record file{};
    file.obj = make_head(h_.file, 32, "");
    file.comm_handle = h_.cart;
    file.comm_job_id = kCartJob;
    file.errhandler = h_.eh_file;
    std::strcpy(file.filename, "/tmp/out.dat");
    b_->add_file(file);
  }

  // Status variables of the program, in this MPI's layout.
  uint64_t add_status(int source, int tag, int error, uint64_t bytes, int cancelled) {
    const mpidbg_root& r = b_->root;
    const std::vector<uint8_t> zeros(r.status_size, 0);
    const uint64_t at = b_->add_bytes(zeros.data(), zeros.size());
    target_->put32(at + r.status_source_offset, static_cast<uint32_t>(source));
    target_->put32(at + r.status_tag_offset, static_cast<uint32_t>(tag));
    target_->put32(at + r.status_error_offset, static_cast<uint32_t>(error));
    if (mpich_) {
      target_->put32(at + r.status_count_offset, static_cast<uint32_t>(bytes));
      target_->put32(at + r.status_count_offset + 4,
                     static_cast<uint32_t>(((bytes >> 32) << 1) | (cancelled & 1)));
    } else {
      if (GetParam().kind.pointer_size == 8) {
        target_->put64(at + r.status_count_offset, bytes);
      } else {
        target_->put32(at + r.status_count_offset, static_cast<uint32_t>(bytes));
      }
      target_->put32(at + r.status_cancelled_offset, static_cast<uint32_t>(cancelled));
    }
    return at;
  }

  void build() {
    build_root();
    build_comms();
    build_ops();
    build_objects();
  }

  // Re-writes the image after a change to the builder; bumps the generation.
  void recommit() {
    ++b_->root.generation;
    b_->commit();
  }

  // Large counts only where the layout holds them (a 4-byte size_t does not).
  uint64_t big_count() const {
    return !mpich_ && GetParam().kind.pointer_size == 4 ? 123456 : (uint64_t{1} << 33) + 5;
  }

  long baseline_ = 0;
  uint32_t hs_ = 4;
  bool mpich_ = true;
  Handles h_;
  std::unique_ptr<FakeTarget> target_;
  std::unique_ptr<ImageBuilder> b_;
  std::unique_ptr<HandleSession> session_;
  mpidbg_comm_record cart_{};
  uint64_t cart_slot_ = 0;
  mpidbg_operation_record send_{};
  uint64_t eh_comm_slot_ = 0;
};

std::vector<uint64_t> handles_of(const mqs_taddr_t* p, int n) {
  return p == nullptr ? std::vector<uint64_t>() : std::vector<uint64_t>(p, p + n);
}

std::vector<int> procs_of(const mpidbg_process_t* p, int n) {
  std::vector<int> out;
  for (int i = 0; p != nullptr && i < n; ++i) out.push_back(p[i].mpi_comm_world_rank);
  return out;
}

std::vector<int> ints_of(const int* p, int n) {
  return p == nullptr ? std::vector<int>() : std::vector<int>(p, p + n);
}

std::map<std::string, uint64_t> map_of(const mpidbg_name_map_t* map) {
  std::map<std::string, uint64_t> out;
  for (int i = 0; map != nullptr && map[i].map_name != nullptr && i < 1000; ++i) {
    out[map[i].map_name] = map[i].map_handle;
  }
  return out;
}

// ---- set-up and published data ----

TEST_P(HandlesV1, SetUpPublishesVersionsAndData) {
  const PluginApi& p = plugin();
  EXPECT_EQ(p.mpidbg_interface_version_compatibility(), MPIDBG_INTERFACE_VERSION);
  EXPECT_EQ(p.mpidbg_dll_taddr_width(), static_cast<int>(sizeof(mqs_taddr_t)));
  EXPECT_EQ(p.mpidbg_handle_ext_version(), MPIDBG_HANDLE_EXT_VERSION);
  ASSERT_NE(p.mpidbg_version_string(), nullptr);
  EXPECT_NE(std::string(p.mpidbg_version_string()).find("mpidbg"), std::string::npos);
  start();
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  EXPECT_EQ(*p.mpidbg_dll_is_big_endian, first == 0 ? 1 : 0);
  EXPECT_EQ(*p.mpidbg_dll_bitness, static_cast<char>(sizeof(void*) * 8));
  EXPECT_EQ(*p.mpidbg_comm_capabilities,
            MPIDBG_COMM_CAP_BASIC | MPIDBG_COMM_CAP_STRING_NAMES | MPIDBG_COMM_CAP_FREED_HANDLE |
                MPIDBG_COMM_CAP_FREED_OBJECT | MPIDBG_COMM_CAP_REQUEST_LIST |
                MPIDBG_COMM_CAP_WINDOW_LIST | MPIDBG_COMM_CAP_FILE_LIST);
  EXPECT_EQ(*p.mpidbg_errhandler_capabilities,
            MPIDBG_ERRH_CAP_BASIC | MPIDBG_ERRH_CAP_STRING_NAMES | MPIDBG_ERRH_CAP_FREED_HANDLE |
                MPIDBG_ERRH_CAP_FREED_OBJECT | MPIDBG_ERRH_CAP_HANDLE_LIST);
  // The published maps: predefined communicators and errhandlers with their nulls.
  const auto comms = map_of(*p.mpidbg_comm_name_map);
  EXPECT_EQ(comms, (std::map<std::string, uint64_t>{{"MPI_COMM_WORLD", h_.world},
                                                    {"MPI_COMM_SELF", h_.self},
                                                    {"MPI_COMM_NULL", h_.comm_null}}));
  const auto ehs = map_of(*p.mpidbg_errhandler_name_map);
  EXPECT_EQ(ehs, (std::map<std::string, uint64_t>{{"MPI_ERRORS_ARE_FATAL", h_.eh_fatal},
                                                  {"MPI_ERRORS_RETURN", h_.eh_return},
                                                  {"MPI_ERRHANDLER_NULL", h_.eh_null}}));
  session_->finish();
  // The maps are the DLL's and go with the process they describe.
  EXPECT_EQ(*p.mpidbg_comm_name_map, nullptr);
  EXPECT_EQ(*p.mpidbg_errhandler_name_map, nullptr);
}

TEST_P(HandlesV1, HandleTypesComeFromTheDebugger) {
  session_->debugger.known_types = {"MPI_Comm", "MPI_Request", "MPI_Status", "MPI::Comm"};
  // Stale contents must be overwritten, missing types NULL.
  std::memset(&session_->image_types, 0xff, sizeof session_->image_types);
  start();
  for (const mpidbg_handle_info_t* t : {&session_->image_types, &session_->process_types}) {
    EXPECT_EQ(t->hi_c_comm, session_->debugger.type_handle("MPI_Comm"));
    EXPECT_EQ(t->hi_c_request, session_->debugger.type_handle("MPI_Request"));
    EXPECT_EQ(t->hi_c_status, session_->debugger.type_handle("MPI_Status"));
    EXPECT_EQ(t->hi_cxx_comm, session_->debugger.type_handle("MPI::Comm"));
    EXPECT_NE(t->hi_c_comm, nullptr);
    EXPECT_EQ(t->hi_c_datatype, nullptr);
    EXPECT_EQ(t->hi_c_win, nullptr);
    EXPECT_EQ(t->hi_cxx_win, nullptr);
    EXPECT_EQ(t->hi_c_aint, nullptr);
  }
}

TEST_P(HandlesV1, NameMapsOfEveryKind) {
  start();
  const mpidbg_root& r = b_->root;
  const std::map<int, std::map<std::string, uint64_t>> expected = {
      {MPIDBG_HANDLE_COMM, {{"MPI_COMM_WORLD", h_.world}, {"MPI_COMM_SELF", h_.self},
                            {"MPI_COMM_NULL", h_.comm_null}}},
      {MPIDBG_HANDLE_REQUEST, {{"MPI_REQUEST_NULL", h_.request_null}}},
      {MPIDBG_HANDLE_DATATYPE, {{"MPI_DATATYPE_NULL", r.datatype_null_handle}}},
      {MPIDBG_HANDLE_GROUP, {{"MPI_GROUP_NULL", r.group_null_handle},
                             {"MPI_GROUP_EMPTY", r.group_empty_handle}}},
      {MPIDBG_HANDLE_OP, {{"MPI_OP_NULL", r.reduce_op_null_handle}}},
      {MPIDBG_HANDLE_ERRHANDLER, {{"MPI_ERRORS_ARE_FATAL", h_.eh_fatal},
                                  {"MPI_ERRORS_RETURN", h_.eh_return},
                                  {"MPI_ERRHANDLER_NULL", h_.eh_null}}},
      {MPIDBG_HANDLE_INFO, {{"MPI_INFO_NULL", r.info_null_handle}}},
      {MPIDBG_HANDLE_WIN, {{"MPI_WIN_NULL", r.win_null_handle}}},
      {MPIDBG_HANDLE_FILE, {{"MPI_FILE_NULL", r.file_null_handle}}},
      {MPIDBG_HANDLE_MESSAGE, {{"MPI_MESSAGE_NULL", r.message_null_handle},
                               {"MPI_MESSAGE_NO_PROC", r.message_no_proc_handle}}},
      {MPIDBG_HANDLE_SESSION, {}},
  };
  for (const auto& [kind, names] : expected) {
    mpidbg_name_map_t* map = nullptr;
    ASSERT_EQ(session_->name_map(kind, &map), MPIDBG_SUCCESS) << "kind " << kind;
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(map_of(map), names) << "kind " << kind;
    free_name_map(map);
  }
  mpidbg_name_map_t* map = reinterpret_cast<mpidbg_name_map_t*>(1);
  EXPECT_EQ(session_->name_map(0, &map), MPIDBG_ERR_OUT_OF_RANGE);
  EXPECT_EQ(map, nullptr);
  EXPECT_EQ(session_->name_map(MPIDBG_HANDLE_SESSION + 1, &map), MPIDBG_ERR_OUT_OF_RANGE);
  EXPECT_EQ(session_->name_map(MPIDBG_HANDLE_COMM, nullptr), MPIDBG_ERR_OUT_OF_RANGE);
}

// ---- communicators ----

TEST_P(HandlesV1, WorldCommunicator) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.world, &c), MPIDBG_SUCCESS);
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(c->comm_name, "MPI_COMM_WORLD");  // unnamed in its record: named by the root
  EXPECT_EQ(c->comm_bitflags, MPIDBG_COMM_INFO_PREDEFINED);
  EXPECT_EQ(c->comm_rank, 1);
  EXPECT_EQ(c->comm_size, 4);
  EXPECT_EQ(procs_of(c->comm_local_procs, c->comm_num_local_procs), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(c->comm_num_remote_procs, 0);
  EXPECT_EQ(c->comm_remote_procs, nullptr);
  EXPECT_EQ(c->comm_cart_num_dims, 0);
  EXPECT_EQ(c->comm_cart_dims, nullptr);
  EXPECT_EQ(c->comm_cart_periods, nullptr);
  EXPECT_EQ(c->comm_graph_num_nodes, 0);
  EXPECT_EQ(c->comm_graph_index, nullptr);
  EXPECT_EQ(c->comm_graph_edges, nullptr);
  EXPECT_EQ(c->comm_c_handle, h_.world);
  EXPECT_EQ(c->comm_fortran_handle, fidx(h_.world, 0));
  EXPECT_EQ(c->comm_num_attrs, 0);
  EXPECT_EQ(c->comm_attrs, nullptr);
  // A request the application freed is still pending on its communicator.
  EXPECT_EQ(handles_of(c->comm_pending_requests, c->comm_num_pending_requests),
            (std::vector<uint64_t>{h_.req_freed}));
  EXPECT_EQ(c->comm_num_derived_windows, 0);
  EXPECT_EQ(c->comm_derived_windows, nullptr);
  EXPECT_EQ(c->comm_num_derived_files, 0);
  EXPECT_EQ(c->comm_derived_files, nullptr);
  free_comm_info(c);
  ASSERT_EQ(session_->comm(h_.self, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "MPI_COMM_SELF");
  EXPECT_EQ(c->comm_fortran_handle, fidx(h_.self, 1));
  EXPECT_EQ(procs_of(c->comm_local_procs, c->comm_num_local_procs), (std::vector<int>{1}));
  free_comm_info(c);
}

TEST_P(HandlesV1, CartesianCommunicator) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.cart, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "grid");
  EXPECT_EQ(c->comm_bitflags, MPIDBG_COMM_INFO_CARTESIAN | MPIDBG_COMM_INFO_TOPO_REORDERED);
  EXPECT_EQ(c->comm_rank, 2);
  EXPECT_EQ(c->comm_size, 4);
  EXPECT_EQ(procs_of(c->comm_local_procs, c->comm_num_local_procs), (std::vector<int>{3, 0, 1, 2}));
  ASSERT_EQ(c->comm_cart_num_dims, 2);
  EXPECT_EQ(ints_of(c->comm_cart_dims, 2), (std::vector<int>{2, 2}));
  ASSERT_NE(c->comm_cart_periods, nullptr);
  EXPECT_EQ(c->comm_cart_periods[0], 1);
  EXPECT_EQ(c->comm_cart_periods[1], 0);
  EXPECT_EQ(c->comm_graph_num_nodes, 0);
  EXPECT_EQ(c->comm_c_handle, h_.cart);
  EXPECT_EQ(c->comm_fortran_handle, fidx(h_.cart, 5));
  if (mpich_) {
    EXPECT_LT(c->comm_fortran_handle, 0);  // MPICH's handles are negative ints
  }
  ASSERT_EQ(c->comm_num_attrs, 2);
  EXPECT_EQ(c->comm_attrs[0].keyval, 77);
  EXPECT_EQ(c->comm_attrs[0].keyval_name, nullptr);  // a user keyval
  EXPECT_STREQ(c->comm_attrs[0].value, "0x1234");
  EXPECT_EQ(c->comm_attrs[1].keyval, tag_ub_keyval(mpich_));
  EXPECT_STREQ(c->comm_attrs[1].keyval_name, "MPI_TAG_UB");
  EXPECT_STREQ(c->comm_attrs[1].value, "0x7fff");
  // Not the inactive persistent request, not the blocking call; RMA and file I/O
  // requests on the communicator count, in posting order.
  EXPECT_EQ(handles_of(c->comm_pending_requests, c->comm_num_pending_requests),
            (std::vector<uint64_t>{h_.req_send, h_.req_matched, h_.req_rma, h_.req_file}));
  EXPECT_EQ(handles_of(c->comm_derived_windows, c->comm_num_derived_windows),
            (std::vector<uint64_t>{h_.win}));  // not the freed one
  EXPECT_EQ(handles_of(c->comm_derived_files, c->comm_num_derived_files),
            (std::vector<uint64_t>{h_.file}));
  free_comm_info(c);
}

TEST_P(HandlesV1, GraphCommunicator) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.graph, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "net");
  EXPECT_EQ(c->comm_bitflags, MPIDBG_COMM_INFO_GRAPH);  // reorder 0
  ASSERT_EQ(c->comm_graph_num_nodes, 3);
  EXPECT_EQ(ints_of(c->comm_graph_index, 3), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(ints_of(c->comm_graph_edges, 4), (std::vector<int>{1, 2, 0, 0}));
  EXPECT_EQ(c->comm_cart_num_dims, 0);
  EXPECT_EQ(c->comm_cart_dims, nullptr);
  EXPECT_EQ(handles_of(c->comm_pending_requests, c->comm_num_pending_requests),
            (std::vector<uint64_t>{h_.req_coll}));
  free_comm_info(c);
}

TEST_P(HandlesV1, DistributedGraphCommunicator) {
  start();
  mpidbg_comm_ext_info_t* c = nullptr;
  ASSERT_EQ(session_->comm_ext(h_.dist, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c->base.comm_bitflags, MPIDBG_COMM_INFO_DIST_GRAPH | MPIDBG_COMM_INFO_TOPO_REORDERED);
  EXPECT_STREQ(c->base.comm_name, "");  // unnamed, not predefined
  EXPECT_EQ(c->base.comm_graph_num_nodes, 0);
  EXPECT_EQ(c->dist_num_sources, 2);
  EXPECT_EQ(ints_of(c->dist_sources, c->dist_num_sources), (std::vector<int>{0, 3}));
  EXPECT_EQ(c->dist_num_destinations, 1);
  EXPECT_EQ(ints_of(c->dist_destinations, c->dist_num_destinations), (std::vector<int>{2}));
  EXPECT_EQ(c->dist_weighted, 1);
  EXPECT_EQ(c->creator, MPIDBG_CALL_MPI_Dist_graph_create_adjacent);
  EXPECT_STREQ(c->creator_name, "MPI_Dist_graph_create_adjacent");
  free_comm_ext_info(c);
}

TEST_P(HandlesV1, Intercommunicator) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.inter, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "bridge");
  EXPECT_EQ(c->comm_bitflags, MPIDBG_COMM_INFO_INTERCOMM);
  EXPECT_EQ(c->comm_rank, 0);
  EXPECT_EQ(c->comm_size, 2);
  EXPECT_EQ(procs_of(c->comm_local_procs, c->comm_num_local_procs), (std::vector<int>{1, 3}));
  EXPECT_EQ(procs_of(c->comm_remote_procs, c->comm_num_remote_procs), (std::vector<int>{0, 2}));
  free_comm_info(c);
}

TEST_P(HandlesV1, CommunicatorExtension) {
  start();
  mpidbg_comm_ext_info_t* c = nullptr;
  ASSERT_EQ(session_->comm_ext(h_.cart, &c), MPIDBG_SUCCESS);
  // The base is the version-1 answer.
  EXPECT_STREQ(c->base.comm_name, "grid");
  EXPECT_EQ(c->base.comm_cart_num_dims, 2);
  EXPECT_EQ(c->base.comm_num_attrs, 2);
  EXPECT_EQ(c->base.comm_num_pending_requests, 4);
  EXPECT_EQ(c->job_id, kCartJob);
  EXPECT_EQ(c->parent_job_id, kWorldJob);
  EXPECT_EQ(c->creator, MPIDBG_CALL_MPI_Cart_create);
  EXPECT_STREQ(c->creator_name, "MPI_Cart_create");
  EXPECT_EQ(c->split_color, 7);
  EXPECT_EQ(c->split_key, -3);
  EXPECT_EQ(c->errhandler, h_.eh_comm);
  EXPECT_EQ(c->info, h_.info);
  EXPECT_EQ(c->dist_num_sources, 0);
  EXPECT_EQ(c->dist_sources, nullptr);
  EXPECT_EQ(c->dist_num_destinations, 0);
  EXPECT_EQ(c->dist_destinations, nullptr);
  EXPECT_EQ(c->dist_weighted, 0);
  EXPECT_EQ(c->create_time_ns, 1700000000000000123);
  EXPECT_EQ(c->create_serial, 10u);
  EXPECT_EQ(c->free_serial, 0u);
  free_comm_ext_info(c);
}

TEST_P(HandlesV1, FreedCommunicatorsAnswerFromTheirOrphans) {
  start();
  mpidbg_comm_ext_info_t* c = nullptr;
  ASSERT_EQ(session_->comm_ext(h_.twice_freed, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->base.comm_name, "freed last");
  EXPECT_EQ(c->base.comm_bitflags, MPIDBG_COMM_INFO_FREED_HANDLE);
  EXPECT_EQ(c->free_serial, 5u);
  free_comm_ext_info(c);
  ASSERT_EQ(session_->comm_ext(h_.reused, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->base.comm_name, "new");
  EXPECT_EQ(c->base.comm_bitflags, 0);
  free_comm_ext_info(c);
  ASSERT_EQ(session_->comm_ext(h_.released, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->base.comm_name, "gone");
  EXPECT_EQ(c->base.comm_bitflags,
            MPIDBG_COMM_INFO_FREED_HANDLE | MPIDBG_COMM_INFO_FREED_OBJECT);
  free_comm_ext_info(c);
}

TEST_P(HandlesV1, NullUnknownAndWidenedCommHandles) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.comm_null, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "MPI_COMM_NULL");
  EXPECT_EQ(c->comm_bitflags, MPIDBG_COMM_INFO_COMM_NULL);
  EXPECT_EQ(c->comm_size, 0);
  EXPECT_EQ(c->comm_c_handle, h_.comm_null);
  EXPECT_EQ(c->comm_fortran_handle,
            mpich_ ? static_cast<int>(h_.comm_null) : MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(c->comm_local_procs, nullptr);
  free_comm_info(c);
  mpidbg_comm_ext_info_t* e = nullptr;
  ASSERT_EQ(session_->comm_ext(h_.comm_null, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->base.comm_bitflags, MPIDBG_COMM_INFO_COMM_NULL);
  EXPECT_EQ(e->job_id, 0u);
  free_comm_ext_info(e);

  c = reinterpret_cast<mpidbg_comm_info_t*>(1);
  EXPECT_EQ(session_->comm(h_.cart + 0x1000000, &c), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(c, nullptr);
  EXPECT_EQ(session_->comm(h_.cart, nullptr), MPIDBG_ERR_OUT_OF_RANGE);
  if (hs_ == 4) {
    // A debugger may widen an int handle with its sign: the low 4 bytes decide.
    ASSERT_EQ(session_->comm(h_.cart | 0xffffffff00000000ull, &c), MPIDBG_SUCCESS);
    EXPECT_STREQ(c->comm_name, "grid");
    free_comm_info(c);
  }
  mqs_taddr_t out = 0;
  EXPECT_EQ(plugin().mpidbg_comm_cxx2c(session_->image(), nullptr, session_->process(), nullptr,
                                       h_.cart, MPIDBG_COMM_INFO_CARTESIAN, &out),
            MPIDBG_ERR_NOT_SUPPORTED);
}

TEST_P(HandlesV1, CommFortranToC) {
  start();
  mqs_taddr_t c = 0;
  ASSERT_EQ(session_->comm_f2c(static_cast<uint32_t>(fidx(h_.cart, 5)), &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h_.cart);
  ASSERT_EQ(session_->comm_f2c(static_cast<uint32_t>(fidx(h_.world, 0)), &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h_.world);
  if (mpich_) {
    // The Fortran value is the C value: the null handle converts too.
    ASSERT_EQ(session_->comm_f2c(h_.comm_null, &c), MPIDBG_SUCCESS);
    EXPECT_EQ(c, h_.comm_null);
  }
  EXPECT_EQ(session_->comm_f2c(4711, &c), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(session_->comm_f2c(5, nullptr), MPIDBG_ERR_OUT_OF_RANGE);
}

// ---- requests ----

TEST_P(HandlesV1, RequestVersionOne) {
  start();
  mpidbg_request_info_t* r = nullptr;
  ASSERT_EQ(session_->request(h_.req_send, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_bitflags, 0);
  EXPECT_EQ(r->req_c_handle, h_.req_send);
  EXPECT_EQ(r->req_fortran_handle,
            mpich_ ? static_cast<int>(static_cast<uint32_t>(h_.req_send)) : MPIDBG_ERR_UNAVAILABLE);
  debugger_free(r);
  ASSERT_EQ(session_->request(h_.request_null, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_bitflags, MPIDBG_REQUEST_INFO_PREDEFINED);
  EXPECT_EQ(r->req_c_handle, h_.request_null);
  debugger_free(r);
  EXPECT_EQ(session_->request(0x1234, &r), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(session_->request(0, &r), MPIDBG_ERR_NOT_FOUND);  // blocking calls have no request
  mqs_taddr_t out = 0;
  EXPECT_EQ(plugin().mpidbg_request_cxx2c(session_->image(), nullptr, session_->process(), nullptr,
                                          h_.req_send, MPIDBG_REQUEST_INFO_PREDEFINED, &out),
            MPIDBG_ERR_NOT_SUPPORTED);
}

TEST_P(HandlesV1, RequestExtensionEveryField) {
  start();
  mpidbg_request_ext_info_t* r = nullptr;
  ASSERT_EQ(session_->request_ext(h_.req_send, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->base.req_bitflags, 0);
  EXPECT_EQ(r->base.req_c_handle, h_.req_send);
  EXPECT_EQ(r->req_ext_bitflags, 0u);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_POINT_TO_POINT);
  EXPECT_EQ(r->req_creator, MPIDBG_CALL_MPI_Isend);
  EXPECT_STREQ(r->req_creator_name, "MPI_Isend");
  EXPECT_EQ(r->req_direction, MPIDBG_OPERATION_SEND);
  EXPECT_EQ(r->req_mode, MPIDBG_MODE_STANDARD);
  EXPECT_EQ(r->req_peer, 3);
  EXPECT_EQ(r->req_peer_world, 2);
  EXPECT_EQ(r->req_tag, 5);
  EXPECT_EQ(r->req_actual_source, -1);
  EXPECT_EQ(r->req_actual_tag, -1);
  EXPECT_EQ(r->req_count, 10);
  EXPECT_EQ(r->req_bytes, 40);
  EXPECT_EQ(r->req_actual_bytes, 0);
  EXPECT_EQ(r->req_buffer, 0x5000u);
  EXPECT_EQ(r->req_datatype, send_.datatype);
  EXPECT_STREQ(r->req_datatype_name, "MPI_INT");
  EXPECT_EQ(r->req_comm, h_.cart);
  EXPECT_EQ(r->req_comm_job_id, kCartJob);
  EXPECT_STREQ(r->req_comm_name, "grid");
  EXPECT_EQ(r->req_object, 0u);
  EXPECT_EQ(r->req_file_offset, -1);
  EXPECT_EQ(r->req_target_disp, 0);
  EXPECT_EQ(r->req_extra_state, 0u);
  EXPECT_EQ(r->req_query_fn, 0u);
  EXPECT_EQ(r->req_tid, 4242u);
  EXPECT_EQ(r->req_post_time_ns, 1700000000000000456);
  EXPECT_EQ(r->req_post_serial, 1u);
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_persist, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_ext_bitflags, MPIDBG_REQUEST_PERSISTENT | MPIDBG_REQUEST_INACTIVE);
  EXPECT_EQ(r->req_direction, MPIDBG_OPERATION_RECV);
  EXPECT_EQ(r->req_mode, MPIDBG_MODE_NONE);
  EXPECT_EQ(r->req_peer, MPIDBG_RANK_ANY_SOURCE);
  EXPECT_EQ(r->req_tag, MPIDBG_TAG_ANY);
  EXPECT_STREQ(r->req_creator_name, "MPI_Recv_init");
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_matched, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_ext_bitflags, MPIDBG_REQUEST_MATCHED);
  EXPECT_EQ(r->req_actual_source, 1);
  EXPECT_EQ(r->req_actual_tag, 8);
  EXPECT_EQ(r->req_actual_bytes, 16);
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_freed, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_ext_bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_REQUEST_COMPLETE);
  EXPECT_STREQ(r->req_comm_name, "MPI_COMM_WORLD");
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_rma, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_RMA);
  EXPECT_EQ(r->req_object, h_.win);
  EXPECT_EQ(r->req_target_disp, 64);
  EXPECT_STREQ(r->req_creator_name, "MPI_Rput");
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_file, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_FILE);
  EXPECT_EQ(r->req_object, h_.file);
  EXPECT_EQ(r->req_file_offset, 4096);
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_greq, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_GENERALIZED);
  EXPECT_EQ(r->req_extra_state, 0xabcu);
  EXPECT_EQ(r->req_query_fn, 0x401234u);
  EXPECT_STREQ(r->req_comm_name, "");
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.req_coll, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->req_kind, MPIDBG_REQUEST_KIND_COLLECTIVE);
  EXPECT_EQ(r->req_peer, -1);
  EXPECT_STREQ(r->req_comm_name, "net");
  debugger_free(r);

  ASSERT_EQ(session_->request_ext(h_.request_null, &r), MPIDBG_SUCCESS);
  EXPECT_EQ(r->base.req_bitflags, MPIDBG_REQUEST_INFO_PREDEFINED);
  EXPECT_EQ(r->req_ext_bitflags, MPIDBG_HANDLE_PREDEFINED | MPIDBG_HANDLE_NULL);
  debugger_free(r);
}

TEST_P(HandlesV1, RequestFortranToC) {
  start();
  mqs_taddr_t c = 0;
  const int rc = session_->request_f2c(static_cast<uint32_t>(h_.req_send), &c);
  if (mpich_) {
    ASSERT_EQ(rc, MPIDBG_SUCCESS);
    EXPECT_EQ(c, h_.req_send);
    ASSERT_EQ(session_->request_f2c(h_.request_null, &c), MPIDBG_SUCCESS);
    EXPECT_EQ(c, h_.request_null);
    EXPECT_EQ(session_->request_f2c(0x1234, &c), MPIDBG_ERR_NOT_FOUND);
  } else {
    EXPECT_EQ(rc, MPIDBG_ERR_NOT_FOUND);  // no Fortran index is recorded
  }
}

// ---- statuses ----

TEST_P(HandlesV1, StatusContents) {
  const uint64_t plain = add_status(2, 99, 0, 777, 0);
  const uint64_t big = add_status(3, 1234567, 15, big_count(), 1);
  b_->commit();
  start();
  mpidbg_status_info_t* s = nullptr;
  ASSERT_EQ(session_->status(plain, &s), MPIDBG_SUCCESS);
  EXPECT_EQ(s->status_bitflags, 0);
  debugger_free(s);
  mpidbg_status_ext_info_t* e = nullptr;
  ASSERT_EQ(session_->status_ext(plain, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->base.status_bitflags, 0);
  EXPECT_EQ(e->status_source, 2);
  EXPECT_EQ(e->status_tag, 99);
  EXPECT_EQ(e->status_error, 0);
  EXPECT_EQ(e->status_cancelled, 0);
  EXPECT_EQ(e->status_bytes, 777);
  debugger_free(e);
  ASSERT_EQ(session_->status_ext(big, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->status_source, 3);
  EXPECT_EQ(e->status_tag, 1234567);
  EXPECT_EQ(e->status_error, 15);
  EXPECT_EQ(e->status_cancelled, 1);
  EXPECT_EQ(e->status_bytes, static_cast<int64_t>(big_count()));
  debugger_free(e);
  mqs_taddr_t out = 0;
  EXPECT_EQ(plugin().mpidbg_status_f2c(session_->image(), nullptr, session_->process(), nullptr,
                                       plain, &out),
            MPIDBG_ERR_NOT_SUPPORTED);
  EXPECT_EQ(plugin().mpidbg_status_cxx2c(session_->image(), nullptr, session_->process(), nullptr,
                                         plain, &out),
            MPIDBG_ERR_NOT_SUPPORTED);
}

TEST_P(HandlesV1, StatusWithoutLayoutOrMemory) {
  const uint64_t plain = add_status(2, 99, 0, 777, 1);
  b_->commit();
  start();
  mpidbg_status_ext_info_t* e = nullptr;
  EXPECT_EQ(session_->status_ext(0xdead0000, &e), MPIDBG_ERR_UNAVAILABLE);  // unmapped
  EXPECT_EQ(e, nullptr);
  EXPECT_EQ(session_->status_ext(0, &e), MPIDBG_ERR_NOT_FOUND);
  // A count encoding this plugin does not know: the rest still decodes.
  b_->root.status_count_encoding = 77;
  recommit();
  ASSERT_EQ(session_->status_ext(plain, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->status_source, 2);
  EXPECT_EQ(e->status_bytes, -1);
  EXPECT_EQ(e->status_cancelled, -1);
  debugger_free(e);
  // An offset outside the status: damaged.
  b_->root.status_tag_offset = 400;
  recommit();
  EXPECT_EQ(session_->status_ext(plain, &e), MPIDBG_ERR_UNAVAILABLE);
  // An implausible size, or none (an older runtime).
  b_->root.status_size = 100000;
  recommit();
  EXPECT_EQ(session_->status_ext(plain, &e), MPIDBG_ERR_UNAVAILABLE);
  b_->root.status_size = 0;
  recommit();
  mpidbg_status_info_t* s = nullptr;
  EXPECT_EQ(session_->status(plain, &s), MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(s, nullptr);
}

// ---- error handlers ----

TEST_P(HandlesV1, Errhandlers) {
  start();
  mpidbg_errhandler_info_t* e = nullptr;
  ASSERT_EQ(session_->errhandler(h_.eh_fatal, &e), MPIDBG_SUCCESS);
  EXPECT_STREQ(e->eh_name, "MPI_ERRORS_ARE_FATAL");
  EXPECT_EQ(e->eh_bitflags, MPIDBG_ERRH_INFO_PREDEFINED | MPIDBG_ERRH_INFO_COMMUNICATOR |
                                MPIDBG_ERRH_INFO_FILE | MPIDBG_ERRH_INFO_WINDOW);
  EXPECT_EQ(e->eh_c_handle, h_.eh_fatal);
  EXPECT_EQ(e->eh_fortran_handle, fidx(h_.eh_fatal, 1));
  EXPECT_EQ(e->eh_refcount, 2);
  EXPECT_EQ(handles_of(e->eh_handles, e->eh_refcount), (std::vector<uint64_t>{h_.world, h_.inter}));
  EXPECT_EQ(e->eh_callback_func, 0u);
  free_errhandler_info(e);

  ASSERT_EQ(session_->errhandler(h_.eh_comm, &e), MPIDBG_SUCCESS);
  EXPECT_STREQ(e->eh_name, "");
  EXPECT_EQ(e->eh_bitflags, MPIDBG_ERRH_INFO_COMMUNICATOR | MPIDBG_ERRH_INFO_C_CALLBACK);
  EXPECT_EQ(e->eh_fortran_handle, fidx(h_.eh_comm, 3));
  // Not the freed communicator it was also attached to.
  EXPECT_EQ(handles_of(e->eh_handles, e->eh_refcount), (std::vector<uint64_t>{h_.cart, h_.graph}));
  EXPECT_EQ(e->eh_callback_func, 0x401000u);
  free_errhandler_info(e);

  ASSERT_EQ(session_->errhandler(h_.eh_win, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->eh_bitflags, MPIDBG_ERRH_INFO_WINDOW | MPIDBG_ERRH_INFO_C_CALLBACK);
  EXPECT_EQ(handles_of(e->eh_handles, e->eh_refcount), (std::vector<uint64_t>{h_.win}));
  free_errhandler_info(e);

  ASSERT_EQ(session_->errhandler(h_.eh_file, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->eh_bitflags, MPIDBG_ERRH_INFO_FILE | MPIDBG_ERRH_INFO_C_CALLBACK |
                                MPIDBG_ERRH_INFO_FREED_HANDLE);
  EXPECT_EQ(handles_of(e->eh_handles, e->eh_refcount), (std::vector<uint64_t>{h_.file}));
  EXPECT_EQ(e->eh_callback_func, 0x403000u);
  free_errhandler_info(e);

  ASSERT_EQ(session_->errhandler(h_.eh_return, &e), MPIDBG_SUCCESS);
  EXPECT_STREQ(e->eh_name, "MPI_ERRORS_RETURN");
  EXPECT_EQ(handles_of(e->eh_handles, e->eh_refcount), (std::vector<uint64_t>{h_.self}));
  free_errhandler_info(e);

  ASSERT_EQ(session_->errhandler(h_.eh_null, &e), MPIDBG_SUCCESS);
  EXPECT_STREQ(e->eh_name, "MPI_ERRHANDLER_NULL");
  EXPECT_EQ(static_cast<unsigned>(e->eh_bitflags), MPIDBG_HANDLE_NULL);
  EXPECT_EQ(e->eh_refcount, 0);
  EXPECT_EQ(e->eh_handles, nullptr);
  free_errhandler_info(e);

  EXPECT_EQ(session_->errhandler(h_.cart, &e), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(e, nullptr);

  mqs_taddr_t c = 0;
  ASSERT_EQ(session_->errhandler_f2c(static_cast<uint32_t>(fidx(h_.eh_win, 4)), &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h_.eh_win);
  EXPECT_EQ(session_->errhandler_f2c(4711, &c), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(plugin().mpidbg_errhandler_cxx2c(session_->image(), nullptr, session_->process(),
                                             nullptr, h_.eh_win, &c),
            MPIDBG_ERR_NOT_SUPPORTED);
}

TEST_P(HandlesV1, ErrhandlerRefcountStopsAtInt16Max) {
  // 40000 communicators with one errhandler: the count and the array stop together.
  ImageBuilder::Options big;
  big.slab_capacity = 4096;
  target_ = std::make_unique<FakeTarget>(GetParam().kind.pointer_size, GetParam().kind.big_endian);
  b_ = std::make_unique<ImageBuilder>(target_.get(), 0x10000, big);
  build_root();
  mpidbg_errhandler_record eh = errhandler(h_.eh_comm, 1, "", MPIDBG_ERRH_COMM, 0x401000, 3);
  b_->add_errhandler(eh);
  const uint64_t ranks = b_->add_int32_array({1});
  for (uint64_t i = 0; i < 40000; ++i) {
    mpidbg_comm_record c = make_comm(0x100000 + i, 0x5000 + i, 0, 1, ranks, 10 + i, "");
    c.errhandler = h_.eh_comm;
    b_->add_comm(c);
  }
  b_->commit();
  session_ = std::make_unique<HandleSession>(target_.get());
  start();
  mpidbg_errhandler_info_t* e = nullptr;
  ASSERT_EQ(session_->errhandler(h_.eh_comm, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->eh_refcount, INT16_MAX);
  ASSERT_NE(e->eh_handles, nullptr);
  EXPECT_EQ(e->eh_handles[INT16_MAX - 1], 0x100000u + INT16_MAX - 1);
  free_errhandler_info(e);
}

// ---- process states, caching, damage ----

TEST_P(HandlesV1, BeforeMpiInitEverythingIsUnavailable) {
  b_->root.process_state = MPIDBG_PROCESS_BEFORE_INIT;
  b_->commit();
  start();  // set-up succeeds: the runtime is there
  const PluginApi& p = plugin();
  EXPECT_EQ(map_of(*p.mpidbg_comm_name_map).size(), 0u);  // empty, not missing
  ASSERT_NE(*p.mpidbg_comm_name_map, nullptr);
  mpidbg_comm_info_t* c = nullptr;
  EXPECT_EQ(session_->comm(h_.world, &c), MPIDBG_ERR_UNAVAILABLE);
  mpidbg_request_info_t* r = nullptr;
  EXPECT_EQ(session_->request(h_.req_send, &r), MPIDBG_ERR_UNAVAILABLE);
  mpidbg_errhandler_info_t* e = nullptr;
  EXPECT_EQ(session_->errhandler(h_.eh_fatal, &e), MPIDBG_ERR_UNAVAILABLE);
  mpidbg_name_map_t* map = nullptr;
  EXPECT_EQ(session_->name_map(MPIDBG_HANDLE_COMM, &map), MPIDBG_ERR_UNAVAILABLE);
  // MPI_Init returns: the same session answers.
  b_->root.process_state = MPIDBG_PROCESS_RUNNING;
  recommit();
  ASSERT_EQ(session_->comm(h_.world, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
}

TEST_P(HandlesV1, UnreadableRootIsUnavailable) {
  start();
  // The root's magic destroyed under a live session.
  target_->put64(b_->root_addr(), 0x1122334455667788ull);
  mpidbg_comm_info_t* c = nullptr;
  EXPECT_EQ(session_->comm(h_.world, &c), MPIDBG_ERR_UNAVAILABLE);
  mpidbg_errhandler_info_t* e = nullptr;
  EXPECT_EQ(session_->errhandler(h_.eh_fatal, &e), MPIDBG_ERR_UNAVAILABLE);
}

TEST_P(HandlesV1, CacheFollowsTheGeneration) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.cart, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
  // The same generation: one small read of the root, then the query's side arrays.
  const uint64_t reads_before = target_->reads;
  const uint64_t bytes_before = target_->bytes_read;
  ASSERT_EQ(session_->comm(h_.cart, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
  EXPECT_LE(target_->reads - reads_before, 5u);
  EXPECT_LE(target_->bytes_read - bytes_before, 256u);
  // A change the runtime has not announced is not seen...
  mpidbg_comm_record renamed = cart_;
  std::strcpy(renamed.name, "renamed");
  b_->update_comm(cart_slot_, renamed);
  b_->commit();
  ASSERT_EQ(session_->comm(h_.cart, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "grid");
  free_comm_info(c);
  mpidbg_errhandler_record eh{};
  eh.obj = make_head(h_.eh_comm, 20, "");
  eh.target = MPIDBG_ERRH_COMM;
  eh.function = 0x999000;
  b_->update_errhandler(eh_comm_slot_, eh);
  b_->commit();
  mpidbg_errhandler_info_t* e = nullptr;
  ASSERT_EQ(session_->errhandler(h_.eh_comm, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->eh_callback_func, 0x401000u);
  free_errhandler_info(e);
  // ...until the generation moves.
  recommit();
  ASSERT_EQ(session_->comm(h_.cart, &c), MPIDBG_SUCCESS);
  EXPECT_STREQ(c->comm_name, "renamed");
  free_comm_info(c);
  ASSERT_EQ(session_->errhandler(h_.eh_comm, &e), MPIDBG_SUCCESS);
  EXPECT_EQ(e->eh_callback_func, 0x999000u);
  free_errhandler_info(e);
}

TEST_P(HandlesV1, DamagedRecordsGiveCodes) {
  start();
  mpidbg_comm_info_t* c = nullptr;
  auto damage_cart = [&](auto change) {
    mpidbg_comm_record bad = cart_;
    change(&bad);
    b_->update_comm(cart_slot_, bad);
    recommit();
    c = reinterpret_cast<mpidbg_comm_info_t*>(1);
    const int rc = session_->comm(h_.cart, &c);
    if (rc != MPIDBG_SUCCESS) {
      EXPECT_EQ(c, nullptr);
    } else {
      free_comm_info(c);
    }
    return rc;
  };
  // A huge element count, a wrong element size, counts that do not add up.
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->topo_args.count = 0x7fffffff; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->topo_args.elem_size = 8; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->topo_args.count = 5; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->topo_args.address = 0xdead0000; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->attributes.count = 3; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->attributes.elem_size = 4; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->world_ranks = 0xdead0000; }),
            MPIDBG_ERR_UNAVAILABLE);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->size = -5; }), MPIDBG_SUCCESS);
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->size = 0x7fffffff; }),
            MPIDBG_ERR_UNAVAILABLE);
  // A record forever mid-update is skipped: its handle is unknown.
  EXPECT_EQ(damage_cart([](mpidbg_comm_record* r) { r->hdr.seq = 3; }), MPIDBG_ERR_NOT_FOUND);
  // The other communicators still answer.
  ASSERT_EQ(session_->comm(h_.world, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
  // A broken object table: errhandlers are lost, communicators stay.
  const std::vector<uint64_t> slabs = b_->slabs(MPIDBG_KIND_ERRHANDLER);
  ASSERT_FALSE(slabs.empty());
  target_->put64(slabs[0], 0);  // slab magic
  ++b_->root.generation;
  ImageBuilder::encode_root(target_.get(), b_->root_addr(), b_->root);
  mpidbg_errhandler_info_t* e = nullptr;
  EXPECT_EQ(session_->errhandler(h_.eh_fatal, &e), MPIDBG_ERR_NOT_FOUND);
  ASSERT_EQ(session_->comm(h_.world, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
}

TEST_P(HandlesV1, AllocationFailuresFreeWhatWasAllocated) {
  start();
  // Every allocation of a query in turn fails: the answer is NO_MEM (or a success once
  // enough succeed), never a leak or a crash.
  bool succeeded = false;
  int failures = 0;
  for (long n = 0; n < 200 && !succeeded; ++n) {
    // Drop the caches so the decodes are part of the query.
    b_->root.generation += 2;
    ImageBuilder::encode_root(target_.get(), b_->root_addr(), b_->root);
    const long before = FakeDebugger::live_allocations();
    FakeDebugger::fail_allocations_after(n);
    mpidbg_comm_ext_info_t* c = nullptr;
    const int rc = session_->comm_ext(h_.cart, &c);
    FakeDebugger::fail_allocations_after(-1);
    if (rc == MPIDBG_SUCCESS) {
      succeeded = true;
      EXPECT_EQ(c->base.comm_num_attrs, 2);
      free_comm_ext_info(c);
    } else {
      ++failures;
      EXPECT_EQ(rc, MPIDBG_ERR_NO_MEM) << "after " << n << " allocations";
      EXPECT_EQ(c, nullptr);
      // Only caches may stay (a fresh decode replaced or not), no result member.
      EXPECT_LE(FakeDebugger::live_allocations(), before + 40) << n;
    }
  }
  EXPECT_TRUE(succeeded);
  // The decodes and the result's members each failed in turn.
  EXPECT_GT(failures, 15);
  for (long n = 0; n < 40; ++n) {
    FakeDebugger::fail_allocations_after(n);
    mpidbg_errhandler_info_t* e = nullptr;
    const int rc = session_->errhandler(h_.eh_comm, &e);
    FakeDebugger::fail_allocations_after(-1);
    if (rc == MPIDBG_SUCCESS) {
      free_errhandler_info(e);
    } else {
      EXPECT_EQ(rc, MPIDBG_ERR_NO_MEM);
    }
    mpidbg_name_map_t* map = nullptr;
    FakeDebugger::fail_allocations_after(n);
    const int map_rc = session_->name_map(MPIDBG_HANDLE_COMM, &map);
    FakeDebugger::fail_allocations_after(-1);
    if (map_rc == MPIDBG_SUCCESS) {
      free_name_map(map);
    } else {
      EXPECT_EQ(map_rc, MPIDBG_ERR_NO_MEM);
    }
  }
  // TearDown checks that everything came back.
}

TEST_P(HandlesV1, SetUpUnderAllocationFailures) {
  // Set-up fails cleanly wherever the debugger's memory runs out, and a later set-up of
  // the same process works.
  int failures = 0;
  for (long n = 0; n < 100; ++n) {
    HandleSession s(target_.get());
    FakeDebugger::fail_allocations_after(n);
    const int rc = s.start();
    FakeDebugger::fail_allocations_after(-1);
    if (rc == MPIDBG_SUCCESS) break;
    ++failures;
    EXPECT_EQ(rc, MPIDBG_ERR_NO_MEM) << "after " << n << " allocations";
  }
  EXPECT_GT(failures, 3);
  start();
  mpidbg_comm_info_t* c = nullptr;
  ASSERT_EQ(session_->comm(h_.world, &c), MPIDBG_SUCCESS);
  free_comm_info(c);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, HandlesV1, all_kinds_and_handles(), kind_name);

// ---- set-up without a runtime, and the infos shared with the message-queue side ----

TEST(HandlesSetUp, ImageWithoutRuntimeIsNotSupported) {
  const long baseline = FakeDebugger::live_allocations();
  FakeTarget target(8, false);
  {
    HandleSession s(&target);
    EXPECT_EQ(s.start(), MPIDBG_ERR_NOT_SUPPORTED);
    EXPECT_FALSE(s.image_up);
    // Queries of a process never set up.
    mpidbg_comm_info_t* c = nullptr;
    EXPECT_EQ(s.comm(0x44000000, &c), MPIDBG_ERR_NOT_SUPPORTED);
  }
  EXPECT_EQ(FakeDebugger::live_allocations(), baseline);
}

// Builds a small runtime image (world and one pending send).
std::unique_ptr<ImageBuilder> small_image(FakeTarget* target) {
  auto b = std::make_unique<ImageBuilder>(target, 0x10000);
  b->root.process_state = MPIDBG_PROCESS_RUNNING;
  b->root.flavour = MPIDBG_FLAVOUR_MPICH;
  b->root.comm_world_handle = 0x44000000;
  b->root.comm_null_handle = 0x04000000;
  mpidbg_comm_record world =
      make_comm(0x44000000, 0x1000, 0, 2, b->add_int32_array({0, 1}), 1, "");
  world.hdr.flags = MPIDBG_REC_PREDEFINED;
  b->add_comm(world);
  mpidbg_operation_record send = make_op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, 0x44000000, 0x1000, 1, 1, 1, 0);
  send.request = 0xac000001;
  b->add_op(send);
  b->commit();
  return b;
}

int walk_communicators(mqs_process* process) {
  const PluginApi& p = plugin();
  if (p.mqs_update_communicator_list(process) != mqs_ok) return -1;
  if (p.mqs_setup_communicator_iterator(process) != mqs_ok) return -1;
  int n = 0;
  mqs_communicator comm;
  while (p.mqs_get_communicator(process, &comm) == mqs_ok) {
    ++n;
    if (p.mqs_next_communicator(process) != mqs_ok) break;
  }
  return n;
}

int query_world(FakeDebugger& d) {
  mpidbg_comm_info_t* c = nullptr;
  const int rc = plugin().mpidbg_comm_query(d.image(), d.image_info, d.process(), d.process_info,
                                            0x44000000, &c);
  if (rc == MPIDBG_SUCCESS) {
    EXPECT_STREQ(c->comm_name, "MPI_COMM_WORLD");
    free_comm_info(c);
  }
  return rc;
}

TEST(HandlesSetUp, InfosSharedWithMessageQueuesHandlesFinalizedFirst) {
  const long baseline = FakeDebugger::live_allocations();
  FakeTarget target(8, false);
  auto b = small_image(&target);
  FakeDebugger d(&target);
  const PluginApi& p = plugin();
  p.mqs_setup_basic_callbacks(FakeDebugger::basic_callbacks());
  ASSERT_EQ(p.mqs_setup_image(d.image(), FakeDebugger::image_callbacks()), mqs_ok);
  mqs_image_info* image_info = d.image_info;
  ASSERT_EQ(p.mqs_setup_process(d.process(), FakeDebugger::process_callbacks()), mqs_ok);
  mqs_process_info* process_info = d.process_info;
  ASSERT_EQ(p.mpidbg_init_once(FakeDebugger::basic_callbacks()), MPIDBG_SUCCESS);
  ASSERT_EQ(p.mpidbg_init_per_image(d.image(), FakeDebugger::image_callbacks(), nullptr), MPIDBG_SUCCESS);
  EXPECT_EQ(d.image_info, image_info);  // one info for both interfaces
  ASSERT_EQ(p.mpidbg_init_per_process(d.process(), FakeDebugger::process_callbacks(), nullptr),
            MPIDBG_SUCCESS);
  EXPECT_EQ(d.process_info, process_info);
  EXPECT_EQ(walk_communicators(d.process()), 1);
  EXPECT_EQ(query_world(d), MPIDBG_SUCCESS);
  // The handle side lets go; the message-queue side goes on with the same infos.
  p.mpidbg_finalize_per_process(d.process(), d.process_info);
  p.mpidbg_finalize_per_image(d.image(), d.image_info);
  EXPECT_EQ(walk_communicators(d.process()), 1);
  EXPECT_EQ(p.mqs_destroy_process_info(process_info), mqs_ok);
  EXPECT_EQ(p.mqs_destroy_image_info(image_info), mqs_ok);
  EXPECT_EQ(FakeDebugger::live_allocations(), baseline);
}

TEST(HandlesSetUp, InfosSharedWithMessageQueuesMessageQueuesDestroyedFirst) {
  const long baseline = FakeDebugger::live_allocations();
  FakeTarget target(4, true);
  auto b = small_image(&target);
  FakeDebugger d(&target);
  const PluginApi& p = plugin();
  ASSERT_EQ(p.mpidbg_init_once(FakeDebugger::basic_callbacks()), MPIDBG_SUCCESS);
  ASSERT_EQ(p.mpidbg_init_per_image(d.image(), FakeDebugger::image_callbacks(), nullptr), MPIDBG_SUCCESS);
  mqs_image_info* image_info = d.image_info;
  ASSERT_EQ(p.mpidbg_init_per_process(d.process(), FakeDebugger::process_callbacks(), nullptr),
            MPIDBG_SUCCESS);
  mqs_process_info* process_info = d.process_info;
  p.mqs_setup_basic_callbacks(FakeDebugger::basic_callbacks());
  ASSERT_EQ(p.mqs_setup_image(d.image(), FakeDebugger::image_callbacks()), mqs_ok);
  EXPECT_EQ(d.image_info, image_info);
  ASSERT_EQ(p.mqs_setup_process(d.process(), FakeDebugger::process_callbacks()), mqs_ok);
  EXPECT_EQ(d.process_info, process_info);
  EXPECT_EQ(walk_communicators(d.process()), 1);
  EXPECT_EQ(p.mqs_destroy_process_info(process_info), mqs_ok);
  EXPECT_EQ(p.mqs_destroy_image_info(image_info), mqs_ok);
  // The handle side still has both.
  EXPECT_EQ(query_world(d), MPIDBG_SUCCESS);
  p.mpidbg_finalize_per_process(d.process(), process_info);
  p.mpidbg_finalize_per_image(d.image(), image_info);
  // Finalizing again (a confused debugger) is harmless: the infos are gone and known gone.
  p.mpidbg_finalize_per_process(d.process(), process_info);
  p.mpidbg_finalize_per_image(d.image(), image_info);
  EXPECT_EQ(FakeDebugger::live_allocations(), baseline);
}

TEST(HandlesSetUp, MessageQueueProcessAnswersHandleQueries) {
  // A debugger that set the process up through mqs_* only may still ask handle queries
  // (process_info NULL: fetched with mqs_get_process_info).
  const long baseline = FakeDebugger::live_allocations();
  FakeTarget target(8, true);
  auto b = small_image(&target);
  {
    FakeDebugger d(&target);
    const PluginApi& p = plugin();
    p.mqs_setup_basic_callbacks(FakeDebugger::basic_callbacks());
    ASSERT_EQ(p.mqs_setup_image(d.image(), FakeDebugger::image_callbacks()), mqs_ok);
    ASSERT_EQ(p.mqs_setup_process(d.process(), FakeDebugger::process_callbacks()), mqs_ok);
    mpidbg_request_info_t* r = nullptr;
    ASSERT_EQ(p.mpidbg_request_query(d.image(), nullptr, d.process(), nullptr, 0xac000001, &r),
              MPIDBG_SUCCESS);
    EXPECT_EQ(r->req_c_handle, 0xac000001u);
    debugger_free(r);
    EXPECT_EQ(p.mqs_destroy_process_info(d.process_info), mqs_ok);
    EXPECT_EQ(p.mqs_destroy_image_info(d.image_info), mqs_ok);
  }
  EXPECT_EQ(FakeDebugger::live_allocations(), baseline);
}

}  // namespace
}  // namespace mpidbg::test
