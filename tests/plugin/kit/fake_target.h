// fake_target.h — a target process and a debugger, both living in the test process.
//
// FakeTarget is an address space of byte regions at chosen addresses with a symbol
// table, a pointer size (4 or 8) and a byte order. FakeDebugger implements every mqs
// callback over it, the way a real debugger does over a live process or a core, and
// counts what the plugin reads and allocates. ImageBuilder lays out a runtime root,
// slabs and records in the target, writing every field at its offsetof() in records.h
// in the target's byte order.
#ifndef MPIDBG_TESTS_PLUGIN_FAKE_TARGET_H
#define MPIDBG_TESTS_PLUGIN_FAKE_TARGET_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mpidbg/mqs_interface.h"
#include "mpidbg/records.h"

namespace mpidbg::test {

struct TargetKind {
  int pointer_size;  // 4 or 8
  bool big_endian;
  const char* name;
};

class FakeTarget {
 public:
  FakeTarget(int pointer_size, bool big_endian) : pointer_size_(pointer_size), big_endian_(big_endian) {}

  int pointer_size() const { return pointer_size_; }
  bool big_endian() const { return big_endian_; }
  // Whether target numbers must be byte-swapped on this host.
  bool swapped() const;

  // A zero-filled region [addr, addr+size). Regions must not overlap.
  void map(uint64_t addr, size_t size);
  // Raw bytes; false when the range is not wholly inside one region.
  bool write(uint64_t addr, const void* data, size_t len);
  bool read(uint64_t addr, size_t len, void* out);
  // Numbers in the target's byte order.
  void put16(uint64_t addr, uint16_t v);
  void put32(uint64_t addr, uint32_t v);
  void put64(uint64_t addr, uint64_t v);
  uint32_t get32(uint64_t addr);
  uint64_t get64(uint64_t addr);

  // Every region as (start, size), in address order.
  std::vector<std::pair<uint64_t, size_t>> regions() const;

  void add_symbol(const std::string& name, uint64_t addr) { symbols_[name] = addr; }
  void remove_symbol(const std::string& name) { symbols_.erase(name); }
  bool find_symbol(const std::string& name, uint64_t* addr) const;

  // Called before every read the debugger serves (to simulate a target that changes).
  std::function<void(uint64_t addr, size_t len)> on_read;

  uint64_t reads = 0;
  uint64_t bytes_read = 0;
  uint64_t failed_reads = 0;

 private:
  struct Region {
    uint64_t addr;
    std::vector<uint8_t> bytes;
  };
  Region* region_for(uint64_t addr, size_t len);

  int pointer_size_;
  bool big_endian_;
  std::map<uint64_t, Region> regions_;  // by start address
  std::map<std::string, uint64_t> symbols_;
};

// The debugger's side of the callbacks. One image and one process over one target.
class FakeDebugger {
 public:
  explicit FakeDebugger(FakeTarget* target);
  ~FakeDebugger();
  FakeDebugger(const FakeDebugger&) = delete;
  FakeDebugger& operator=(const FakeDebugger&) = delete;

  static const mqs_basic_callbacks* basic_callbacks();
  static const mqs_image_callbacks* image_callbacks();
  static const mqs_process_callbacks* process_callbacks();

  mqs_image* image();
  mqs_process* process();

  FakeTarget* target() const { return target_; }
  mqs_image_info* image_info = nullptr;
  mqs_process_info* process_info = nullptr;
  int global_rank = 0;
  // When true, target_to_host claims the wrong byte order (a confused debugger).
  bool lie_about_byte_order = false;

  // Type names mqs_find_type knows in this image (each answers a distinct non-NULL
  // mqs_type*); every other name is unknown.
  std::vector<std::string> known_types;
  // The mqs_type* mqs_find_type returns for a known name, nullptr otherwise.
  mqs_type* type_handle(const std::string& name) const;

