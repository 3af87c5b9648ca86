// part2_test.cc — the handle interface's extension queries (datatype with its
// type map, group, op, info, window, file, message) as a debugger calls them, over a
// fake process on every target kind with 4- and 8-byte handles: every field of every
// structure, orphans, null handles, unknown handles, damaged records and arrays, the
// debugger's allocator running dry, and every allocation given back.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
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

// ---------------- freeing results the way a debugger does ----------------

void debugger_frees(mpidbg_datatype_info_t* p) {
  debugger_free(p->dt_integers);
  debugger_free(p->dt_addresses);
  debugger_free(p->dt_datatypes);
  debugger_free(p->dt_map);
  debugger_free(p);
}
void debugger_frees(mpidbg_group_info_t* p) {
  debugger_free(p->group_procs);
  debugger_free(p->group_args);
  debugger_free(p);
}
void debugger_frees(mpidbg_op_info_t* p) { debugger_free(p); }
void debugger_frees(mpidbg_info_info_t* p) {
  for (int i = 0; i < p->info_num_pairs; ++i) {
    debugger_free(p->info_pairs[i].key);
    debugger_free(p->info_pairs[i].value);
  }
  debugger_free(p->info_pairs);
  debugger_free(p);
}
void debugger_frees(mpidbg_win_info_t* p) {
  debugger_free(p->win_target_locks);
  debugger_free(p->win_access_group);
  debugger_free(p->win_exposure_group);
  debugger_free(p->win_regions);
  debugger_free(p->win_pending_requests);
  debugger_free(p);
}
void debugger_frees(mpidbg_file_info_t* p) {
  debugger_free(p->file_pending_requests);
  debugger_free(p);
}
void debugger_frees(mpidbg_message_info_t* p) { debugger_free(p); }

struct DebuggerFree {
  template <typename T>
  void operator()(T* p) const {
    debugger_frees(p);
  }
};
template <typename T>
using Owned = std::unique_ptr<T, DebuggerFree>;

// ---------------- an allocator that runs dry on request ----------------

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

// ---------------- the process ----------------

template <typename T>
std::vector<T> values(const T* p, int n) {
  return p == nullptr || n <= 0 ? std::vector<T>() : std::vector<T>(p, p + n);
}

struct MapEntry {
  uint64_t type;
  std::string name;
  int64_t disp;
  int64_t count;
  int64_t size;
  bool operator==(const MapEntry& o) const {
    return type == o.type && name == o.name && disp == o.disp && count == o.count && size == o.size;
  }
};
std::vector<MapEntry> map_of(const mpidbg_datatype_info_t& d) {
  std::vector<MapEntry> v;
  for (int i = 0; i < d.dt_map_length; ++i) {
    const mpidbg_type_map_entry_t& e = d.dt_map[i];
    v.push_back({e.basic_type, e.basic_name, e.displacement, e.count, e.elem_size});
  }
  return v;
}

void PrintTo(const MapEntry& e, std::ostream* os) {
  *os << "{" << std::hex << e.type << std::dec << " " << e.name << " @" << e.disp << " x" << e.count
      << " size " << e.size << "}";
}

