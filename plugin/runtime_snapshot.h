// runtime_snapshot.h — everything the in-target runtime exposes, decoded once.
//
// The runtime's root points at three tables (communicators, operations, threads), each a
// chain of slabs of fixed-size record slots. decode_snapshot walks them with every walk
// bounded (visited set against cycles, a slab cap, size sanity limits, a byte budget),
// skips torn or foreign records and counts what it skipped. A damaged table ends its
// walk early; the records read so far stay usable. Operations also come from the
// threads' flight rings (layout 2, flight_rings.h), under the same byte budget. The
// result is sorted the way the front ends present it: communicators by creation,
// operations by posting (MPI's matching order), threads by thread id.
#ifndef MPIDBG_PLUGIN_RUNTIME_SNAPSHOT_H
#define MPIDBG_PLUGIN_RUNTIME_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/mqs_interface.h"
#include "mpidbg/records.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

// Sanity limits for values read from the target. A count read from the target never
// sizes an allocation without passing one of these first.
struct SnapshotLimits {
  uint32_t max_root_size = 1u << 16;
  uint32_t max_slabs = 65536;            // per table
  uint32_t max_capacity = 1u << 20;      // slots per slab
  uint32_t max_record_size = 1u << 16;   // bytes per slot
  uint32_t max_header_size = 1u << 12;   // slab header bytes before the first slot
  uint64_t max_slab_bytes = TargetReader::kMaxReadBytes;
  uint64_t max_total_bytes = uint64_t{256} << 20;  // all slabs of one snapshot
  int32_t max_group_size = 1 << 22;      // ranks in one communicator group
  int32_t max_request_count = 1 << 22;   // requests a thread may wait for
  uint32_t max_flight_capacity = 1u << 20;  // entries in one thread's flight ring
  uint32_t max_flight_entry_size = 1u << 12;  // bytes per flight ring entry
  int torn_retries = 3;                  // re-reads of a record seen mid-update
};

struct CommEntry {
  mpidbg_comm_record rec;
  TargetAddr addr;        // the record slot
  uint32_t pending_ops;   // operations referring to it that are not inactive
  uint32_t first_op;      // its operations: comm_ops[first_op .. first_op + pending_ops)
};

struct OperationEntry {
  mpidbg_operation_record rec;
  TargetAddr addr;
};

struct ThreadEntry {
  // What readers use: the record with the thread's live words merged in (thread_live.h).
  mpidbg_thread_record rec;
  // The record as the thread table held it. The live words change without the
  // generation moving, so a cached snapshot merges them again, always from this.
  mpidbg_thread_record published;
  TargetAddr addr;
  // Pauses of recording the thread's live words say are not yet resumed (records.h,
  // `paused`): nonzero, its calls are not recorded, so `rec` may say NOT_IN_MPI while
  // the thread is in MPI.
  int32_t recording_paused = 0;
};

struct PartitionEntry {
  mpidbg_partition_record rec;
  TargetAddr addr;
};

// What the walk had to leave out; zero everywhere for a healthy runtime.
struct SnapshotStats {
  uint32_t slabs_read = 0;
  uint32_t records_torn = 0;    // still being written after the retries: skipped
  uint32_t records_bad = 0;     // wrong kind or impossible size: skipped
  uint32_t tables_damaged = 0;  // walk ended early (cycle, bad slab, read failure, limit)
  uint32_t rings_damaged = 0;   // flight rings skipped (bad geometry, read failure, limit)
  uint32_t live_unreadable = 0; // threads whose live words could not be read at the last
                                // merge: shown as their records say
  int first_table_error = 0;    // plugin error code of the first damaged table
};

class RuntimeSnapshot {
 public:
  mpidbg_root root{};
  TargetAddr root_addr;
  Vec<CommEntry> comms;      // by create_serial
  Vec<OperationEntry> operations;          // by post_serial
  Vec<ThreadEntry> threads;  // by tid
  Vec<PartitionEntry> partitions;  // partitioned requests' progress, by request
  // Indices into `ops` grouped by communicator (CommEntry::first_op, pending_ops), each
  // group in posting order: a queue walk touches only its communicator's operations.
  Vec<uint32_t> comm_ops;
  SnapshotStats stats;