  // Allocation bookkeeping of mqs_malloc / mqs_free across all debuggers.
  static long live_allocations();
  static std::vector<std::string>& log();
  // mqs_malloc fails once this many more allocations have succeeded (-1: never fails).
  static void fail_allocations_after(long n);

 private:
  struct Handle {
    FakeDebugger* owner;
  };
  FakeTarget* target_;
  Handle image_handle_{this};
  Handle process_handle_{this};
  friend FakeDebugger* from_image(mqs_image*);
  friend FakeDebugger* from_process(mqs_process*);
};

// The debugger behind an image or process handle it gave out.
FakeDebugger* from_image(mqs_image* image);
FakeDebugger* from_process(mqs_process* process);

// Lays out a runtime in a FakeTarget. Records are kept as host structures until
// commit() writes everything (root, slabs, records) in the target's format.
class ImageBuilder {
 public:
  struct Options {
    uint32_t slab_capacity = 4;
    uint32_t slab_header_size = 64;  // more than sizeof(mpidbg_slab): readers must honour it
    uint32_t extra_record_bytes = 0; // slots larger than the records (a newer runtime)
    uint32_t root_bytes = sizeof(mpidbg_root);  // mapped bytes of the root (an older runtime: fewer)
    // Slot bytes of thread records before extra_record_bytes, 0 for this build's sizeof;
    // kThreadRecordSizeV1 lays out a layout-1 runtime's thread table (no flight ring).
    uint32_t thread_record_bytes = 0;
  };

  ImageBuilder(FakeTarget* target, uint64_t base);
  ImageBuilder(FakeTarget* target, uint64_t base, Options options);

  mpidbg_root root{};
  uint64_t root_addr() const { return root_addr_; }

  // Returns the slot address the record will live at. A record's hdr.kind is set from
  // the table; hdr.size and hdr.seq are filled at commit() when left zero.
  uint64_t add_comm(const mpidbg_comm_record& rec);
  uint64_t add_op(const mpidbg_operation_record& rec);
  uint64_t add_thread(const mpidbg_thread_record& rec);
  uint64_t add_group(const mpidbg_group_record& rec);
  uint64_t add_datatype(const mpidbg_datatype_record& rec);
  uint64_t add_reduce_op(const mpidbg_reduce_op_record& rec);
  uint64_t add_errhandler(const mpidbg_errhandler_record& rec);
  uint64_t add_info(const mpidbg_info_record& rec);
  uint64_t add_window(const mpidbg_window_record& rec);
  uint64_t add_file(const mpidbg_file_record& rec);
  uint64_t add_message(const mpidbg_message_record& rec);
  uint64_t add_session(const mpidbg_session_record& rec);
  uint64_t add_partition(const mpidbg_partition_record& rec);
  // Frees a slot (kind FREE) as the runtime does on release (any table).
  void release(uint64_t slot_addr);
  // Replaces the record at a slot.
  void update_comm(uint64_t slot_addr, const mpidbg_comm_record& rec);
  void update_op(uint64_t slot_addr, const mpidbg_operation_record& rec);
  void update_thread(uint64_t slot_addr, const mpidbg_thread_record& rec);
  void update_group(uint64_t slot_addr, const mpidbg_group_record& rec);
  void update_datatype(uint64_t slot_addr, const mpidbg_datatype_record& rec);
  void update_reduce_op(uint64_t slot_addr, const mpidbg_reduce_op_record& rec);
  void update_errhandler(uint64_t slot_addr, const mpidbg_errhandler_record& rec);
  void update_info(uint64_t slot_addr, const mpidbg_info_record& rec);
  void update_window(uint64_t slot_addr, const mpidbg_window_record& rec);
  void update_file(uint64_t slot_addr, const mpidbg_file_record& rec);
  void update_message(uint64_t slot_addr, const mpidbg_message_record& rec);
  void update_session(uint64_t slot_addr, const mpidbg_session_record& rec);
  void update_partition(uint64_t slot_addr, const mpidbg_partition_record& rec);