class HandlesExt : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    baseline_ = FakeDebugger::live_allocations();
    hs_ = GetParam().handle_size;
    mpich_ = hs_ == 4;
    target_ = std::make_unique<FakeTarget>(GetParam().kind.pointer_size, GetParam().kind.big_endian);
    b_ = std::make_unique<ImageBuilder>(target_.get(),
                                        GetParam().kind.pointer_size == 4 ? 0x10000000u : 0x7f0000000000u);
    build();
    b_->commit();
    session_ = std::make_unique<HandleSession>(target_.get());
    ASSERT_EQ(session_->start(), MPIDBG_SUCCESS);
  }

  void TearDown() override {
    session_.reset();
    EXPECT_EQ(FakeDebugger::live_allocations(), baseline_) << "debugger memory not given back";
  }

  mqs_image* image() { return session_->image(); }
  mqs_process* proc() { return session_->process(); }
  mqs_image_info* image_info() { return session_->debugger.image_info; }
  mqs_process_info* process_info() { return session_->debugger.process_info; }

  // A handle of this MPI: MPICH's are ints (the high bit set, as for derived objects, so
  // a debugger's sign extension matters); Open MPI's are object addresses.
  uint64_t h(uint64_t n) const { return mpich_ ? 0x8c000000u | n : 0x7f3a00000000u + n * 0x40; }
  // The Fortran handle reported for a record whose index the runtime did not know: with
  // MPICH the C value itself (MPI_*_c2f is the identity there), else "unavailable".
  int unknown_fortran(uint64_t n) const {
    return mpich_ ? static_cast<int>(static_cast<uint32_t>(h(n))) : MPIDBG_ERR_UNAVAILABLE;
  }
  // What a debugger might pass for it after widening a signed int.
  uint64_t sign_extended(uint64_t handle) const {
    return mpich_ ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(handle))) : handle;
  }
  int order_c() const { return mpich_ ? 56 : 0; }
  int distribute_block() const { return mpich_ ? 121 : 0; }
  int distribute_cyclic() const { return mpich_ ? 122 : 1; }
  int dflt_darg() const { return mpich_ ? -49767 : -1; }

  // Makes the runtime's current state visible (a new generation).
  void republish() {
    b_->root.generation += 1;
    b_->commit();
  }

  // ---- records ----
  mpidbg_datatype_record dt(uint64_t handle, uint64_t serial, const char* name, int32_t combiner,
                            int64_t size, int64_t extent, uint32_t flags, int32_t creator) {
    mpidbg_datatype_record r{};
    r.obj = make_head(handle, serial, name);
    r.obj.hdr.flags = flags;
    r.obj.creator = creator;
    r.combiner = combiner;
    r.size = size;
    r.extent = extent;
    r.true_extent = extent;
    return r;
  }
  uint64_t contiguous(uint64_t handle, uint64_t serial, int32_t n, uint64_t old, int64_t size,
                      int64_t extent, uint32_t flags = 0) {
    mpidbg_datatype_record r =
        dt(handle, serial, "", MPIDBG_COMBINER_CONTIGUOUS, size, extent, flags, MPIDBG_CALL_MPI_Type_contiguous);
    r.integers = b_->int32_side_array({n});
    r.types = b_->uint64_side_array({old});
    return b_->add_datatype(r);
  }

  void build() {
    mpidbg_root& root = b_->root;
    root.flavour = mpich_ ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI;
    root.handle_size = hs_;
    root.process_state = MPIDBG_PROCESS_RUNNING;
    root.world_rank = 2;
    root.world_size = 4;
    root.generation = 5;
    root.datatype_null_handle = h(0xf01);
    root.group_null_handle = h(0xf02);
    root.group_empty_handle = h(0xf03);
    root.reduce_op_null_handle = h(0xf04);
    root.info_null_handle = h(0xf05);
    root.win_null_handle = h(0xf06);
    root.file_null_handle = h(0xf07);
    root.message_null_handle = h(0xf08);
    root.message_no_proc_handle = h(0xf09);
    build_datatypes();
    build_groups();
    build_ops();
    build_infos();
    build_windows_and_files();
    build_messages();
  }

  void build_datatypes() {
    const uint32_t basic = MPIDBG_REC_PREDEFINED | MPIDBG_TYPE_COMMITTED;
    mpidbg_datatype_record r = dt(h(0x01), 1, "MPI_INT", MPIDBG_COMBINER_NAMED, 4, 4, basic, MPIDBG_CALL_NONE);
    r.obj.fortran_index = 7;
    b_->add_datatype(r);
    b_->add_datatype(dt(h(0x02), 2, "MPI_DOUBLE", MPIDBG_COMBINER_NAMED, 8, 8, basic, MPIDBG_CALL_NONE));
    b_->add_datatype(dt(h(0x03), 3, "MPI_CHAR", MPIDBG_COMBINER_NAMED, 1, 1, basic, MPIDBG_CALL_NONE));

    // vector(3, 2, 4, MPI_INT): ints at 0..7, 16..23, 32..39.
    r = dt(h(0x10), 10, "", MPIDBG_COMBINER_VECTOR, 24, 40, MPIDBG_TYPE_COMMITTED, MPIDBG_CALL_MPI_Type_vector);
    r.obj.fortran_index = 12;
    r.obj.create_time_ns = 1700000000123456789;
    r.integers = b_->int32_side_array({3, 2, 4});
    r.types = b_->uint64_side_array({h(0x01)});
    b_->add_datatype(r);

    // struct {int @0; double[2] @8; vector @24}, named.
    r = dt(h(0x11), 11, "particle", MPIDBG_COMBINER_STRUCT, 44, 64, MPIDBG_TYPE_COMMITTED,
           MPIDBG_CALL_MPI_Type_create_struct);
    r.obj.fortran_index = 13;
    r.lb = 0;
    r.true_lb = 0;
    r.true_extent = 64;
    r.integers = b_->int32_side_array({3, 1, 2, 1});
    r.addresses = b_->int64_side_array({0, 8, 24});
    r.types = b_->uint64_side_array({h(0x01), h(0x02), h(0x10)});
    b_->add_datatype(r);

    // A freed type whose handle MPI gave to a later type; a type built from it in between.
    slot_old_ = contiguous(h(0x20), 12, 2, h(0x02), 16, 16, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    contiguous(h(0x21), 13, 4, h(0x20), 64, 64);
    slot_new_ = contiguous(h(0x20), 14, 3, h(0x03), 3, 3);

    // subarray: 4x5 ints, rows 1..2, columns 1..3, C order.
    r = dt(h(0x30), 15, "", MPIDBG_COMBINER_SUBARRAY, 24, 80, MPIDBG_TYPE_COMMITTED,
           MPIDBG_CALL_MPI_Type_create_subarray);
    r.integers = b_->int32_side_array({2, 4, 5, 2, 3, 1, 1, order_c()});
    r.types = b_->uint64_side_array({h(0x01)});
    b_->add_datatype(r);

    // darray: 8x6 doubles, 2x2 grid, BLOCK x CYCLIC(2), rank 1.
    r = dt(h(0x31), 16, "", MPIDBG_COMBINER_DARRAY, 64, 384, MPIDBG_TYPE_COMMITTED,
           MPIDBG_CALL_MPI_Type_create_darray);
    r.integers = b_->int32_side_array({4, 1, 2, 8, 6, distribute_block(), distribute_cyclic(),
                                       dflt_darg(), 2, 2, 2, order_c()});
    r.types = b_->uint64_side_array({h(0x02)});
    b_->add_datatype(r);

    // A billion strided ints.
    r = dt(h(0x32), 17, "", MPIDBG_COMBINER_VECTOR, 4000000000, 7999999996, 0, MPIDBG_CALL_MPI_Type_vector);
    r.integers = b_->int32_side_array({1000000000, 1, 2});
    r.types = b_->uint64_side_array({h(0x01)});
    b_->add_datatype(r);

    // An input nobody recorded.
    contiguous(h(0x33), 18, 2, h(0x7ff), 0, 0);

    // Integers at an address the process does not have.
    r = dt(h(0x34), 19, "", MPIDBG_COMBINER_VECTOR, 12, 40, 0, MPIDBG_CALL_MPI_Type_vector);
    r.integers = mpidbg_array{0x5000, 3, 4};
    r.types = b_->uint64_side_array({h(0x01)});
    b_->add_datatype(r);
    // ... used as an input.
    contiguous(h(0x35), 20, 2, h(0x34), 24, 80);

    // A type the MPI made for MPI_Type_create_f90_real: basic.
    r = dt(h(0x36), 21, "", MPIDBG_COMBINER_F90_REAL, 8, 8, basic, MPIDBG_CALL_NONE);
    r.integers = b_->int32_side_array({15, 300});
    b_->add_datatype(r);
    contiguous(h(0x38), 23, 2, h(0x36), 16, 16);

    // A record naming itself as its input.
    contiguous(h(0x37), 22, 2, h(0x37), 8, 8);
  }

  void build_groups() {
    mpidbg_group_record g{};
    g.obj = make_head(h(0x40), 30, "");
    g.obj.creator = MPIDBG_CALL_MPI_Group_incl;
    g.obj.fortran_index = 5;
    g.source_handle = h(0x900);
    g.source_comm_job_id = 0x77;
    g.world_ranks = b_->int32_side_array({0, 2, 3});
    g.args = b_->int32_side_array({0, 2, 3});
    g.size = 3;
    g.rank = 1;
    b_->add_group(g);

    // A union whose ranks MPI could not translate; freed, still held.
    g = mpidbg_group_record{};
    g.obj = make_head(h(0x41), 31, "");
    g.obj.hdr.flags = MPIDBG_REC_FREED;
    g.obj.free_serial = 2;
    g.obj.creator = MPIDBG_CALL_MPI_Group_union;
    g.source_handle = h(0x40);
    g.source_handle2 = h(0x42);
    g.world_ranks = mpidbg_array{0, 0, 4};
    g.size = 2;
    g.rank = -1;
    b_->add_group(g);

    // Ranks for 2 members of a group of 4.
    g = mpidbg_group_record{};
    g.obj = make_head(h(0x43), 32, "");
    g.world_ranks = b_->int32_side_array({0, 1});
    g.size = 4;
    g.rank = 0;
    b_->add_group(g);
  }

  void build_ops() {
    mpidbg_reduce_op_record o{};
    o.obj = make_head(h(0x50), 40, "MPI_SUM");
    o.obj.hdr.flags = MPIDBG_REC_PREDEFINED;
    o.obj.fortran_index = 3;
    o.commute = 1;
    b_->add_reduce_op(o);

    o = mpidbg_reduce_op_record{};
    o.obj = make_head(h(0x51), 41, "");
    o.obj.creator = MPIDBG_CALL_MPI_Op_create;
    o.function = 0x401234;
    b_->add_reduce_op(o);

    o = mpidbg_reduce_op_record{};
    o.obj = make_head(h(0x52), 42, "");
    o.obj.hdr.flags = MPIDBG_REC_FREED | MPIDBG_REC_RELEASED;
    o.obj.free_serial = 3;
    o.obj.fortran_index = 4;
    o.function = 0x405000;
    o.commute = 1;
    b_->add_reduce_op(o);
  }

  void build_infos() {
    mpidbg_info_record i{};
    i.obj = make_head(h(0x60), 50, "");
    i.obj.fortran_index = 1;
    i.obj.creator = MPIDBG_CALL_MPI_Info_create;
    i.entries = b_->info_entries({{"cb_nodes", "4"}, {"romio_ds_read", "disable"}});
    i.nkeys = 2;
    b_->add_info(i);

    i = mpidbg_info_record{};
    i.obj = make_head(h(0x61), 51, "");
    i.entries = mpidbg_array{0, 0, 1};
    b_->add_info(i);

    // More keys than the bytes hold.
    i = mpidbg_info_record{};
    i.obj = make_head(h(0x62), 52, "");
    i.entries = b_->info_entries({{"a", "1"}, {"b", "2"}});
    i.nkeys = 3;
    b_->add_info(i);

    // The last value without its NUL.
    i = mpidbg_info_record{};
    i.obj = make_head(h(0x63), 53, "");
    const char bytes[] = {'k', 'e', 'y', 0, 'v', 'a', 'l'};
    i.entries = b_->bytes_side_array(bytes, sizeof bytes);
    i.nkeys = 1;
    b_->add_info(i);

    // Past the size limit (never read).
    i = mpidbg_info_record{};
    i.obj = make_head(h(0x64), 54, "");
    i.entries = mpidbg_array{0x5000, (1u << 20) + 1, 1};
    i.nkeys = 1;
    b_->add_info(i);

    // Entries of the wrong element size; a negative count.
    i = mpidbg_info_record{};
    i.obj = make_head(h(0x65), 55, "");
    i.entries = b_->int32_side_array({1, 2});
    i.nkeys = 1;
    b_->add_info(i);
    i = mpidbg_info_record{};
    i.obj = make_head(h(0x66), 56, "");
    i.entries = b_->info_entries({{"a", "1"}});
    i.nkeys = -1;
    b_->add_info(i);
  }

  void build_windows_and_files() {
    mpidbg_window_record w{};
    w.obj = make_head(h(0x70), 60, "halo");
    w.obj.fortran_index = 9;
    w.obj.creator = MPIDBG_CALL_MPI_Win_create;
    w.comm_handle = h(0x900);
    w.comm_job_id = 0x77;
    w.base = 0x10000;
    w.size = 4096;
    w.errhandler = h(0x80a);
    w.info = h(0x60);
    w.fence_count = 3;
    w.rma_count = 17;
    w.target_locks = b_->int32_side_array({MPIDBG_LOCK_NONE, MPIDBG_LOCK_SHARED, MPIDBG_LOCK_EXCLUSIVE, 0});
    w.access_group = b_->int32_side_array({1, 3});
    w.exposure_group = b_->int32_side_array({2});
    w.attached = b_->int64_side_array({0x20000, 64, 0x30000, 128});
    w.disp_unit = 8;
    w.flavor = MPIDBG_WIN_ALLOCATE;
    w.access_epoch = MPIDBG_EPOCH_LOCK;
    w.exposure_epoch = MPIDBG_EPOCH_POST;
    w.comm_size = 4;
    slot_win_ = b_->add_window(w);

    w = mpidbg_window_record{};
    w.obj = make_head(h(0x71), 61, "");
    w.attached = b_->int64_side_array({0x20000, 64, 0x30000});
    w.flavor = MPIDBG_WIN_DYNAMIC;
    b_->add_window(w);

    w = mpidbg_window_record{};
    w.obj = make_head(h(0x72), 62, "");
    w.obj.hdr.flags = MPIDBG_REC_FREED | MPIDBG_REC_RELEASED;
    w.obj.free_serial = 4;
    w.flavor = MPIDBG_WIN_CREATE;
    slot_freed_win_ = b_->add_window(w);

    mpidbg_file_record f{};
    f.obj = make_head(h(0x80), 70, "");
    f.obj.fortran_index = 2;
    f.obj.creator = MPIDBG_CALL_MPI_File_open;
    f.comm_handle = h(0x900);
    f.comm_job_id = 0x77;
    f.info = h(0x60);
    f.errhandler = h(0x80b);
    f.view_disp = 512;
    f.etype = h(0x02);
    f.filetype = h(0x31);
    f.amode = 0x5;
    std::strcpy(f.datarep, "native");
    std::strcpy(f.filename, "/scratch/out.dat");
    b_->add_file(f);

    f = mpidbg_file_record{};
    f.obj = make_head(h(0x81), 71, "");
    std::memset(f.filename, 'x', sizeof f.filename);  // no terminator in the record
    std::memset(f.datarep, 'y', sizeof f.datarep);
    b_->add_file(f);

    // Request-based RMA on the window: pending; a persistent one not started; one on
    // another window; file I/O on the file; an RMA operation naming the file's handle.
    mpidbg_operation_record op = make_op(MPIDBG_CALL_MPI_Rput, MPIDBG_OPERATION_RMA, h(0x900), 0x77, 1, 1, 1, 0);
    op.request = h(0xa01);
    op.object = h(0x70);
    b_->add_op(op);
    op.request = h(0xa02);
    op.post_serial = 2;
    op.hdr.flags = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
    b_->add_op(op);
    op.hdr.flags = MPIDBG_OPERATION_PERSISTENT;
    op.request = h(0xa05);
    op.post_serial = 5;
    b_->add_op(op);
    op.hdr.flags = 0;
    op.request = h(0xa03);
    op.object = h(0x71);
    op.post_serial = 3;
    b_->add_op(op);
    op.request = h(0xa04);
    op.object = h(0x80);
    op.post_serial = 4;
    b_->add_op(op);
    op = make_op(MPIDBG_CALL_MPI_File_iwrite, MPIDBG_OPERATION_FILE, h(0x900), 0x77, 6, MPIDBG_RANK_UNKNOWN,
                 MPIDBG_RANK_UNKNOWN, 0);
    op.request = h(0xa10);
    op.object = h(0x80);
    op.file_offset = -1;
    b_->add_op(op);
  }

  void build_messages() {
    mpidbg_message_record m{};
    m.obj = make_head(h(0x90), 80, "");
    m.obj.fortran_index = 6;
    m.obj.creator = MPIDBG_CALL_MPI_Mprobe;
    m.comm_handle = h(0x900);
    m.comm_job_id = 0x77;
    m.bytes = 4096;
    m.source = 3;
    m.source_world = 3;
    m.tag = 42;
    m.state = MPIDBG_MESSAGE_MATCHED;
    b_->add_message(m);

    m.obj = make_head(h(0x91), 81, "");
    m.obj.hdr.flags = MPIDBG_REC_FREED | MPIDBG_REC_RELEASED;
    m.obj.creator = MPIDBG_CALL_MPI_Improbe;
    m.state = MPIDBG_MESSAGE_RECEIVED;
    b_->add_message(m);

    m = mpidbg_message_record{};
    m.obj = make_head(h(0x92), 82, "");
    m.obj.hdr.flags = MPIDBG_MESSAGE_NO_PROC;
    m.obj.creator = MPIDBG_CALL_MPI_Mprobe;
    m.source = MPIDBG_RANK_PROC_NULL;
    m.source_world = MPIDBG_RANK_PROC_NULL;
    m.tag = MPIDBG_TAG_ANY;
    b_->add_message(m);
  }

  // ---- queries, results owned as a debugger owns them ----
  template <typename T, typename Fn>
  int query(Fn fn, uint64_t handle, Owned<T>* out) {
    T* raw = reinterpret_cast<T*>(uintptr_t{0x1});  // must be cleared on failure
    const int rc = fn(image(), image_info(), proc(), process_info(), handle, &raw);
    if (rc != MPIDBG_SUCCESS) {
      EXPECT_EQ(raw, nullptr);
      raw = nullptr;
    }
    out->reset(raw);
    return rc;
  }
  int datatype(uint64_t handle, Owned<mpidbg_datatype_info_t>* out, int max_entries = 0) {
    mpidbg_datatype_info_t* raw = reinterpret_cast<mpidbg_datatype_info_t*>(uintptr_t{0x1});
    const int rc = api().mpidbg_datatype_query(image(), image_info(), proc(),
                                               process_info(), handle, max_entries, &raw);
    if (rc != MPIDBG_SUCCESS) {
      EXPECT_EQ(raw, nullptr);
      raw = nullptr;
    }
    out->reset(raw);
    return rc;
  }
  int group(uint64_t handle, Owned<mpidbg_group_info_t>* out) { return query(api().mpidbg_group_query, handle, out); }
  int op(uint64_t handle, Owned<mpidbg_op_info_t>* out) { return query(api().mpidbg_op_query, handle, out); }
  int info(uint64_t handle, Owned<mpidbg_info_info_t>* out) { return query(api().mpidbg_info_query, handle, out); }
  int win(uint64_t handle, Owned<mpidbg_win_info_t>* out) { return query(api().mpidbg_win_query, handle, out); }
  int file(uint64_t handle, Owned<mpidbg_file_info_t>* out) { return query(api().mpidbg_file_query, handle, out); }
  int message(uint64_t handle, Owned<mpidbg_message_info_t>* out) {
    return query(api().mpidbg_message_query, handle, out);
  }
  template <typename Fn>
  int f2c(Fn fn, mqs_taddr_t f77, mqs_taddr_t* c) {
    *c = 0xbad;
    return fn(image(), image_info(), proc(), process_info(), f77, c);
  }

  long baseline_ = 0;
  uint32_t hs_ = 4;
  bool mpich_ = true;
  std::unique_ptr<FakeTarget> target_;
  std::unique_ptr<ImageBuilder> b_;
  std::unique_ptr<HandleSession> session_;
  uint64_t slot_old_ = 0;
  uint64_t slot_new_ = 0;
  uint64_t slot_win_ = 0;
  uint64_t slot_freed_win_ = 0;
};