  const CommEntry* find_comm(uint64_t job_id, uint64_t handle) const;
  const OperationEntry* find_operation_at(TargetAddr addr) const;
  // Compares as many low bytes as the MPI's handles have (root.handle_size), so a
  // 4-byte handle matches whether it was widened with or without sign extension.
  const OperationEntry* find_operation_by_request(uint64_t request) const;
  // The partition record of a partitioned request (same handle comparison), nullptr
  // when it has none.
  const PartitionEntry* find_partition(uint64_t request) const;
};

// Walks record tables with every bound of decode_snapshot: a visited set against slab
// cycles, the slab cap, slab sanity checks, torn-record re-reads, and one byte budget
// (limits.max_total_bytes) shared by every table walked with the same walker. Damage
// ends a table's walk early and is counted in `stats`.
class TableWalker {
 public:
  TableWalker(TargetReader& reader, const SnapshotLimits& limits, SnapshotStats& stats)
      : reader_(reader), limits_(limits), stats_(stats), bytes_left_(limits.max_total_bytes) {}

  // Called for every consistent record of the table's kind with a decoder over the bytes
  // its writer wrote; returns false when out of memory.
  using Visit = bool (*)(void* ctx, const Decoder& record, TargetAddr slot);

  // mqs_ok (also when the walk ended early on damage) or kErrNoMemory.
  int walk(const mpidbg_table& table, uint32_t kind, Visit visit, void* ctx);

  // Takes `bytes` from the budget the walks share, for reads of the same snapshot outside
  // the tables (flight rings); false, leaving the budget as it was, when fewer are left.
  bool spend(uint64_t bytes) {
    if (bytes > bytes_left_) return false;
    bytes_left_ -= bytes;
    return true;
  }
  SnapshotStats& stats() { return stats_; }

  template <typename F>
  int walk(const mpidbg_table& table, uint32_t kind, F& visit) {
    return walk(
        table, kind,
        [](void* c, const Decoder& d, TargetAddr a) { return (*static_cast<F*>(c))(d, a); },
        &visit);
  }

 private:
  void damaged(uint32_t kind, int code, const char* why, uint64_t addr);
  bool reread_torn_slot(TargetAddr addr, uint8_t* slot, uint32_t size);

  TargetReader& reader_;
  const SnapshotLimits& limits_;
  SnapshotStats& stats_;
  uint64_t bytes_left_;
};

// Where the runtime's root lives: mqs_find_symbol(image, MPIDBG_ROOT_SYMBOL).
// kErrNoRuntime when the symbol is absent.
int find_runtime_root(mqs_image* image, const mqs_image_callbacks* cb, TargetAddr* out);

// Reads and checks the root (magic, size, layout version); reads min(size, sizeof) and
// zero-fills the rest. The magic also settles the byte order: when it reads correctly
// only byte-swapped, the reader's order is corrected.
int read_runtime_root(TargetReader& reader, TargetAddr addr, const SnapshotLimits& limits,
                      mpidbg_root* out);

// root.generation (one small read of the root's head), to decide whether a snapshot is
// current; kErrBadMagic when the root no longer carries its magic.
int read_root_generation(TargetReader& reader, TargetAddr root, uint64_t* out);

// Appends the thread records of `table` (a root's threads) to `out`, in table order.
// mqs_ok (also when damage ended the walk early), or kErrNoMemory.
int walk_threads(TableWalker& walker, const mpidbg_table& table, Vec<ThreadEntry>* out);

// The whole decode. `out` is filled from scratch.
int decode_snapshot(TargetReader& reader, TargetAddr root_addr, const SnapshotLimits& limits,
                    RuntimeSnapshot* out);

// `count` int32 world ranks at `array` into out[0..count-1]; kErrGroupUnavailable when
// the count is out of range or the array is missing.
int read_rank_array(TargetReader& reader, TargetAddr array, int32_t count,
                    const SnapshotLimits& limits, int* out);
// One element of such an array.
int read_rank_at(TargetReader& reader, TargetAddr array, int32_t count, int32_t index,
                 int32_t* out);
// Element `index` of an array of `count` MPI handles of `handle_size` (4 or 8) bytes,
// widened to 64 bits without sign extension.
int read_handle_at(TargetReader& reader, TargetAddr array, int32_t count, int32_t index,
                   uint32_t handle_size, uint64_t* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_RUNTIME_SNAPSHOT_H
