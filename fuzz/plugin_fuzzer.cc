// plugin_fuzzer.cc — libFuzzer harness: the plugin over a damaged runtime image.
//
// Each input builds the main test scenario (tests/plugin/kit/scenario.h) in a fresh fake
// target, damages it, and drives the whole debugger call sequence over it. The plugin
// must answer every call with a code and never crash, read out of bounds, loop, leak
// debugger memory or write past a caller's buffer (AddressSanitizer sees all of it: the
// plugin is linked in statically and every caller buffer is its own heap block of the
// exact size the call may fill).
//
// Input format:
//   byte 0  target kind: bit 0 pointer size (0: 8, 1: 4), bit 1 big endian,
//           bit 2 8-byte MPI handles (Open MPI-like) instead of 4-byte ones
//   byte 1  session options, see kOpt* below
//           (after the message-queue session, a handle-interface session queries every
//           handle of the image: communicators, requests, statuses and objects of every
//           kind, whose tables the image also holds)
//   byte 2  caller structure size variant: 0 full size, else a truncated size
//   then    mutation commands until the input ends (see apply_command):
//     cmd   bits 0-2 operation, bits 3-4 width for kOpInteresting,
//           bit 7 deferred: applied only when the target has served `trigger` reads
//           (a live target changing under the debugger)
//     [trigger]  one byte (a read count), only when deferred
//     region     one byte, index into the target's regions (root first)
//     offset     two bytes, modulo the region's size
//     operands   depend on the operation
//
// Set MPIDBG_FUZZ_WRITE_SEEDS=<dir> to write a small seed corpus and exit.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "fake_target.h"
#include "mpidbg/mpidbg_ext.h"
#include "mpidbg/mpidbg_handles.h"
#include "mpidbg/mqs_interface.h"
#include "result_freeing.h"
#include "scenario.h"