INSTANTIATE_TEST_SUITE_P(AllKinds, HandlesExt, all_kinds_and_handles(), kind_name);

TEST_P(HandlesExt, Version) { EXPECT_EQ(api().mpidbg_handle_ext_version(), MPIDBG_HANDLE_EXT_VERSION); }

// ---------------- datatypes ----------------

TEST_P(HandlesExt, DatatypeEveryField) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x11), &d), MPIDBG_SUCCESS);
  EXPECT_STREQ(d->dt_name, "particle");
  EXPECT_EQ(d->dt_bitflags, MPIDBG_DATATYPE_COMMITTED | MPIDBG_DATATYPE_HOLES);
  EXPECT_EQ(d->dt_c_handle, h(0x11));
  EXPECT_EQ(d->dt_fortran_handle, 13);
  EXPECT_EQ(d->dt_combiner, MPIDBG_COMBINER_STRUCT);
  EXPECT_EQ(d->dt_creator, MPIDBG_CALL_MPI_Type_create_struct);
  EXPECT_STREQ(d->dt_creator_name, "MPI_Type_create_struct");
  EXPECT_EQ(d->dt_size, 44);
  EXPECT_EQ(d->dt_lb, 0);
  EXPECT_EQ(d->dt_extent, 64);
  EXPECT_EQ(d->dt_true_lb, 0);
  EXPECT_EQ(d->dt_true_extent, 64);
  EXPECT_EQ(values(d->dt_integers, d->dt_num_integers), (std::vector<int>{3, 1, 2, 1}));
  EXPECT_EQ(values(d->dt_addresses, d->dt_num_addresses), (std::vector<int64_t>{0, 8, 24}));
  EXPECT_EQ(values(d->dt_datatypes, d->dt_num_datatypes),
            (std::vector<mqs_taddr_t>{h(0x01), h(0x02), h(0x10)}));
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x01), "MPI_INT", 0, 1, 4},
                                               {h(0x02), "MPI_DOUBLE", 8, 2, 8},
                                               {h(0x01), "MPI_INT", 24, 2, 4},
                                               {h(0x01), "MPI_INT", 40, 2, 4},
                                               {h(0x01), "MPI_INT", 56, 2, 4}}));
  EXPECT_EQ(d->dt_map_elements, 9);
}