  // Side arrays in the target's byte order; each returns the first element's address
  // (a mapped region even when empty).
  uint64_t add_int32_array(const std::vector<int32_t>& values);
  uint64_t add_int64_array(const std::vector<int64_t>& values);
  uint64_t add_uint64_array(const std::vector<uint64_t>& values);
  uint64_t add_bytes(const void* data, size_t len);
  // The same, as the mpidbg_array a record stores ({0, 0, elem_size} when empty, as the
  // runtime writes an empty array).
  mpidbg_array int32_side_array(const std::vector<int32_t>& values);
  mpidbg_array int64_side_array(const std::vector<int64_t>& values);
  mpidbg_array uint64_side_array(const std::vector<uint64_t>& values);
  mpidbg_array bytes_side_array(const void* data, size_t len);
  // Info entries as the runtime stores them: key NUL value NUL per pair.
  mpidbg_array info_entries(const std::vector<std::pair<std::string, std::string>>& pairs);
  // The launcher/PMI view; sets root.launch.
  uint64_t add_launch(const mpidbg_launch_info& info);
  // An MPI_T catalogue; sets root.mpit. Strings are offsets into `strings`.
  struct MpitImage {
    uint32_t seq = 2;
    uint64_t refreshes = 1;
    std::vector<mpidbg_mpit_cvar> cvars;
    std::vector<mpidbg_mpit_pvar> pvars;
    std::vector<mpidbg_mpit_category> categories;
    std::vector<int32_t> members;
    std::string strings;
  };
  uint64_t add_mpit(const MpitImage& image);
  // The traffic block (counters in slots 0.., a send log of `log_capacity` slots holding
  // `logged` as the sends log_head - logged.size() .. log_head - 1); sets root.traffic.
  uint64_t add_traffic(const std::vector<mpidbg_traffic_entry>& entries, uint32_t capacity,
                       const std::vector<mpidbg_send_log_entry>& logged, uint32_t log_capacity,
                       uint64_t log_head);
  uint64_t add_handle_array(const std::vector<uint64_t>& values, uint32_t handle_size);

  // A thread's flight ring (records.h, mpidbg_flight_entry): `capacity` entries of
  // `entry_size` bytes, zero but for `posts`, each written at entry position %
  // capacity with seq 2 * (position + 1) unless the test set a seq of its own. Returns
  // the ring's address, for the thread record's flight_entries.
  struct FlightPost {
    uint64_t position;  // the post's number in its thread (flight_head counts them)
    mpidbg_flight_entry entry;
  };
  uint64_t add_flight_ring(uint32_t capacity, const std::vector<FlightPost>& posts,
                           uint32_t entry_size = sizeof(mpidbg_flight_entry));

  // A thread's live words (records.h, mpidbg_thread_live), in a region of their own of
  // `bytes` (fewer than sizeof: an older runtime's block, mapped only that far);
  // returns the address for the thread record's `live` (whose live_size the test sets).
  // The thread writes them without stepping the generation: tests change them in place
  // with encode_thread_live.
  uint64_t add_thread_live(const mpidbg_thread_live& live,
                           uint32_t bytes = sizeof(mpidbg_thread_live));

  // The monitoring block (records.h, mpidbg_monitor); sets root.monitor and returns the
  // block's address. Zero sizes in `header` are filled with this build's sizeof; a zero
  // world_size / file_capacity / mpit_peer_count is taken from the vectors. Array
  // addresses in `header` are overwritten with the arrays laid out here (an empty
  // baseline vector: a zero-filled baseline array of the same length).
  struct MonitorImage {
    mpidbg_monitor header{};
    std::vector<mpidbg_monitor_peer> accumulated;
    std::vector<mpidbg_monitor_peer> baseline;
    std::vector<mpidbg_monitor_file> accumulated_files;
    std::vector<mpidbg_monitor_file> baseline_files;
    std::vector<mpidbg_monitor_mpit_peer> mpit_peers;
  };
  uint64_t add_monitor(const MonitorImage& image);
  // The sampling block (mpidbg_profile); sets root.profile. Sizes and counts as above:
  // function_count from `functions`, site_capacity from `sites` when left zero.
  struct ProfileImage {
    mpidbg_profile header{};
    std::vector<mpidbg_profile_function> functions;
    std::vector<mpidbg_profile_site> sites;
  };
  uint64_t add_profile(const ProfileImage& image);