namespace {

using mpidbg::test::FakeDebugger;
using mpidbg::test::free_comm_members;
using mpidbg::test::free_name_map;
using mpidbg::test::set_status_layout;
using mpidbg::test::touch_array;
using mpidbg::test::touch_string;
using mpidbg::test::FakeTarget;
using mpidbg::test::ImageBuilder;
using mpidbg::test::Scenario;
using mpidbg::test::TargetKind;

// Budgets of one iteration. A healthy scenario takes a few hundred reads.
constexpr uint64_t kReadBudget = 100000;
constexpr uint64_t kLiveBytesBudget = uint64_t{320} << 20;  // above the plugin's 256 MiB walk cap
constexpr int kIterationCap = 100000;  // iterator steps before we call it a loop
constexpr int64_t kMaxGroupBuffer = int64_t{1} << 20;  // ints we hand to mqs_get_comm_group

// Session options (byte 1).
constexpr uint8_t kOptLieAboutByteOrder = 1 << 0;
constexpr uint8_t kOptDropRootSymbol = 1 << 1;
constexpr uint8_t kOptMoveRootSymbol = 1 << 2;   // to another region's offset
constexpr uint8_t kOptExtBeforeUpdate = 1 << 3;  // extension calls before any update
constexpr uint8_t kOptSecondStop = 1 << 4;       // update and walk again
constexpr uint8_t kOptGlobalRankOdd = 1 << 5;
constexpr uint8_t kOptHandlesShareInfos = 1 << 6;  // handle session on the mqs side's infos

enum Op : uint8_t {
  kOpByte = 0,        // operand: 1 byte
  kOpWord16 = 1,      // operand: 2 bytes, stored in target byte order
  kOpWord32 = 2,      // operand: 4 bytes
  kOpWord64 = 3,      // operand: 8 bytes
  kOpAddress = 4,     // operands: region byte, 2 offset bytes -> that address, 8 bytes
  kOpInteresting = 5, // operand: index into kInteresting, width from cmd bits 3-4
  kOpFlip = 6,        // operand: xor mask byte
  kOpRaw = 7,         // operands: length byte, then that many raw bytes
};

constexpr uint64_t kInteresting[] = {
    0,          1,          2,          3,          4,          7,          8,
    63,         64,         0x7f,       0x80,       0xff,       0x100,      0x7fff,
    0x8000,     0xffff,     0x10000,    0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
    ~uint64_t{0}, ~uint64_t{0} - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1,
    MPIDBG_ROOT_MAGIC, MPIDBG_SLAB_MAGIC, 0xfffffffe, 0xfffffffd,
    static_cast<uint64_t>(-2), static_cast<uint64_t>(-3),
};

// ---- debugger memory, counted per iteration -------------------------------------------

struct Counters {
  long comms = 0;       // walked, for MPIDBG_FUZZ_VERBOSE
  long operations = 0;
  long threads = 0;
  long live_blocks = 0;
  uint64_t live_bytes = 0;
  uint64_t dprints = 0;
};
Counters g_mem;

constexpr size_t kAllocHeader = 16;  // keeps the caller's block 16-byte aligned

void* fz_malloc(size_t size) {
  if (size > kLiveBytesBudget || g_mem.live_bytes + size > kLiveBytesBudget) {
    std::fprintf(stderr, "plugin_fuzzer: debugger memory budget exceeded (%zu bytes asked, %llu live)\n",
                 size, static_cast<unsigned long long>(g_mem.live_bytes));
    std::abort();
  }
  auto* block = static_cast<uint8_t*>(std::malloc(size + kAllocHeader));
  if (block == nullptr) return nullptr;
  std::memcpy(block, &size, sizeof size);
  ++g_mem.live_blocks;
  g_mem.live_bytes += size;
  return block + kAllocHeader;
}

void fz_free(void* p) {
  if (p == nullptr) return;
  uint8_t* block = static_cast<uint8_t*>(p) - kAllocHeader;
  size_t size;
  std::memcpy(&size, block, sizeof size);
  --g_mem.live_blocks;
  g_mem.live_bytes -= size;
  std::free(block);
}

// The fake debugger's log keeps every line; here we only count them.
void fz_dprints(const char* text) {
  if (text == nullptr) std::abort();
  ++g_mem.dprints;
  (void)std::strlen(text);  // must be a valid string
}

mqs_basic_callbacks make_basic_callbacks() {
  mqs_basic_callbacks cb = *FakeDebugger::basic_callbacks();
  cb.mqs_malloc_fp = fz_malloc;
  cb.mqs_free_fp = fz_free;
  cb.mqs_dprints_fp = fz_dprints;
  return cb;
}

// ---- input ------------------------------------------------------------------------------

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint64_t bytes(int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t{u8()} << (8 * i);
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// ---- mutations --------------------------------------------------------------------------

struct Write {
  uint64_t addr;
  std::vector<uint8_t> bytes;
};

// `v` as `width` bytes in the target's byte order.
std::vector<uint8_t> encode(uint64_t v, int width, bool big_endian) {
  std::vector<uint8_t> out(static_cast<size_t>(width));
  for (int i = 0; i < width; ++i) {
    const uint8_t b = static_cast<uint8_t>(v >> (8 * i));
    out[static_cast<size_t>(big_endian ? width - 1 - i : i)] = b;
  }
  return out;
}

uint64_t pick_address(const std::vector<std::pair<uint64_t, size_t>>& regions, uint8_t r, uint16_t off) {
  const auto& [start, size] = regions[r % regions.size()];
  return start + (size == 0 ? 0 : off % size);
}

// One command into a write; false when the input ran out.
bool read_command(Input& in, FakeTarget& t, const std::vector<std::pair<uint64_t, size_t>>& regions,
                  Write* w, bool* deferred, uint64_t* trigger) {
  if (in.empty()) return false;
  const uint8_t cmd = in.u8();
  *deferred = (cmd & 0x80) != 0;
  *trigger = *deferred ? uint64_t{in.u8()} : 0;
  const uint8_t region = in.u8();
  const uint16_t offset = in.u16();
  w->addr = pick_address(regions, region, offset);
  const bool be = t.big_endian();
  switch (static_cast<Op>(cmd & 7)) {
    case kOpByte: w->bytes = {in.u8()}; break;
    case kOpWord16: w->bytes = encode(in.bytes(2), 2, be); break;
    case kOpWord32: w->bytes = encode(in.bytes(4), 4, be); break;
    case kOpWord64: w->bytes = encode(in.bytes(8), 8, be); break;
    case kOpAddress: {
      const uint8_t r2 = in.u8();
      const uint16_t o2 = in.u16();
      w->bytes = encode(pick_address(regions, r2, o2), 8, be);
      break;
    }
    case kOpInteresting: {
      constexpr size_t n = sizeof kInteresting / sizeof kInteresting[0];
      const int width = 1 << ((cmd >> 3) & 3);
      w->bytes = encode(kInteresting[in.u8() % n], width, be);
      break;
    }
    case kOpFlip: {
      uint8_t cur = 0;
      const uint8_t mask = in.u8();
      const uint64_t saved_reads = t.reads;
      const uint64_t saved_failed = t.failed_reads;
      if (t.read(w->addr, 1, &cur)) cur ^= mask;
      t.reads = saved_reads;  // not a plugin read
      t.failed_reads = saved_failed;
      w->bytes = {cur};
      break;
    }
    case kOpRaw: {
      const uint8_t len = in.u8();
      for (uint8_t i = 0; i < len && !in.empty(); ++i) w->bytes.push_back(in.u8());
      break;
    }
  }
  return true;
}

// Writes that run past a region are cut to what fits.
void apply(FakeTarget& t, const Write& w) {
  for (size_t n = w.bytes.size(); n > 0; --n) {
    if (t.write(w.addr, w.bytes.data(), n)) return;
  }
}

// ---- caller-sized structures ------------------------------------------------------------

// A structure in a heap block of exactly `size` bytes, so a write past the size the
// caller declared is an ASan report.
template <typename T>
class Sized {
 public:
  explicit Sized(uint32_t size) : size_(size < 4 ? 4 : size), block_(new uint8_t[size_]) {
    std::memset(block_.get(), 0xa5, size_);
    std::memcpy(block_.get(), &size_, sizeof size_);
  }
  T* get() { return reinterpret_cast<T*>(block_.get()); }
  // The leading fields the plugin filled, read without overrunning.
  T value() const {
    T v;
    std::memset(&v, 0, sizeof v);
    std::memcpy(&v, block_.get(), size_ < sizeof v ? size_ : sizeof v);
    return v;
  }

 private:
  uint32_t size_;
  std::unique_ptr<uint8_t[]> block_;
};

// Full size, or a truncated one chosen by the input (older caller).
template <typename T>
uint32_t caller_size(uint8_t variant) {
  if (variant == 0) return sizeof(T);
  return 4 + variant % (sizeof(T) - 3);
}

// ---- the debugger's call sequence -------------------------------------------------------

void group_call(mqs_process* p, int64_t n, bool remote) {
  if (n < 0 || n > kMaxGroupBuffer) n = 0;  // a debugger bounds its buffer too
  std::unique_ptr<int[]> ranks(new int[static_cast<size_t>(n)]);
  if (remote) {
    (void)mpidbg_comm_get_remote_group(p, ranks.get());
    // The other job's ranks, when the detail says there is one: remote_size ints too.
    (void)mpidbg_comm_get_remote_job_group(p, ranks.get());
  } else {
    (void)mqs_get_comm_group(p, ranks.get());
  }
}

// Room for a few neighbours only (variant 0: none), so the full counts exceed it.
void neighbors_call(mqs_process* p, uint8_t variant) {
  int room = variant % 5;
  int sources[4], destinations[4];
  int ns = -1, nd = -1;
  if (mpidbg_comm_get_neighbors(p, room, sources, &ns, room, destinations, &nd) == mqs_ok &&
      (ns < 0 || nd < 0)) {
    std::fprintf(stderr, "plugin_fuzzer: negative neighbour count\n");
    std::abort();
  }
}

void drain_operations(mqs_process* p, int op_class, uint8_t variant) {
  if (mqs_setup_operation_iterator(p, op_class) != mqs_ok) return;
  for (int i = 0;; ++i) {
    if (i >= kIterationCap) {
      std::fprintf(stderr, "plugin_fuzzer: operation iterator (class %d) does not end\n", op_class);
      std::abort();
    }
    mqs_pending_operation op;
    const int rc = mqs_next_operation(p, &op);
    if (rc != mqs_ok) break;
    ++g_mem.operations;
    Sized<mpidbg_operation_info> info(caller_size<mpidbg_operation_info>(variant));
    (void)mpidbg_operation_get_detail(p, info.get());
  }
  // Past the end.
  mqs_pending_operation op;
  (void)mqs_next_operation(p, &op);
  Sized<mpidbg_operation_info> info(caller_size<mpidbg_operation_info>(variant));
  (void)mpidbg_operation_get_detail(p, info.get());
}

void walk_communicators(mqs_process* p, uint8_t variant) {
  if (mqs_update_communicator_list(p) != mqs_ok) {
    // A debugger still calls on; each must answer with a code.
    (void)mqs_setup_communicator_iterator(p);
    mqs_communicator c;
    (void)mqs_get_communicator(p, &c);
    return;
  }
  if (mqs_setup_communicator_iterator(p) != mqs_ok) return;
  for (int i = 0;; ++i) {
    if (i >= kIterationCap) {
      std::fprintf(stderr, "plugin_fuzzer: communicator iterator does not end\n");
      std::abort();
    }
    mqs_communicator comm;
    if (mqs_get_communicator(p, &comm) != mqs_ok) break;
    ++g_mem.comms;
    group_call(p, comm.size, false);
    Sized<mpidbg_comm_detail> detail(caller_size<mpidbg_comm_detail>(variant));
    if (mpidbg_comm_get_detail(p, detail.get()) == mqs_ok) {
      const mpidbg_comm_detail d = detail.value();
      if (variant == 0 && d.inter) group_call(p, d.remote_size, true);
    }
    neighbors_call(p, variant);
    drain_operations(p, mqs_pending_sends, variant);
    drain_operations(p, mqs_pending_receives, variant);
    drain_operations(p, mqs_unexpected_messages, variant);
    (void)mqs_setup_operation_iterator(p, 3);   // not a class
    (void)mqs_setup_operation_iterator(p, -1);
    if (mqs_next_communicator(p) != mqs_ok) break;
  }
  // Past the end of the communicator list.
  mqs_communicator comm;
  (void)mqs_get_communicator(p, &comm);
  group_call(p, 0, false);  // no communicator: nothing may be written
  (void)mqs_next_communicator(p);
  (void)mqs_setup_operation_iterator(p, mqs_pending_sends);
  mqs_pending_operation op;
  (void)mqs_next_operation(p, &op);
  Sized<mpidbg_comm_detail> detail(caller_size<mpidbg_comm_detail>(variant));
  (void)mpidbg_comm_get_detail(p, detail.get());
}

// A traffic block (counters and a wrapped send log) and a flight ring holding sends, so
// mutations reach their decoders.
void add_traffic_block(ImageBuilder& b) {
  std::vector<mpidbg_traffic_entry> entries(3);
  for (size_t i = 0; i < entries.size(); ++i) {
    entries[i].state = i == 1 ? MPIDBG_TRAFFIC_CLAIMED : MPIDBG_TRAFFIC_READY;
    entries[i].comm_job_id = 0x77;
    entries[i].peer = static_cast<int32_t>(i);
    entries[i].peer_world = static_cast<int32_t>(i);
    entries[i].tag = 5;
    entries[i].sends = 2 + i;
    entries[i].receives = i;
  }
  std::vector<mpidbg_send_log_entry> logged(3);
  for (size_t i = 0; i < logged.size(); ++i) {
    logged[i].seq = 2;
    logged[i].call = MPIDBG_CALL_MPI_Send;
    logged[i].comm_job_id = 0x77;
    logged[i].ordinal = i + 1;
    logged[i].peer = 2;
    logged[i].tag = 5;
  }
  b.add_traffic(entries, 4, logged, 2, 5);
  // A thread whose flight ring wrapped around: a POSTED and a DONE send (sends logged in
  // the ring, and one pending operation) and a POSTED receive.
  std::vector<ImageBuilder::FlightPost> posts;
  for (uint64_t position = 3; position < 6; ++position) {
    mpidbg_flight_entry e{};
    e.state = position == 4 ? MPIDBG_FLIGHT_DONE : MPIDBG_FLIGHT_POSTED;
    e.direction = position == 5 ? MPIDBG_OPERATION_RECV : MPIDBG_OPERATION_SEND;
    e.call = position == 5 ? MPIDBG_CALL_MPI_Irecv : MPIDBG_CALL_MPI_Isend;
    e.comm_job_id = 0x77;
    e.peer = 2;
    e.tag = 5;
    e.post_serial = 90 + position;
    e.ordinal = position == 5 ? 0 : position;
    posts.push_back({position, e});
  }
  mpidbg_thread_record t{};
  t.tid = 4242;
  t.root = -1;
  t.flight_entries = b.add_flight_ring(4, posts);
  t.flight_head = 6;
  t.flight_capacity = 4;
  t.flight_entry_size = sizeof(mpidbg_flight_entry);
  // Its live words say it is in MPI_Irecv (a call that returns by itself), so mutations
  // reach the live read and the merge.
  mpidbg_thread_live live{};
  live.state = MPIDBG_THREAD_IN_MPI;
  live.call = MPIDBG_CALL_MPI_Irecv;
  live.entry_time_ns = 1700000000000000000;
  live.comm_job_id = 0x77;
  live.calls = 6;
  t.live = b.add_thread_live(live);
  t.live_size = sizeof(mpidbg_thread_live);
  b.add_thread(t);
  // A thread blocked in MPI_Send below MPI_THREAD_MULTIPLE: its record says NOT_IN_MPI,
  // its live words name the call and the ring entry of its envelope (request 0), so
  // mutations reach live_size, the op merge and the thread's operation.
  mpidbg_flight_entry send{};
  send.state = MPIDBG_FLIGHT_POSTED;
  send.direction = MPIDBG_OPERATION_SEND;
  send.call = MPIDBG_CALL_MPI_Send;
  send.comm_job_id = 0x77;
  send.peer = 2;
  send.tag = 5;
  send.post_serial = 97;
  send.ordinal = 4;
  mpidbg_thread_record blocked{};
  blocked.tid = 4243;
  blocked.root = -1;
  blocked.flight_entries = b.add_flight_ring(4, {{0, send}});
  blocked.flight_head = 1;
  blocked.flight_capacity = 4;
  blocked.flight_entry_size = sizeof(mpidbg_flight_entry);
  mpidbg_thread_live in_send{};
  in_send.state = MPIDBG_THREAD_BLOCKED;
  in_send.call = MPIDBG_CALL_MPI_Send;
  in_send.entry_time_ns = 1700000000000000000;
  in_send.comm_job_id = 0x77;
  in_send.calls = 2;
  in_send.op = blocked.flight_entries;
  blocked.live = b.add_thread_live(in_send);
  blocked.live_size = sizeof(mpidbg_thread_live);
  b.add_thread(blocked);
  b.commit();
}

void traffic_calls(mqs_process* p, uint8_t variant) {
  Sized<mpidbg_traffic_summary> summary(caller_size<mpidbg_traffic_summary>(variant));
  int entries = 0, logged = 0;
  if (mpidbg_traffic_read(p, summary.get()) == mqs_ok && summary.value().size >= sizeof(mpidbg_traffic_summary)) {
    entries = summary.value().entries;
    logged = summary.value().logged_sends;
  }
  if (entries < 0 || entries > (1 << 20) || logged < 0 || logged > (1 << 20)) {
    std::fprintf(stderr, "plugin_fuzzer: traffic counts %d/%d out of bounds\n", entries, logged);
    std::abort();
  }
  if (entries > 4096) entries = 4096;
  if (logged > 4096) logged = 4096;
  for (int i = -1; i <= entries; ++i) {
    Sized<mpidbg_traffic_info> info(caller_size<mpidbg_traffic_info>(variant));
    (void)mpidbg_traffic_get(p, i, info.get());
  }
  for (int i = -1; i <= logged; ++i) {
    Sized<mpidbg_logged_send_info> info(caller_size<mpidbg_logged_send_info>(variant));
    (void)mpidbg_logged_send_get(p, i, info.get());
  }
  (void)mpidbg_traffic_read(p, nullptr);
}

// A monitoring block (peers, files, the MPI's own counters) and a sampling block (functions
// and an open-addressing site table) so mutations reach their decoders.
void add_monitor_and_profile_blocks(ImageBuilder& b) {
  ImageBuilder::MonitorImage m;
  m.header.active = 1;
  m.header.reset_seq = 2;
  m.header.mpit_state = MPIDBG_MONITOR_MPIT_READ;
  std::strcpy(m.header.mpit_reason, "pml_monitoring_messages_count");
  m.header.accumulated_coll[MPIDBG_COLL_ALL_TO_ALL].operations = 3;
  m.header.baseline_coll[MPIDBG_COLL_ALL_TO_ALL].operations = 1;
  m.accumulated.resize(4);
  m.baseline.resize(4);
  for (size_t i = 0; i < m.accumulated.size(); ++i) {
    m.accumulated[i].sent_messages = 2 * i;
    m.accumulated[i].sent_bytes = 16 * i;
    m.accumulated[i].sent_histogram[4] = 2 * i;
    m.baseline[i].sent_messages = i;
  }
  m.accumulated_files.resize(3);
  m.baseline_files.resize(3);
  m.accumulated_files[0].state = MPIDBG_MONITOR_FILE_READY;
  m.accumulated_files[0].opens = 1;
  std::strcpy(m.accumulated_files[0].name, "out.dat");
  m.accumulated_files[1].state = MPIDBG_MONITOR_FILE_CLAIMED;
  m.accumulated_files[2].state = MPIDBG_MONITOR_FILE_READY;
  std::strcpy(m.accumulated_files[2].name, "in.dat");
  m.mpit_peers.resize(4);
  m.mpit_peers[1].pml_messages = 5;
  b.add_monitor(m);

  ImageBuilder::ProfileImage prof;
  prof.header.active = 1;
  prof.header.period_ns = 1000000;
  prof.functions.resize(MPIDBG_CALL_ID_LIMIT);
  prof.functions[MPIDBG_CALL_MPI_Send] = {3, 0};
  prof.functions[MPIDBG_CALL_MPI_Recv] = {1, 4};
  prof.sites.resize(4);
  prof.sites[0] = {MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Recv, 0x1234, 1, 4};
  prof.sites[1] = {MPIDBG_PROFILE_SITE_CLAIMED, MPIDBG_CALL_MPI_Send, 0x1240, 1, 0};
  prof.sites[3] = {MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Send, 0x1250, 3, 0};
  b.add_profile(prof);
  b.commit();
}

void monitor_calls(mqs_process* p, uint8_t variant) {
  Sized<mpidbg_monitor_summary> summary(caller_size<mpidbg_monitor_summary>(variant));
  int world = 0, files = 0, mpit = 0;
  if (mpidbg_monitor_read(p, summary.get()) == mqs_ok &&
      summary.value().size >= sizeof(mpidbg_monitor_summary)) {
    world = summary.value().world_size;
    files = summary.value().file_count;
    mpit = summary.value().mpit_peer_count;
  }
  if (world < 0 || world > (1 << 22) || files < 0 || files > (1 << 16) || mpit < 0 ||
      mpit > (1 << 22)) {
    std::fprintf(stderr, "plugin_fuzzer: monitoring counts %d/%d/%d out of bounds\n", world, files,
                 mpit);
    std::abort();
  }
  if (world > 4096) world = 4096;  // a debugger would page
  if (mpit > 4096) mpit = 4096;
  for (int which = -1; which <= 2; ++which) {
    for (int r = -1; r <= world; ++r) {
      Sized<mpidbg_monitor_peer_info> info(caller_size<mpidbg_monitor_peer_info>(variant));
      (void)mpidbg_monitor_peer_get(p, r, which, info.get());
    }
    for (int k = -1; k <= MPIDBG_COLL_KINDS; ++k) {
      Sized<mpidbg_monitor_coll_info> info(caller_size<mpidbg_monitor_coll_info>(variant));
      (void)mpidbg_monitor_coll_get(p, k, which, info.get());
    }
    for (int i = -1; i <= files; ++i) {
      Sized<mpidbg_monitor_file_info> info(caller_size<mpidbg_monitor_file_info>(variant));
      (void)mpidbg_monitor_file_get(p, i, which, info.get());
    }
  }
  for (int r = -1; r <= mpit; ++r) {
    Sized<mpidbg_monitor_mpit_peer_info> info(caller_size<mpidbg_monitor_mpit_peer_info>(variant));
    (void)mpidbg_monitor_mpit_peer_get(p, r, info.get());
  }
  for (int k = -1; k <= MPIDBG_COLL_KINDS; ++k) {
    Sized<mpidbg_monitor_coll_info> info(caller_size<mpidbg_monitor_coll_info>(variant));
    (void)mpidbg_monitor_mpit_coll_get(p, k, info.get());
  }
  (void)mpidbg_monitor_read(p, nullptr);
  (void)mpidbg_monitor_peer_get(p, 0, 0, nullptr);
}

void profile_calls(mqs_process* p, uint8_t variant) {
  Sized<mpidbg_profile_summary> summary(caller_size<mpidbg_profile_summary>(variant));
  int functions = 0, sites = 0;
  if (mpidbg_profile_read(p, summary.get()) == mqs_ok &&
      summary.value().size >= sizeof(mpidbg_profile_summary)) {
    functions = summary.value().function_count;
    sites = summary.value().site_count;
  }
  if (functions < 0 || functions > (1 << 12) || sites < 0 || sites > (1 << 20)) {
    std::fprintf(stderr, "plugin_fuzzer: profile counts %d/%d out of bounds\n", functions, sites);
    std::abort();
  }
  if (sites > 4096) sites = 4096;
  uint64_t previous = UINT64_MAX;
  for (int i = -1; i <= functions; ++i) {
    Sized<mpidbg_profile_function_info> info(caller_size<mpidbg_profile_function_info>(variant));
    (void)mpidbg_profile_function_get(p, i, info.get());
  }
  for (int i = -1; i <= sites; ++i) {
    Sized<mpidbg_profile_site_info> info(caller_size<mpidbg_profile_site_info>(variant));
    if (mpidbg_profile_site_get(p, i, info.get()) != mqs_ok || variant != 0) continue;
    // Sites come most samples first.
    const mpidbg_profile_site_info v = info.value();
    const uint64_t n = v.working > UINT64_MAX - v.blocked ? UINT64_MAX : v.working + v.blocked;
    if (n > previous) {
      std::fprintf(stderr, "plugin_fuzzer: profile sites out of order\n");
      std::abort();
    }
    previous = n;
  }
  (void)mpidbg_profile_read(p, nullptr);
}

void extension_calls(mqs_process* p, uint8_t variant) {
  (void)mpidbg_ext_version();
  Sized<mpidbg_process_summary> summary(caller_size<mpidbg_process_summary>(variant));
  (void)mpidbg_process_get_summary(p, summary.get());
  int count = -1;
  if (mpidbg_thread_count(p, &count) != mqs_ok) count = 0;
  if (count < 0 || count > kIterationCap) {
    std::fprintf(stderr, "plugin_fuzzer: thread count %d out of bounds\n", count);
    std::abort();
  }
  for (int i = -1; i <= count; ++i) {  // one before and one past the end
    Sized<mpidbg_thread_info> info(caller_size<mpidbg_thread_info>(variant));
    int waited = 0;
    if (mpidbg_thread_get(p, i, info.get()) == mqs_ok) {
      ++g_mem.threads;
      waited = info.value().waited_count;
    }
    if (waited < 0 || waited > (1 << 22)) waited = 0;
    if (waited > 4096) waited = 4096;  // a debugger would page; the plugin bounds itself
    for (int k = -1; k <= waited; ++k) {
      Sized<mpidbg_operation_info> op(caller_size<mpidbg_operation_info>(variant));
      (void)mpidbg_thread_waited_operation(p, i, k, op.get());
    }
  }
  // Struct sizes a caller should never pass.
  mpidbg_process_summary zero;
  std::memset(&zero, 0, sizeof zero);
  (void)mpidbg_process_get_summary(p, &zero);
  (void)mpidbg_process_get_summary(p, nullptr);
  traffic_calls(p, variant);
  monitor_calls(p, variant);
  profile_calls(p, variant);
}

// ---- the handle interface ----------------------------------------------------------------

// Handles of the image the handle session asks about (beside the scenario's own).
struct HandleSet {
  std::vector<uint64_t> comms, requests, statuses, errhandlers, datatypes, groups, reduce_ops, infos,
      wins, files, messages;
};

mpidbg_object_head head(uint64_t handle, uint64_t serial, uint32_t flags) {
  mpidbg_object_head h = mpidbg::test::make_head(handle, serial, "obj");
  h.hdr.flags = flags;
  h.fortran_index = static_cast<int32_t>(serial);
  return h;
}

// Object records of every kind with their side arrays, a communicator with a topology
// and attributes, the status layout, the null handles and two status variables, so
// mutations reach every decoder of the handle queries.
HandleSet add_handle_objects(Scenario& sc) {
  ImageBuilder& b = *sc.builder;
  const uint32_t hs = sc.handle_size;
  const bool mpich = hs == 4;
  const uint64_t base = hs == 4 ? 0x98000000 : 0x7f5500000000;
  HandleSet set;
  mpidbg_root& r = b.root;
  r.comm_null_handle = base + 0x10;
  r.request_null_handle = base + 0x20;
  r.errhandler_null_handle = base + 0x30;
  r.datatype_null_handle = base + 0x40;
  r.group_null_handle = base + 0x50;
  r.group_empty_handle = base + 0x60;
  r.reduce_op_null_handle = base + 0x70;
  r.info_null_handle = base + 0x80;
  r.win_null_handle = base + 0x90;
  r.file_null_handle = base + 0xa0;
  r.message_null_handle = base + 0xb0;
  r.message_no_proc_handle = base + 0xc0;
  set_status_layout(r, mpich, 8);  // Open MPI: 24 bytes, as status_bytes below
  const uint8_t status_bytes[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  set.statuses = {b.add_bytes(status_bytes, sizeof status_bytes), 0};

  const uint64_t ranks = b.add_int32_array({0, 1, 2, 3});
  mpidbg_comm_record cart = mpidbg::test::make_comm(base + 0x100, 0x8800, 1, 4, ranks, 90, "cart");
  cart.hdr.flags = MPIDBG_COMM_CART;
  cart.topology = MPIDBG_TOPO_CART;
  cart.topo_args = b.int32_side_array({2, 2, 2, 1, 0, 0, 1, 1});
  cart.attributes = b.int64_side_array({77, 0x1234, 0x64400001, 32767});
  cart.errhandler = base + 0x200;
  cart.fortran_index = 90;
  b.add_comm(cart);
  mpidbg_comm_record dist = mpidbg::test::make_comm(base + 0x110, 0x8801, 1, 4, ranks, 91, "");
  dist.hdr.flags = MPIDBG_COMM_DIST_GRAPH;
  dist.topology = MPIDBG_TOPO_DIST_GRAPH;
  dist.topo_args = b.int32_side_array({2, 1, 1, 0, 3, 5, 6, 2, 7, 1});
  b.add_comm(dist);
  mpidbg_comm_record graph = mpidbg::test::make_comm(base + 0x120, 0x8802, 0, 3, ranks, 92, "");
  graph.hdr.flags = MPIDBG_COMM_GRAPH | MPIDBG_REC_FREED;
  graph.topology = MPIDBG_TOPO_GRAPH;
  graph.topo_args = b.int32_side_array({3, 4, 2, 3, 4, 1, 2, 0, 0, 0});
  b.add_comm(graph);
  set.comms = {base + 0x100, base + 0x110, base + 0x120, r.comm_null_handle, 0};

  mpidbg_errhandler_record eh{};
  eh.obj = head(base + 0x200, 40, 0);
  eh.target = MPIDBG_ERRH_COMM;
  eh.function = 0x401000;
  b.add_errhandler(eh);
  eh.obj = head(base + 0x210, 41, MPIDBG_REC_PREDEFINED);
  eh.target = MPIDBG_ERRH_ANY;
  b.add_errhandler(eh);
  set.errhandlers = {base + 0x200, base + 0x210, r.errhandler_null_handle, 0};

  mpidbg_datatype_record contig{};
  contig.obj = head(base + 0x300, 50, MPIDBG_REC_PREDEFINED);
  contig.combiner = MPIDBG_COMBINER_NAMED;
  contig.size = contig.extent = contig.true_extent = 4;
  b.add_datatype(contig);
  mpidbg_datatype_record vec{};
  vec.obj = head(base + 0x310, 51, MPIDBG_TYPE_COMMITTED);
  vec.combiner = MPIDBG_COMBINER_VECTOR;
  vec.integers = b.int32_side_array({3, 2, 4});
  vec.types = b.uint64_side_array({base + 0x300});
  vec.size = 24;
  vec.extent = 40;
  vec.true_extent = 40;
  b.add_datatype(vec);
  mpidbg_datatype_record st{};
  st.obj = head(base + 0x320, 52, 0);
  st.combiner = MPIDBG_COMBINER_STRUCT;
  st.integers = b.int32_side_array({2, 1, 2});
  st.addresses = b.int64_side_array({0, 8});
  st.types = b.uint64_side_array({base + 0x300, base + 0x310});
  st.size = 52;
  st.extent = 48;
  b.add_datatype(st);
  set.datatypes = {base + 0x300, base + 0x310, base + 0x320, r.datatype_null_handle};

  mpidbg_group_record g{};
  g.obj = head(base + 0x400, 60, 0);
  g.world_ranks = b.int32_side_array({3, 1});
  g.args = b.int32_side_array({3, 1});
  g.size = 2;
  g.rank = 1;
  g.source_handle = base + 0x100;
  b.add_group(g);
  set.groups = {base + 0x400, r.group_empty_handle, r.group_null_handle};

  mpidbg_reduce_op_record op{};
  op.obj = head(base + 0x500, 70, 0);
  op.function = 0x402000;
  op.commute = 1;
  b.add_reduce_op(op);
  set.reduce_ops = {base + 0x500, r.reduce_op_null_handle};

  mpidbg_info_record info{};
  info.obj = head(base + 0x600, 80, 0);
  info.entries = b.info_entries({{"cb_nodes", "4"}, {"host", "node1"}});
  info.nkeys = 2;
  b.add_info(info);
  set.infos = {base + 0x600, r.info_null_handle};

  mpidbg_window_record w{};
  w.obj = head(base + 0x700, 85, 0);
  w.comm_handle = base + 0x100;
  w.comm_job_id = 0x8800;
  w.errhandler = base + 0x200;
  w.flavor = MPIDBG_WIN_DYNAMIC;
  w.target_locks = b.int32_side_array({0, 1, 2, 0});
  w.access_group = b.int32_side_array({2});
  w.exposure_group = b.int32_side_array({0, 3});
  w.attached = b.int64_side_array({0x10000, 64, 0x20000, 128});
  w.comm_size = 4;
  b.add_window(w);
  set.wins = {base + 0x700, r.win_null_handle};

  mpidbg_file_record f{};
  f.obj = head(base + 0x800, 86, 0);
  f.comm_handle = base + 0x100;
  f.comm_job_id = 0x8800;
  f.errhandler = base + 0x200;
  std::strcpy(f.filename, "/tmp/fuzz.dat");
  std::strcpy(f.datarep, "native");
  b.add_file(f);
  set.files = {base + 0x800, r.file_null_handle};

  mpidbg_message_record m{};
  m.obj = head(base + 0x900, 87, 0);
  m.comm_handle = base + 0x100;
  m.comm_job_id = 0x8800;
  m.bytes = 12;
  b.add_message(m);
  set.messages = {base + 0x900, r.message_null_handle, r.message_no_proc_handle};

  mpidbg_session_record session{};
  session.obj = head(base + 0xa00, 88, 0);
  b.add_session(session);

  set.requests = {mpidbg::test::request_value(mpidbg::test::kIsendRequest, hs),
                  mpidbg::test::request_value(mpidbg::test::kIrecvAnyRequest, hs),
                  mpidbg::test::request_value(mpidbg::test::kMatchedRequest, hs),
                  mpidbg::test::request_value(0xac000010, hs), r.request_null_handle, 0};
  for (uint64_t c : {mpidbg::test::kWorldHandle, mpidbg::test::kSelfHandle,
                     mpidbg::test::kDupHandle, mpidbg::test::kInterHandle,
                     mpidbg::test::kFreedBusyHandle}) {
    set.comms.push_back(c);
  }
  b.commit();
  return set;
}

// The queries of one process, each result checked and freed as a debugger does.
void handle_queries(mqs_image* im, mqs_image_info* ii, mqs_process* p, mqs_process_info* pi,
                    const HandleSet& set, uint8_t variant) {
  for (uint64_t h : set.comms) {
    mpidbg_comm_info_t* c = nullptr;
    if (mpidbg_comm_query(im, ii, p, pi, h, &c) == MPIDBG_SUCCESS) {
      free_comm_members(c, fz_free);
      fz_free(c);
    }
    mpidbg_comm_ext_info_t* e = nullptr;
    if (mpidbg_comm_query_ext(im, ii, p, pi, h, &e) == MPIDBG_SUCCESS) {
      free_comm_members(&e->base, fz_free);
      touch_array(e->dist_sources, e->dist_num_sources);
      touch_array(e->dist_destinations, e->dist_num_destinations);
      fz_free(e->dist_sources);
      fz_free(e->dist_destinations);
      fz_free(e);
    }
    mpidbg_comm_remote_job_t* r = nullptr;
    if (mpidbg_comm_query_remote_job(im, ii, p, pi, h, &r) == MPIDBG_SUCCESS && r != nullptr) {
      touch_array(r->world_ranks, r->num_procs);
      if (std::memchr(r->job_id, '\0', sizeof r->job_id) == nullptr) std::abort();  // NUL-terminated
      fz_free(r->world_ranks);
      fz_free(r);
    }
    mqs_taddr_t out = 0;
    (void)mpidbg_comm_f2c(im, ii, p, pi, h, &out);
    (void)mpidbg_comm_f2c(im, ii, p, pi, variant, &out);
  }
  for (uint64_t h : set.requests) {
    mpidbg_request_info_t* r = nullptr;
    if (mpidbg_request_query(im, ii, p, pi, h, &r) == MPIDBG_SUCCESS) fz_free(r);
    mpidbg_request_ext_info_t* e = nullptr;
    if (mpidbg_request_query_ext(im, ii, p, pi, h, &e) == MPIDBG_SUCCESS) fz_free(e);
    mqs_taddr_t out = 0;
    (void)mpidbg_request_f2c(im, ii, p, pi, h, &out);
  }
  for (uint64_t h : set.statuses) {
    mpidbg_status_info_t* s = nullptr;
    if (mpidbg_status_query(im, ii, p, pi, h, &s) == MPIDBG_SUCCESS) fz_free(s);
    mpidbg_status_ext_info_t* e = nullptr;
    if (mpidbg_status_query_ext(im, ii, p, pi, h, &e) == MPIDBG_SUCCESS) fz_free(e);
  }
  for (uint64_t h : set.errhandlers) {
    mpidbg_errhandler_info_t* e = nullptr;
    if (mpidbg_errhandler_query(im, ii, p, pi, h, &e) == MPIDBG_SUCCESS) {
      touch_array(e->eh_handles, e->eh_refcount);
      fz_free(e->eh_handles);
      fz_free(e);
    }
    mqs_taddr_t out = 0;
    (void)mpidbg_errhandler_f2c(im, ii, p, pi, 40, &out);
  }
  for (uint64_t h : set.datatypes) {
    mpidbg_datatype_info_t* d = nullptr;
    if (mpidbg_datatype_query(im, ii, p, pi, h, variant % 3 == 0 ? 0 : variant, &d) ==
        MPIDBG_SUCCESS) {
      touch_array(d->dt_integers, d->dt_num_integers);
      touch_array(d->dt_addresses, d->dt_num_addresses);
      touch_array(d->dt_datatypes, d->dt_num_datatypes);
      touch_array(d->dt_map, d->dt_map_length);
      fz_free(d->dt_integers);
      fz_free(d->dt_addresses);
      fz_free(d->dt_datatypes);
      fz_free(d->dt_map);
      fz_free(d);
    }
  }
  for (uint64_t h : set.groups) {
    mpidbg_group_info_t* g = nullptr;
    if (mpidbg_group_query(im, ii, p, pi, h, &g) == MPIDBG_SUCCESS) {
      touch_array(g->group_procs, g->group_size > 0 ? g->group_size : 0);
      touch_array(g->group_args, g->group_num_args);
      fz_free(g->group_procs);
      fz_free(g->group_args);
      fz_free(g);
    }
  }
  for (uint64_t h : set.reduce_ops) {
    mpidbg_op_info_t* o = nullptr;
    if (mpidbg_op_query(im, ii, p, pi, h, &o) == MPIDBG_SUCCESS) fz_free(o);
  }
  for (uint64_t h : set.infos) {
    mpidbg_info_info_t* i = nullptr;
    if (mpidbg_info_query(im, ii, p, pi, h, &i) == MPIDBG_SUCCESS) {
      touch_array(i->info_pairs, i->info_num_pairs);
      for (int k = 0; i->info_pairs != nullptr && k < i->info_num_pairs; ++k) {
        touch_string(i->info_pairs[k].key);
        touch_string(i->info_pairs[k].value);
        fz_free(i->info_pairs[k].key);
        fz_free(i->info_pairs[k].value);
      }
      fz_free(i->info_pairs);
      fz_free(i);
    }
  }
  for (uint64_t h : set.wins) {
    mpidbg_win_info_t* w = nullptr;
    if (mpidbg_win_query(im, ii, p, pi, h, &w) == MPIDBG_SUCCESS) {
      touch_array(w->win_target_locks, w->win_num_target_locks);
      touch_array(w->win_access_group, w->win_num_access_group);
      touch_array(w->win_exposure_group, w->win_num_exposure_group);
      touch_array(w->win_regions, w->win_num_regions);
      touch_array(w->win_pending_requests, w->win_num_pending_requests);
      fz_free(w->win_target_locks);
      fz_free(w->win_access_group);
      fz_free(w->win_exposure_group);
      fz_free(w->win_regions);
      fz_free(w->win_pending_requests);
      fz_free(w);
    }
  }
  for (uint64_t h : set.files) {
    mpidbg_file_info_t* f = nullptr;
    if (mpidbg_file_query(im, ii, p, pi, h, &f) == MPIDBG_SUCCESS) {
      touch_array(f->file_pending_requests, f->file_num_pending_requests);
      fz_free(f->file_pending_requests);
      fz_free(f);
    }
  }
  for (uint64_t h : set.messages) {
    mpidbg_message_info_t* m = nullptr;
    if (mpidbg_message_query(im, ii, p, pi, h, &m) == MPIDBG_SUCCESS) fz_free(m);
  }
  for (int kind = 0; kind <= MPIDBG_HANDLE_SESSION + 1; ++kind) {
    mpidbg_name_map_t* map = nullptr;
    if (mpidbg_name_map_query(im, ii, p, pi, kind, &map) == MPIDBG_SUCCESS) free_name_map(map, fz_free);
    // The listing of every object of the kind (0: all kinds): the count must match the
    // array, every entry readable.
    int count = -1;
    mpidbg_object_entry_t* entries = nullptr;
    if (mpidbg_object_list_query(im, ii, p, pi, kind, &count, &entries) == MPIDBG_SUCCESS) {
      if (count < 0 || (count == 0) != (entries == nullptr)) __builtin_trap();
      touch_array(entries, count);
      fz_free(entries);
    }
  }
  int64_t latest = 0;
  (void)mpidbg_latest_time_query(im, ii, p, pi, &latest);
}

void run_handle_session(FakeTarget& target, uint8_t options, uint8_t variant,
                        const HandleSet& set) {
  static const mqs_basic_callbacks basic = make_basic_callbacks();
  FakeDebugger dbg(&target);
  dbg.lie_about_byte_order = (options & kOptLieAboutByteOrder) != 0;
  const bool shared = (options & kOptHandlesShareInfos) != 0;
  if (shared) {
    mqs_setup_basic_callbacks(&basic);
    (void)mqs_setup_image(dbg.image(), FakeDebugger::image_callbacks());
    (void)mqs_setup_process(dbg.process(), FakeDebugger::process_callbacks());
  }
  (void)mpidbg_init_once(&basic);
  (void)mpidbg_version_string();
  (void)mpidbg_interface_version_compatibility();
  (void)mpidbg_handle_ext_version();
  mpidbg_handle_info_t types;
  if (mpidbg_init_per_image(dbg.image(), FakeDebugger::image_callbacks(), &types) ==
      MPIDBG_SUCCESS) {
    if (mpidbg_init_per_process(dbg.process(), FakeDebugger::process_callbacks(), &types) ==
        MPIDBG_SUCCESS) {
      for (mpidbg_name_map_t* m : {mpidbg_comm_name_map, mpidbg_errhandler_name_map}) {
        for (int i = 0; m != nullptr && m[i].map_name != nullptr; ++i) {
          if (i > 100000) std::abort();
          touch_string(m[i].map_name);
        }
      }
      handle_queries(dbg.image(), dbg.image_info, dbg.process(), dbg.process_info, set, variant);
      if (shared) {
        // The mqs side lets go first; the handle side goes on with the same infos.
        mqs_destroy_process_info(dbg.process_info);
        handle_queries(dbg.image(), nullptr, dbg.process(), nullptr, set, variant);
      }
      mpidbg_finalize_per_process(dbg.process(), dbg.process_info);
    }
    if (shared) mqs_destroy_image_info(dbg.image_info);
    mpidbg_finalize_per_image(dbg.image(), dbg.image_info);
  } else if (shared) {
    mqs_destroy_process_info(dbg.process_info);
    mqs_destroy_image_info(dbg.image_info);
  }
}

struct Iteration {
  std::unique_ptr<Scenario> scenario;
  std::vector<std::pair<uint64_t, Write>> deferred;  // (trigger read count, write)
  uint64_t plugin_reads = 0;
};
Iteration* g_it = nullptr;

void on_read(uint64_t, size_t) {
  Iteration& it = *g_it;
  ++it.plugin_reads;
  if (it.plugin_reads > kReadBudget) {
    std::fprintf(stderr, "plugin_fuzzer: more than %llu target reads in one iteration\n",
                 static_cast<unsigned long long>(kReadBudget));
    std::abort();
  }
  for (auto& [trigger, w] : it.deferred) {
    if (trigger == it.plugin_reads) apply(*it.scenario->target, w);
  }
}

void run_session(FakeTarget& target, uint8_t options, uint8_t variant) {
  static const mqs_basic_callbacks basic = make_basic_callbacks();
  FakeDebugger dbg(&target);
  dbg.lie_about_byte_order = (options & kOptLieAboutByteOrder) != 0;
  dbg.global_rank = (options & kOptGlobalRankOdd) != 0 ? 3 : 1;

  mqs_setup_basic_callbacks(&basic);
  (void)mqs_version_string();
  (void)mqs_version_compatibility();
  (void)mqs_dll_taddr_width();
  if (mqs_setup_image(dbg.image(), FakeDebugger::image_callbacks()) != mqs_ok) return;
  char* message = nullptr;
  if (mqs_image_has_queues(dbg.image(), &message) != mqs_ok && message != nullptr) {
    (void)std::strlen(message);
  }
  if (mqs_setup_process(dbg.process(), FakeDebugger::process_callbacks()) == mqs_ok) {
    mqs_process* p = dbg.process();
    message = nullptr;
    const int rc = mqs_process_has_queues(p, &message);
    if (message != nullptr) (void)std::strlen(message);
    (void)std::strlen(mqs_dll_error_string(rc));
    if ((options & kOptExtBeforeUpdate) != 0) extension_calls(p, variant);
    walk_communicators(p, variant);
    extension_calls(p, variant);
    if ((options & kOptSecondStop) != 0) {
      walk_communicators(p, variant);
      extension_calls(p, variant);
    }
    mqs_destroy_process_info(dbg.process_info);
  }
  mqs_destroy_image_info(dbg.image_info);
}

const TargetKind kKinds[] = {
    {8, false, "ptr8_little"},
    {4, false, "ptr4_little"},
    {8, true, "ptr8_big"},
    {4, true, "ptr4_big"},
};

void write_seeds(const char* dir) {
  mkdir(dir, 0755);
  // Every kind and handle size unharmed, plus a few with one typical mutation each.
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t kind = 0; kind < 8; ++kind) seeds.push_back({kind, 0, 0});
  seeds.push_back({0, kOptSecondStop, 0});
  seeds.push_back({5, kOptHandlesShareInfos, 0});
  seeds.push_back({2, kOptHandlesShareInfos | kOptSecondStop, 3});
  seeds.push_back({3, kOptExtBeforeUpdate, 17});
  seeds.push_back({0, 0, 0, kOpInteresting | (2 << 3), 1, 0x40, 0, 19});      // a slab count
  seeds.push_back({1, 0, 0, kOpAddress, 7, 8, 0, 7, 0, 0});                   // a slab's next
  seeds.push_back({2, 0, 0, 0x80 | kOpWord64, 10, 8, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0});  // a seq, late
  // Records caught mid-update (odd seq) that the writer finishes a few reads later: the
  // plugin's re-read path.
  for (uint32_t kind : {MPIDBG_KIND_COMM, MPIDBG_KIND_OPERATION, MPIDBG_KIND_THREAD}) {
    Scenario sc = mpidbg::test::build_main_scenario(kKinds[0], 4);
    const uint64_t slot = sc.builder->slabs(kind).front() + ImageBuilder::Options().slab_header_size;
    const auto regions = sc.target->regions();
    for (size_t r = 0; r < regions.size(); ++r) {
      if (slot < regions[r].first || slot >= regions[r].first + regions[r].second) continue;
      const auto off = static_cast<uint16_t>(slot - regions[r].first);
      const auto reg = static_cast<uint8_t>(r);
      const auto lo = static_cast<uint8_t>(off & 0xff);
      const auto hi = static_cast<uint8_t>(off >> 8);
      for (uint8_t trigger = 2; trigger <= 7; ++trigger) {
        seeds.push_back({0, 0, 0, kOpWord32, reg, lo, hi, 0x41, 0, 0, 0,
                         static_cast<uint8_t>(0x80 | kOpWord32), trigger, reg, lo, hi, 0x42, 0, 0, 0});
      }
    }
  }
  int n = 0;
  for (const auto& s : seeds) {
    const std::string path = std::string(dir) + "/seed-" + std::to_string(n++);
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), std::strerror(errno));
      std::exit(1);
    }
    std::fwrite(s.data(), 1, s.size(), f);
    std::fclose(f);
  }
  std::printf("wrote %d seeds to %s\n", n, dir);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("MPIDBG_FUZZ_WRITE_SEEDS")) {
    write_seeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t kind_byte = in.u8();
  const uint8_t options = in.u8();
  const uint8_t variant = in.u8();
  const TargetKind& kind = kKinds[kind_byte & 3];
  const uint32_t handle_size = (kind_byte & 4) != 0 ? 8 : 4;

  Iteration it;
  it.scenario = std::make_unique<Scenario>(mpidbg::test::build_main_scenario(kind, handle_size));
  add_traffic_block(*it.scenario->builder);
  add_monitor_and_profile_blocks(*it.scenario->builder);
  const HandleSet handles = add_handle_objects(*it.scenario);
  FakeTarget& target = *it.scenario->target;
  const auto regions = target.regions();

  if ((options & kOptMoveRootSymbol) != 0) {
    const uint8_t r = in.u8();
    const uint16_t off = in.u16();
    target.add_symbol(MPIDBG_ROOT_SYMBOL, pick_address(regions, r, off));
  }
  if ((options & kOptDropRootSymbol) != 0) target.remove_symbol(MPIDBG_ROOT_SYMBOL);

  for (int n = 0; n < 4096; ++n) {
    Write w;
    bool deferred = false;
    uint64_t trigger = 0;
    if (!read_command(in, target, regions, &w, &deferred, &trigger)) break;
    if (deferred) {
      it.deferred.emplace_back(trigger, std::move(w));
    } else {
      apply(target, w);
    }
  }

  g_it = &it;
  target.on_read = on_read;
  const long blocks_before = g_mem.live_blocks;
  run_session(target, options, variant);
  run_handle_session(target, options, variant, handles);
  g_it = nullptr;
  if (g_mem.live_blocks != blocks_before) {
    std::fprintf(stderr, "plugin_fuzzer: %ld debugger memory blocks leaked\n",
                 g_mem.live_blocks - blocks_before);
    std::abort();
  }
  if (std::getenv("MPIDBG_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "plugin_fuzzer: %llu reads, %ld communicators, %ld operations, %ld threads\n",
                 static_cast<unsigned long long>(it.plugin_reads), g_mem.comms, g_mem.operations,
                 g_mem.threads);
  }
  g_mem.comms = g_mem.operations = g_mem.threads = 0;
  return 0;
}