TEST_P(HandlesExt, DatatypeVector) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x10), &d), MPIDBG_SUCCESS);
  EXPECT_STREQ(d->dt_name, "");
  EXPECT_EQ(d->dt_fortran_handle, 12);
  EXPECT_STREQ(d->dt_creator_name, "MPI_Type_vector");
  EXPECT_EQ(d->dt_num_addresses, 0);
  EXPECT_EQ(d->dt_addresses, nullptr);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x01), "MPI_INT", 0, 2, 4},
                                               {h(0x01), "MPI_INT", 16, 2, 4},
                                               {h(0x01), "MPI_INT", 32, 2, 4}}));
}

TEST_P(HandlesExt, DatatypePredefined) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x01), &d), MPIDBG_SUCCESS);
  EXPECT_STREQ(d->dt_name, "MPI_INT");
  EXPECT_EQ(d->dt_bitflags, MPIDBG_HANDLE_PREDEFINED | MPIDBG_DATATYPE_COMMITTED);
  EXPECT_EQ(d->dt_fortran_handle, 7);
  EXPECT_EQ(d->dt_combiner, MPIDBG_COMBINER_NAMED);
  EXPECT_EQ(d->dt_creator, MPIDBG_CALL_NONE);
  EXPECT_STREQ(d->dt_creator_name, "");
  EXPECT_EQ(d->dt_num_integers + d->dt_num_addresses + d->dt_num_datatypes, 0);
  EXPECT_EQ(d->dt_integers, nullptr);
  EXPECT_EQ(d->dt_datatypes, nullptr);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x01), "MPI_INT", 0, 1, 4}}));
  EXPECT_EQ(d->dt_map_elements, 1);
  // No Fortran index recorded.
  ASSERT_EQ(datatype(h(0x02), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_fortran_handle, unknown_fortran(0x02));
}

TEST_P(HandlesExt, DatatypeInputsResolvedByCreationOrder) {
  // h(0x21) was built from the type h(0x20) named then: two doubles, since freed.
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x21), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x02), "MPI_DOUBLE", 0, 8, 8}}));
  EXPECT_EQ(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  // The handle itself now names the live type made later.
  ASSERT_EQ(datatype(h(0x20), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_bitflags & (MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT), 0u);
  EXPECT_EQ(values(d->dt_integers, d->dt_num_integers), std::vector<int>{3});
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x03), "MPI_CHAR", 0, 3, 1}}));
}