  // Writes root and tables; bumps nothing by itself (set root.generation as wanted).
  void commit();

  // Slab addresses of a table, in chain order (for corruption tests).
  std::vector<uint64_t> slabs(uint32_t kind) const;
  uint32_t record_size(uint32_t kind) const;

  static void encode_root(FakeTarget* t, uint64_t addr, const mpidbg_root& r);
  static void encode_comm(FakeTarget* t, uint64_t addr, const mpidbg_comm_record& r);
  static void encode_op(FakeTarget* t, uint64_t addr, const mpidbg_operation_record& r);
  static void encode_thread(FakeTarget* t, uint64_t addr, const mpidbg_thread_record& r);
  static void encode_flight_entry(FakeTarget* t, uint64_t addr, const mpidbg_flight_entry& r);
  static void encode_thread_live(FakeTarget* t, uint64_t addr, const mpidbg_thread_live& r);
  static void encode_array(FakeTarget* t, uint64_t addr, const mpidbg_array& r);
  static void encode_object_head(FakeTarget* t, uint64_t addr, const mpidbg_object_head& r);
  static void encode_group(FakeTarget* t, uint64_t addr, const mpidbg_group_record& r);
  static void encode_datatype(FakeTarget* t, uint64_t addr, const mpidbg_datatype_record& r);
  static void encode_reduce_op(FakeTarget* t, uint64_t addr, const mpidbg_reduce_op_record& r);
  static void encode_errhandler(FakeTarget* t, uint64_t addr, const mpidbg_errhandler_record& r);
  static void encode_info(FakeTarget* t, uint64_t addr, const mpidbg_info_record& r);
  static void encode_window(FakeTarget* t, uint64_t addr, const mpidbg_window_record& r);
  static void encode_file(FakeTarget* t, uint64_t addr, const mpidbg_file_record& r);
  static void encode_message(FakeTarget* t, uint64_t addr, const mpidbg_message_record& r);
  static void encode_session(FakeTarget* t, uint64_t addr, const mpidbg_session_record& r);
  static void encode_partition(FakeTarget* t, uint64_t addr, const mpidbg_partition_record& r);
  static void encode_monitor(FakeTarget* t, uint64_t addr, const mpidbg_monitor& r);
  static void encode_monitor_peer(FakeTarget* t, uint64_t addr, const mpidbg_monitor_peer& r);
  static void encode_monitor_file(FakeTarget* t, uint64_t addr, const mpidbg_monitor_file& r);
  static void encode_monitor_mpit_peer(FakeTarget* t, uint64_t addr,
                                       const mpidbg_monitor_mpit_peer& r);
  static void encode_profile(FakeTarget* t, uint64_t addr, const mpidbg_profile& r);
  static void encode_profile_site(FakeTarget* t, uint64_t addr, const mpidbg_profile_site& r);

  // Every record kind of records.h, in table order.
  static constexpr uint32_t kKinds[] = {
      MPIDBG_KIND_COMM,     MPIDBG_KIND_OPERATION,         MPIDBG_KIND_THREAD, MPIDBG_KIND_GROUP,
      MPIDBG_KIND_DATATYPE, MPIDBG_KIND_REDUCE_OP,  MPIDBG_KIND_ERRHANDLER,
      MPIDBG_KIND_INFO,     MPIDBG_KIND_WINDOW,     MPIDBG_KIND_FILE,   MPIDBG_KIND_MESSAGE,
      MPIDBG_KIND_SESSION,  MPIDBG_KIND_PARTITIONS};
  static constexpr uint32_t kKindCount = MPIDBG_KIND_PARTITIONS + 1;

