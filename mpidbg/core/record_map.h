// record_map.h — the handle -> newest record mapping of an ObjectRegistry (and of the
// communicator registry): a direct-mapped table of record pointers in front of a
// HandleMap. `Record` is a record type whose `handle` field holds the widened handle
// (mpidbg_object_head, mpidbg_comm_record).
//
// Most handles a program holds at once land alone in their slot of the table (a
// Fibonacci hash of the handle value: MPICH's index bits and Open MPI's addresses both
// spread), so creating, finding and freeing an object touches one word: no probing,
// no tombstones, no reader counting. A handle whose slot another handle holds goes to
// the HandleMap instead, and stays there until it is erased; a handle is never in both,
// and never moves between them, so a reader that misses in the table and then finds it
// in the map (or not) sees what a lone HandleMap would have shown.
//
// Find() is lock-free and may run concurrently with one writer; writers (Insert,
// CompareErase) must be serialised by the caller (the registry's lock). A record
// reached through the table is checked against its own `handle` (records are never
// unmapped from memory, only reused), as a HandleMap reader checks what it finds.
#ifndef MPIDBG_CORE_RECORD_MAP_H
#define MPIDBG_CORE_RECORD_MAP_H

#include <stdint.h>

#include <atomic>

#include "core/handle_map.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

template <typename Record>
class RecordMapOf {
 public:
  static constexpr uint32_t kSlotBits = 10;  // 1024 slots, 8 KiB per registry

  constexpr explicit RecordMapOf(uint32_t map_capacity) : map_(map_capacity) {}
  RecordMapOf(const RecordMapOf&) = delete;
  RecordMapOf& operator=(const RecordMapOf&) = delete;

  // The record `handle` maps to, or nullptr (lock-free).
  Record* Find(uint64_t handle) const;

  // Writers (serialised by the caller).
  // Maps rec->handle to `rec`; *previous gets the record it replaced, or nullptr.
  // False on an invalid handle (HandleMap::ValidKey) or when memory ran out.
  bool Insert(Record* rec, Record** previous);
  // Unmaps `handle` only if it maps to `expected`.
  void CompareErase(uint64_t handle, const Record* expected);

  // Handles kept in the HandleMap because their slot was taken (tests).
  uint32_t spilled() const { return spilled_.load(std::memory_order_relaxed); }
  // The table slot of `handle` (tests build colliding handles with it).
  static uint32_t SlotOf(uint64_t handle) {
    return static_cast<uint32_t>((handle * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
  }

 private:
  Record* MapFind(uint64_t handle) const;

  std::atomic<Record*> slots_[uint32_t{1} << kSlotBits] = {};
  HandleMap map_;
  std::atomic<uint32_t> spilled_{0};  // handles in map_; readers skip it while 0
};

// Defined in record_map.cc for these record types.
extern template class RecordMapOf<mpidbg_object_head>;
extern template class RecordMapOf<mpidbg_comm_record>;

using RecordMap = RecordMapOf<mpidbg_object_head>;

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_RECORD_MAP_H