TEST_P(HandlesExt, DatatypeOrphanAndReleasedSlot) {
  // The newer type released: the handle finds the orphan.
  b_->release(slot_new_);
  republish();
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x20), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x02), "MPI_DOUBLE", 0, 2, 8}}));
  // The orphan released too: the handle is unknown, and the type built from it has an
  // incomplete map.
  b_->release(slot_old_);
  republish();
  EXPECT_EQ(datatype(h(0x20), &d), MPIDBG_ERR_NOT_FOUND);
  ASSERT_EQ(datatype(h(0x21), &d), MPIDBG_SUCCESS);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  EXPECT_EQ(d->dt_map_length, 0);
}

TEST_P(HandlesExt, DatatypeSubarrayAndDarrayInThisMpisConstants) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x30), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x01), "MPI_INT", 24, 3, 4},
                                               {h(0x01), "MPI_INT", 44, 3, 4}}));
  EXPECT_EQ(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  ASSERT_EQ(datatype(h(0x31), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x02), "MPI_DOUBLE", 16, 2, 8},
                                               {h(0x02), "MPI_DOUBLE", 64, 2, 8},
                                               {h(0x02), "MPI_DOUBLE", 112, 2, 8},
                                               {h(0x02), "MPI_DOUBLE", 160, 2, 8}}));
  EXPECT_EQ(d->dt_map_elements, 8);
  EXPECT_EQ(values(d->dt_integers, d->dt_num_integers).size(), 12u);
}

TEST_P(HandlesExt, DatatypeMapLimit) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x32), &d, 16), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_map_length, 16);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_TRUNCATED, 0u);
  EXPECT_EQ(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  EXPECT_EQ(d->dt_map_elements, 1000000000);
  EXPECT_EQ(d->dt_map[15].displacement, 15 * 8);
  // 0: the default of 4096 runs.
  ASSERT_EQ(datatype(h(0x32), &d, 0), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_map_length, 4096);
  // One run more than needed: not truncated.
  ASSERT_EQ(datatype(h(0x10), &d, 3), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_bitflags & MPIDBG_DATATYPE_MAP_TRUNCATED, 0u);
  ASSERT_EQ(datatype(h(0x10), &d, 2), MPIDBG_SUCCESS);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_TRUNCATED, 0u);
  EXPECT_EQ(datatype(h(0x10), &d, -1), MPIDBG_ERR_OUT_OF_RANGE);
  // However many the debugger asks for, one answer holds at most 2^20 runs.
  ASSERT_EQ(datatype(h(0x32), &d, INT32_MAX), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_map_length, 1 << 20);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_TRUNCATED, 0u);
}

TEST_P(HandlesExt, DatatypeMissingDamagedAndCyclicInputs) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x33), &d), MPIDBG_SUCCESS);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  EXPECT_EQ(d->dt_map_length, 0);
  EXPECT_EQ(d->dt_map, nullptr);
  EXPECT_EQ(d->dt_map_elements, 0);
  EXPECT_EQ(values(d->dt_datatypes, d->dt_num_datatypes), std::vector<mqs_taddr_t>{h(0x7ff)});
  // The type's own arrays cannot be read: no answer.
  EXPECT_EQ(datatype(h(0x34), &d), MPIDBG_ERR_UNAVAILABLE);
  // An input's arrays cannot be read: the map says so.
  ASSERT_EQ(datatype(h(0x35), &d), MPIDBG_SUCCESS);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  ASSERT_EQ(datatype(h(0x37), &d), MPIDBG_SUCCESS);
  EXPECT_NE(d->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  EXPECT_EQ(d->dt_map_length, 0);
}

TEST_P(HandlesExt, DatatypeF90IsBasic) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x38), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(map_of(*d), (std::vector<MapEntry>{{h(0x36), "", 0, 2, 8}}));
  ASSERT_EQ(datatype(h(0x36), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_combiner, MPIDBG_COMBINER_F90_REAL);
  EXPECT_EQ(values(d->dt_integers, d->dt_num_integers), (std::vector<int>{15, 300}));
}

TEST_P(HandlesExt, DatatypeNullUnknownAndWidenedHandles) {
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0xf01), &d), MPIDBG_SUCCESS);
  EXPECT_EQ(d->dt_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_STREQ(d->dt_name, "MPI_DATATYPE_NULL");
  EXPECT_EQ(d->dt_c_handle, h(0xf01));
  EXPECT_EQ(d->dt_map, nullptr);
  EXPECT_EQ(datatype(h(0x5a5), &d), MPIDBG_ERR_NOT_FOUND);
  ASSERT_EQ(datatype(sign_extended(h(0x11)), &d), MPIDBG_SUCCESS);
  EXPECT_STREQ(d->dt_name, "particle");
  EXPECT_EQ(api().mpidbg_datatype_query(image(), nullptr, proc(), nullptr, h(0x11), 0, nullptr),
            MPIDBG_ERR_OUT_OF_RANGE);
  // Without the process info the DLL finds it through the debugger.
  mpidbg_datatype_info_t* raw = nullptr;
  ASSERT_EQ(api().mpidbg_datatype_query(image(), nullptr, proc(), nullptr, h(0x10), 0, &raw),
            MPIDBG_SUCCESS);
  d.reset(raw);
  EXPECT_EQ(d->dt_map_length, 3);
}

TEST_P(HandlesExt, DatatypeF2c) {
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_datatype_f2c, 12, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x10));
  ASSERT_EQ(f2c(api().mpidbg_datatype_f2c, 7, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x01));
  EXPECT_EQ(f2c(api().mpidbg_datatype_f2c, 99, &c), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(f2c(api().mpidbg_datatype_f2c, 0x100000000ull, &c), MPIDBG_ERR_NOT_FOUND);
  EXPECT_EQ(f2c(api().mpidbg_datatype_f2c, static_cast<mqs_taddr_t>(-1), &c), MPIDBG_ERR_NOT_FOUND);
}

// ---------------- groups ----------------

TEST_P(HandlesExt, GroupEveryField) {
  Owned<mpidbg_group_info_t> g;
  ASSERT_EQ(group(h(0x40), &g), MPIDBG_SUCCESS);
  EXPECT_STREQ(g->group_name, "");
  EXPECT_EQ(g->group_bitflags, 0u);
  EXPECT_EQ(g->group_c_handle, h(0x40));
  EXPECT_EQ(g->group_fortran_handle, 5);
  EXPECT_EQ(g->group_rank, 1);
  EXPECT_EQ(g->group_size, 3);
  ASSERT_NE(g->group_procs, nullptr);
  EXPECT_EQ(g->group_procs[0].mpi_comm_world_rank, 0);
  EXPECT_EQ(g->group_procs[1].mpi_comm_world_rank, 2);
  EXPECT_EQ(g->group_procs[2].mpi_comm_world_rank, 3);
  EXPECT_EQ(g->group_creator, MPIDBG_CALL_MPI_Group_incl);
  EXPECT_STREQ(g->group_creator_name, "MPI_Group_incl");
  EXPECT_EQ(g->group_source, h(0x900));
  EXPECT_EQ(g->group_source2, 0u);
  EXPECT_EQ(values(g->group_args, g->group_num_args), (std::vector<int>{0, 2, 3}));
}