 private:
  // One record slot; `kind` says which member is the record (a slot belongs to one
  // table, so one member per slot is ever used).
  struct Slot {
    Slot() { std::memset(static_cast<void*>(this), 0, sizeof *this); }
    uint32_t kind;
    union {
      mpidbg_comm_record comm;
      mpidbg_operation_record op;
      mpidbg_thread_record thread;
      mpidbg_group_record group;
      mpidbg_datatype_record datatype;
      mpidbg_reduce_op_record reduce_op;
      mpidbg_errhandler_record errhandler;
      mpidbg_info_record info;
      mpidbg_window_record window;
      mpidbg_file_record file;
      mpidbg_message_record message;
      mpidbg_session_record session;
      mpidbg_partition_record partition;
    };
    mpidbg_record_header* header();
  };
  struct Table {
    uint32_t kind;
    uint32_t record_size;
    std::vector<uint64_t> slab_addrs;
    std::vector<Slot> slots;  // slot i lives in slab i / capacity
    size_t free_hint = 0;     // no slot below this index is free
  };
  uint64_t alloc(size_t size);
  Table& table(uint32_t kind);
  const Table& table(uint32_t kind) const;
  uint64_t slot_addr(const Table& t, size_t i) const;
  size_t add_slot(Table& t);
  Slot* find_slot(uint64_t slot_addr, Table** table_out = nullptr);
  Slot& new_record(uint32_t kind, uint64_t* addr);
  void encode_slot(FakeTarget* t, uint64_t at, const Slot& slot);
  Slot& slot_of_kind(uint64_t slot_addr, uint32_t kind);
  uint64_t add_array_bytes(const std::vector<uint8_t>& bytes);

  FakeTarget* target_;
  Options options_;
  uint64_t next_;
  uint64_t root_addr_;
  Table tables_[kKindCount];  // by kind; [0] unused
};

// The table field of the root for a record kind (nullptr for MPIDBG_KIND_FREE or an
// unknown kind).
mpidbg_table* root_table(mpidbg_root* root, uint32_t kind);
// sizeof the record structure of a kind (0 for an unknown kind).
size_t record_struct_size(uint32_t kind);

// Records with the fields a test usually sets; the rest zero.
mpidbg_comm_record make_comm(uint64_t handle, uint64_t job_id, int32_t rank, int32_t size,
                             uint64_t world_ranks, uint64_t create_serial, const char* name);
mpidbg_operation_record make_op(int32_t call, int32_t direction, uint64_t comm_handle,
                         uint64_t comm_job_id, uint64_t post_serial, int32_t peer,
                         int32_t peer_world, int32_t tag);
// An object head with a handle, creation order and name; fortran_index -1.
mpidbg_object_head make_head(uint64_t handle, uint64_t create_serial, const char* name);
// A POSTED flight ring entry with the fields a test usually sets (seq left to
// add_flight_ring); a send's mode is STANDARD.
mpidbg_flight_entry make_flight_entry(int32_t call, int32_t direction, uint64_t comm_handle,
                                      uint64_t comm_job_id, uint64_t post_serial, int32_t peer,
                                      int32_t peer_world, int32_t tag);

// The bytes of a layout-1 thread record: everything before the flight ring fields.
constexpr uint32_t kThreadRecordSizeV1 = offsetof(mpidbg_thread_record, flight_entries);
// The bytes of a thread record written before live_size (its live words end before op).
constexpr uint32_t kThreadRecordSizeBeforeLiveSize = offsetof(mpidbg_thread_record, live_size);

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_FAKE_TARGET_H