TEST_P(HandlesExt, GroupOrphanWithoutRanks) {
  Owned<mpidbg_group_info_t> g;
  ASSERT_EQ(group(h(0x41), &g), MPIDBG_SUCCESS);
  EXPECT_EQ(g->group_bitflags, MPIDBG_HANDLE_FREED_HANDLE);
  EXPECT_EQ(g->group_rank, -1);
  EXPECT_EQ(g->group_size, 2);
  ASSERT_NE(g->group_procs, nullptr);
  EXPECT_EQ(g->group_procs[0].mpi_comm_world_rank, MPIDBG_RANK_UNKNOWN);
  EXPECT_EQ(g->group_procs[1].mpi_comm_world_rank, MPIDBG_RANK_UNKNOWN);
  EXPECT_STREQ(g->group_creator_name, "MPI_Group_union");
  EXPECT_EQ(g->group_source, h(0x40));
  EXPECT_EQ(g->group_source2, h(0x42));
  EXPECT_EQ(g->group_num_args, 0);
  EXPECT_EQ(g->group_args, nullptr);
  EXPECT_EQ(g->group_fortran_handle, unknown_fortran(0x41));
}

TEST_P(HandlesExt, GroupDamagedNullEmptyUnknown) {
  Owned<mpidbg_group_info_t> g;
  EXPECT_EQ(group(h(0x43), &g), MPIDBG_ERR_UNAVAILABLE);
  ASSERT_EQ(group(h(0xf02), &g), MPIDBG_SUCCESS);
  EXPECT_EQ(g->group_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_STREQ(g->group_name, "MPI_GROUP_NULL");
  ASSERT_EQ(group(h(0xf03), &g), MPIDBG_SUCCESS);
  EXPECT_EQ(g->group_bitflags, MPIDBG_HANDLE_PREDEFINED);
  EXPECT_STREQ(g->group_name, "MPI_GROUP_EMPTY");
  EXPECT_EQ(g->group_size, 0);
  EXPECT_EQ(g->group_rank, -1);
  EXPECT_EQ(g->group_procs, nullptr);
  EXPECT_EQ(group(h(0x5a5), &g), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_group_f2c, 5, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x40));
  EXPECT_EQ(f2c(api().mpidbg_group_f2c, 6, &c), MPIDBG_ERR_NOT_FOUND);
}

// ---------------- reduction ops ----------------

TEST_P(HandlesExt, OpEveryField) {
  Owned<mpidbg_op_info_t> o;
  ASSERT_EQ(op(h(0x50), &o), MPIDBG_SUCCESS);
  EXPECT_STREQ(o->op_name, "MPI_SUM");
  EXPECT_EQ(o->op_bitflags, MPIDBG_HANDLE_PREDEFINED | MPIDBG_OP_INFO_COMMUTATIVE);
  EXPECT_EQ(o->op_c_handle, h(0x50));
  EXPECT_EQ(o->op_fortran_handle, 3);
  EXPECT_EQ(o->op_callback_func, 0u);
  ASSERT_EQ(op(h(0x51), &o), MPIDBG_SUCCESS);
  EXPECT_EQ(o->op_bitflags, MPIDBG_OP_INFO_C_CALLBACK);
  EXPECT_EQ(o->op_callback_func, 0x401234u);
  EXPECT_EQ(o->op_fortran_handle, unknown_fortran(0x51));
  ASSERT_EQ(op(h(0x52), &o), MPIDBG_SUCCESS);
  EXPECT_EQ(o->op_bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT |
                                MPIDBG_OP_INFO_COMMUTATIVE | MPIDBG_OP_INFO_C_CALLBACK);
  ASSERT_EQ(op(h(0xf04), &o), MPIDBG_SUCCESS);
  EXPECT_EQ(o->op_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_STREQ(o->op_name, "MPI_OP_NULL");
  EXPECT_EQ(op(h(0x5a5), &o), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_op_f2c, 4, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x52));
  EXPECT_EQ(f2c(api().mpidbg_op_f2c, 8, &c), MPIDBG_ERR_NOT_FOUND);
}

// ---------------- infos ----------------

TEST_P(HandlesExt, InfoPairs) {
  Owned<mpidbg_info_info_t> i;
  ASSERT_EQ(info(h(0x60), &i), MPIDBG_SUCCESS);
  EXPECT_EQ(i->info_bitflags, 0u);
  EXPECT_EQ(i->info_c_handle, h(0x60));
  EXPECT_EQ(i->info_fortran_handle, 1);
  ASSERT_EQ(i->info_num_pairs, 2);
  EXPECT_STREQ(i->info_pairs[0].key, "cb_nodes");
  EXPECT_STREQ(i->info_pairs[0].value, "4");
  EXPECT_STREQ(i->info_pairs[1].key, "romio_ds_read");
  EXPECT_STREQ(i->info_pairs[1].value, "disable");
  ASSERT_EQ(info(h(0x61), &i), MPIDBG_SUCCESS);
  EXPECT_EQ(i->info_num_pairs, 0);
  EXPECT_EQ(i->info_pairs, nullptr);
  ASSERT_EQ(info(h(0xf05), &i), MPIDBG_SUCCESS);
  EXPECT_EQ(i->info_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_EQ(info(h(0x5a5), &i), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_info_f2c, 1, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x60));
}

TEST_P(HandlesExt, InfoMalformedEntries) {
  Owned<mpidbg_info_info_t> i;
  for (uint64_t n : {0x62u, 0x63u, 0x64u, 0x65u, 0x66u})
    EXPECT_EQ(info(h(n), &i), MPIDBG_ERR_UNAVAILABLE) << std::hex << n;
}

// ---------------- windows ----------------

TEST_P(HandlesExt, WindowEveryField) {
  Owned<mpidbg_win_info_t> w;
  ASSERT_EQ(win(h(0x70), &w), MPIDBG_SUCCESS);
  EXPECT_STREQ(w->win_name, "halo");
  EXPECT_EQ(w->win_bitflags, 0u);
  EXPECT_EQ(w->win_c_handle, h(0x70));
  EXPECT_EQ(w->win_fortran_handle, 9);
  EXPECT_EQ(w->win_flavor, MPIDBG_WIN_ALLOCATE);
  EXPECT_EQ(w->win_comm, h(0x900));
  EXPECT_EQ(w->win_comm_job_id, 0x77u);
  EXPECT_EQ(w->win_comm_size, 4);
  EXPECT_EQ(w->win_base, 0x10000u);
  EXPECT_EQ(w->win_size, 4096);
  EXPECT_EQ(w->win_disp_unit, 8);
  EXPECT_EQ(w->win_access_epoch, MPIDBG_EPOCH_LOCK);
  EXPECT_EQ(w->win_exposure_epoch, MPIDBG_EPOCH_POST);
  EXPECT_EQ(w->win_fence_count, 3u);
  EXPECT_EQ(w->win_rma_count, 17u);
  EXPECT_EQ(w->win_errhandler, h(0x80a));
  EXPECT_EQ(w->win_info, h(0x60));
  EXPECT_EQ(values(w->win_target_locks, w->win_num_target_locks), (std::vector<int>{0, 1, 2, 0}));
  EXPECT_EQ(values(w->win_access_group, w->win_num_access_group), (std::vector<int>{1, 3}));
  EXPECT_EQ(values(w->win_exposure_group, w->win_num_exposure_group), std::vector<int>{2});
  ASSERT_EQ(w->win_num_regions, 2);
  EXPECT_EQ(w->win_regions[0].base, 0x20000u);
  EXPECT_EQ(w->win_regions[0].size, 64);
  EXPECT_EQ(w->win_regions[1].base, 0x30000u);
  EXPECT_EQ(w->win_regions[1].size, 128);
  // Pending: the Rput and the started persistent request; not the inactive one, not
  // the other window's, not the file's.
  EXPECT_EQ(values(w->win_pending_requests, w->win_num_pending_requests),
            (std::vector<mqs_taddr_t>{h(0xa01), h(0xa05)}));
}

TEST_P(HandlesExt, WindowFreedDamagedNull) {
  Owned<mpidbg_win_info_t> w;
  ASSERT_EQ(win(h(0x72), &w), MPIDBG_SUCCESS);
  EXPECT_EQ(w->win_bitflags, MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT);
  EXPECT_EQ(w->win_num_target_locks + w->win_num_access_group + w->win_num_exposure_group +
                w->win_num_regions + w->win_num_pending_requests,
            0);
  EXPECT_EQ(w->win_target_locks, nullptr);
  EXPECT_EQ(w->win_regions, nullptr);
  EXPECT_EQ(w->win_pending_requests, nullptr);
  EXPECT_EQ(win(h(0x71), &w), MPIDBG_ERR_UNAVAILABLE);  // odd number of region values
  ASSERT_EQ(win(h(0xf06), &w), MPIDBG_SUCCESS);
  EXPECT_EQ(w->win_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_STREQ(w->win_name, "MPI_WIN_NULL");
  EXPECT_EQ(win(h(0x5a5), &w), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_win_f2c, 9, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x70));
  // Released by the runtime: gone.
  b_->release(slot_freed_win_);
  republish();
  EXPECT_EQ(win(h(0x72), &w), MPIDBG_ERR_NOT_FOUND);
}

// ---------------- files ----------------

TEST_P(HandlesExt, FileEveryField) {
  Owned<mpidbg_file_info_t> f;
  ASSERT_EQ(file(h(0x80), &f), MPIDBG_SUCCESS);
  EXPECT_STREQ(f->file_name, "/scratch/out.dat");
  EXPECT_EQ(f->file_bitflags, 0u);
  EXPECT_EQ(f->file_c_handle, h(0x80));
  EXPECT_EQ(f->file_fortran_handle, 2);
  EXPECT_EQ(f->file_comm, h(0x900));
  EXPECT_EQ(f->file_comm_job_id, 0x77u);
  EXPECT_EQ(f->file_amode, 0x5);
  EXPECT_EQ(f->file_view_disp, 512);
  EXPECT_EQ(f->file_etype, h(0x02));
  EXPECT_EQ(f->file_filetype, h(0x31));
  EXPECT_STREQ(f->file_datarep, "native");
  EXPECT_EQ(f->file_info, h(0x60));
  EXPECT_EQ(f->file_errhandler, h(0x80b));
  EXPECT_EQ(values(f->file_pending_requests, f->file_num_pending_requests),
            std::vector<mqs_taddr_t>{h(0xa10)});
}

TEST_P(HandlesExt, FileUnterminatedStringsNullUnknown) {
  Owned<mpidbg_file_info_t> f;
  ASSERT_EQ(file(h(0x81), &f), MPIDBG_SUCCESS);
  const size_t name_len = strnlen(f->file_name, sizeof f->file_name);
  EXPECT_GE(name_len, 255u);
  EXPECT_LE(name_len, 256u);
  EXPECT_EQ(std::string(f->file_name, 255), std::string(255, 'x'));
  EXPECT_LT(strnlen(f->file_datarep, sizeof f->file_datarep), sizeof f->file_datarep);
  EXPECT_EQ(f->file_num_pending_requests, 0);
  ASSERT_EQ(file(h(0xf07), &f), MPIDBG_SUCCESS);
  EXPECT_EQ(f->file_bitflags, MPIDBG_HANDLE_NULL);
  EXPECT_EQ(file(h(0x5a5), &f), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_file_f2c, 2, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x80));
}

// ---------------- messages ----------------

TEST_P(HandlesExt, MessageEveryField) {
  Owned<mpidbg_message_info_t> m;
  ASSERT_EQ(message(h(0x90), &m), MPIDBG_SUCCESS);
  EXPECT_EQ(m->msg_bitflags, 0u);
  EXPECT_EQ(m->msg_c_handle, h(0x90));
  EXPECT_EQ(m->msg_fortran_handle, 6);
  EXPECT_EQ(m->msg_comm, h(0x900));
  EXPECT_EQ(m->msg_comm_job_id, 0x77u);
  EXPECT_EQ(m->msg_source, 3);
  EXPECT_EQ(m->msg_source_world, 3);
  EXPECT_EQ(m->msg_tag, 42);
  EXPECT_EQ(m->msg_bytes, 4096);
  EXPECT_EQ(m->msg_creator, MPIDBG_CALL_MPI_Mprobe);
  EXPECT_STREQ(m->msg_creator_name, "MPI_Mprobe");
  ASSERT_EQ(message(h(0x91), &m), MPIDBG_SUCCESS);
  EXPECT_EQ(m->msg_bitflags,
            MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT | MPIDBG_MESSAGE_INFO_RECEIVED);
  EXPECT_STREQ(m->msg_creator_name, "MPI_Improbe");
  ASSERT_EQ(message(h(0x92), &m), MPIDBG_SUCCESS);
  EXPECT_EQ(m->msg_bitflags, MPIDBG_MESSAGE_INFO_NO_PROC);
  EXPECT_EQ(m->msg_source, MPIDBG_RANK_PROC_NULL);
}

TEST_P(HandlesExt, MessageNullNoProcUnknown) {
  Owned<mpidbg_message_info_t> m;
  ASSERT_EQ(message(h(0xf08), &m), MPIDBG_SUCCESS);
  EXPECT_EQ(m->msg_bitflags, MPIDBG_HANDLE_NULL);
  ASSERT_EQ(message(h(0xf09), &m), MPIDBG_SUCCESS);
  EXPECT_EQ(m->msg_bitflags, MPIDBG_HANDLE_PREDEFINED | MPIDBG_MESSAGE_INFO_NO_PROC);
  EXPECT_EQ(m->msg_source, MPIDBG_RANK_PROC_NULL);
  EXPECT_EQ(m->msg_tag, MPIDBG_TAG_ANY);
  EXPECT_EQ(m->msg_bytes, 0);
  EXPECT_EQ(message(h(0x5a5), &m), MPIDBG_ERR_NOT_FOUND);
  mqs_taddr_t c = 0;
  ASSERT_EQ(f2c(api().mpidbg_message_f2c, 6, &c), MPIDBG_SUCCESS);
  EXPECT_EQ(c, h(0x90));
  EXPECT_EQ(f2c(api().mpidbg_message_f2c, 7, &c), MPIDBG_ERR_NOT_FOUND);
}

// ---------------- the process as a whole ----------------

TEST_P(HandlesExt, EveryQueryGivesItsMemoryBack) {
  // Warm the decoded snapshots, then every query and free costs nothing.
  Owned<mpidbg_datatype_info_t> d;
  ASSERT_EQ(datatype(h(0x11), &d), MPIDBG_SUCCESS);
  d.reset();
  const long before = FakeDebugger::live_allocations();
  for (uint64_t n : {0x01u, 0x10u, 0x11u, 0x21u, 0x30u, 0x31u, 0x32u, 0x33u, 0x34u, 0x35u, 0x37u}) {
    datatype(h(n), &d);
    d.reset();
  }
  Owned<mpidbg_group_info_t> g;
  Owned<mpidbg_op_info_t> o;
  Owned<mpidbg_info_info_t> i;
  Owned<mpidbg_win_info_t> w;
  Owned<mpidbg_file_info_t> f;
  Owned<mpidbg_message_info_t> m;
  for (uint64_t n = 0x40; n < 0x44; ++n) group(h(n), &g);
  for (uint64_t n = 0x50; n < 0x53; ++n) op(h(n), &o);
  for (uint64_t n = 0x60; n < 0x67; ++n) info(h(n), &i);
  for (uint64_t n = 0x70; n < 0x73; ++n) win(h(n), &w);
  for (uint64_t n = 0x80; n < 0x82; ++n) file(h(n), &f);
  for (uint64_t n = 0x90; n < 0x93; ++n) message(h(n), &m);
  g.reset();
  o.reset();
  i.reset();
  w.reset();
  f.reset();
  m.reset();
  EXPECT_EQ(FakeDebugger::live_allocations(), before);
}

// Runs `query` with the debugger's allocator failing at each allocation in turn: every
// attempt answers SUCCESS or NO_MEM, and a failed one leaves nothing allocated.
template <typename Query>
void exhaust(Query query) {
  ASSERT_EQ(api().mpidbg_init_once(failing_callbacks()), MPIDBG_SUCCESS);
  ASSERT_EQ(query(), MPIDBG_SUCCESS);  // warm the decoded snapshots
  bool succeeded = false;
  for (long allowed = 0; allowed < 400 && !succeeded; ++allowed) {
    const long before = FakeDebugger::live_allocations();
    g_allocations_left = allowed;
    const int rc = query();
    g_allocations_left = -1;
    if (rc == MPIDBG_SUCCESS) {
      succeeded = true;
    } else {
      ASSERT_EQ(rc, MPIDBG_ERR_NO_MEM) << "with " << allowed << " allocations";
      ASSERT_EQ(FakeDebugger::live_allocations(), before) << "with " << allowed << " allocations";
    }
  }
  EXPECT_TRUE(succeeded);
  ASSERT_EQ(api().mpidbg_init_once(FakeDebugger::basic_callbacks()), MPIDBG_SUCCESS);
}

TEST_P(HandlesExt, OutOfDebuggerMemory) {
  exhaust([&] {
    Owned<mpidbg_datatype_info_t> d;
    return datatype(h(0x11), &d);
  });
  exhaust([&] {
    Owned<mpidbg_group_info_t> g;
    return group(h(0x40), &g);
  });
  exhaust([&] {
    Owned<mpidbg_info_info_t> i;
    return info(h(0x60), &i);
  });
  exhaust([&] {
    Owned<mpidbg_win_info_t> w;
    return win(h(0x70), &w);
  });
  exhaust([&] {
    Owned<mpidbg_file_info_t> f;
    return file(h(0x80), &f);
  });
  exhaust([&] {
    Owned<mpidbg_op_info_t> o;
    return op(h(0x51), &o);
  });
  exhaust([&] {
    Owned<mpidbg_message_info_t> m;
    return message(h(0x90), &m);
  });
}

TEST_P(HandlesExt, DamagedArraysGiveCodesNotCrashes) {
  // Every side array of every record pointed at nothing, made huge, or given the wrong
  // element size, in turn.
  const mpidbg_array damaged[] = {{0x5000, 4, 4}, {0x5000, 0xffffffffu, 4}, {0x5000, 3, 8},
                                  {0x5000, 2, 1}, {~uint64_t{0} - 8, 16, 8}};
  for (const mpidbg_array& bad : damaged) {
    mpidbg_window_record w{};
    w.obj = make_head(h(0x70), 60, "halo");
    w.target_locks = w.access_group = w.exposure_group = w.attached = bad;
    b_->update_window(slot_win_, w);
    mpidbg_datatype_record d = dt(h(0x20), 12, "", MPIDBG_COMBINER_CONTIGUOUS, 16, 16,
                                  MPIDBG_REC_FREED | MPIDBG_REC_RELEASED, 0);
    d.integers = d.addresses = d.types = bad;
    b_->update_datatype(slot_old_, d);
    republish();
    Owned<mpidbg_win_info_t> wi;
    const int wrc = win(h(0x70), &wi);
    EXPECT_TRUE(wrc == MPIDBG_ERR_UNAVAILABLE || wrc == MPIDBG_SUCCESS) << wrc;
    // The orphan is an input of h(0x21): its map is incomplete, the query answers.
    Owned<mpidbg_datatype_info_t> di;
    ASSERT_EQ(datatype(h(0x21), &di), MPIDBG_SUCCESS);
    EXPECT_NE(di->dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE, 0u);
  }
}

TEST_P(HandlesExt, BeforeMpiInit) {
  b_->root.process_state = MPIDBG_PROCESS_BEFORE_INIT;
  republish();
  Owned<mpidbg_datatype_info_t> d;
  EXPECT_EQ(datatype(h(0x11), &d), MPIDBG_ERR_UNAVAILABLE);
  Owned<mpidbg_message_info_t> m;
  EXPECT_EQ(message(h(0x90), &m), MPIDBG_ERR_UNAVAILABLE);
  mqs_taddr_t c = 0;
  EXPECT_EQ(f2c(api().mpidbg_group_f2c, 5, &c), MPIDBG_ERR_UNAVAILABLE);
}

TEST_P(HandlesExt, AnswersFollowTheRuntime) {
  Owned<mpidbg_win_info_t> w;
  ASSERT_EQ(win(h(0x70), &w), MPIDBG_SUCCESS);
  EXPECT_EQ(w->win_fence_count, 3u);
  mpidbg_window_record r{};
  r.obj = make_head(h(0x70), 60, "halo");
  r.fence_count = 4;
  b_->update_window(slot_win_, r);
  republish();
  ASSERT_EQ(win(h(0x70), &w), MPIDBG_SUCCESS);
  EXPECT_EQ(w->win_fence_count, 4u);
  EXPECT_EQ(w->win_num_regions, 0);
}


}  // namespace
}  // namespace mpidbg::test
