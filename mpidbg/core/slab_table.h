// slab_table.h — one table of fixed-size records (records.h: mpidbg_table/mpidbg_slab).
//
// Slabs are mapped once and never moved or unmapped, so a debugger can always walk the
// chain from the root. A released slot goes on a free list and is reused; the list link
// lives in the slot body while the slot's kind is MPIDBG_KIND_FREE (readers skip those).
//
// Slot allocation takes a spinlock (one lock per table, held for a few instructions);
// the batch forms let a per-thread cache take or give back many slots under one
// acquisition. Writing a record's fields takes no lock: a slot belongs to its owner.
//
// Two sets of record lifecycle calls:
//  - BeginCreate/EndCreate/Clear zero the record body and bump the generation on each
//    change: what the registries of rarely created kinds use.
//  - OpenRecord/CloseRecord/Vacate are the per-message forms: no zeroing (the caller
//    writes every field), counters through core::CounterAdd (plain adds below
//    MPI_THREAD_MULTIPLE) and no generation bump, so a caller that changes several
//    records in one MPI call bumps once (BumpGenerationHot) after all of them.
#ifndef MPIDBG_CORE_SLAB_TABLE_H
#define MPIDBG_CORE_SLAB_TABLE_H

#include <stdint.h>

#include "core/concurrency.h"
#include "core/inline.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

// In-process readers (and debuggers) find live records by their kind, read with an
// atomic load; every write of it is an atomic store too.
MPIDBG_ALWAYS_INLINE void StoreKind(mpidbg_record_header* h, uint32_t kind) {
  __atomic_store_n(&h->kind, static_cast<uint16_t>(kind), __ATOMIC_RELEASE);
}

class SlabTable {
 public:
  // `table` and `generation` live in the exported root (or in a test's own root).
  // `table->kind` and `table->record_size` must already hold kind and record_size.
  constexpr SlabTable(mpidbg_table* table, uint64_t* generation, uint32_t kind,
                      uint32_t record_size, uint32_t slots_per_slab)
      : table_(table),
        generation_(generation),
        kind_(kind),
        record_size_(record_size),
        slots_per_slab_(slots_per_slab) {}
  SlabTable(const SlabTable&) = delete;
  SlabTable& operator=(const SlabTable&) = delete;

  // --- slot ownership (thread-safe) ---
  // A free slot (kind FREE, seq even), owned by the caller; nullptr if memory ran out.
  mpidbg_record_header* TakeSlot();
  // Gives a FREE slot back for reuse.
  void ReturnSlot(mpidbg_record_header* slot);
  // Up to n free slots under one lock; returns how many (fewer only if memory ran out).
  uint32_t TakeSlots(mpidbg_record_header** out, uint32_t n);
  // Gives n FREE slots back under one lock.
  void ReturnSlots(mpidbg_record_header* const* slots, uint32_t n);

  // --- record lifecycle on an owned slot (no lock) ---
  // Opens the write window of a new record: seq odd, body zeroed, kind/size/flags set.
  void BeginCreate(mpidbg_record_header* slot, uint32_t flags);
  // Closes it: seq even, the record counts as live, generation changes.
  void EndCreate(mpidbg_record_header* slot);
  // The same for a record only MPI calls create (the object registries' kinds): below
  // MPI_THREAD_MULTIPLE live_count steps plainly, as CloseRecord's does. The runtime's
  // clock thread releasing orphans beside MPI calls steps it with a locked subtract, so
  // a race can lose only that step: the count may run high, never low (the lock
  // policy, doc/hot_path.md). Not for the thread table: a thread's first call of the
  // calls MPI allows at any time (MPI_Wtime, ...) creates its record beside others.
  void EndCreateInCall(mpidbg_record_header* slot);
  // Opens the write window of a new record over a live one whose slot is reused (an
  // orphan the budget evicts): seq odd, body zeroed, kind/flags set, as BeginCreate
  // does on a free slot. The caller first drops what the old record owned (inside the
  // window it opened with BeginUpdate); a reader sees the old record or the new one.
  // The slot stops counting as live until EndCreateInCall counts it again (stepped as
  // that steps it: only MPI calls recreate).
  void RecreateOpened(mpidbg_record_header* rec, uint32_t flags);
  // Update of a live record's fields.
  void BeginUpdate(mpidbg_record_header* rec) const;
  void EndUpdate(mpidbg_record_header* rec) const;
  // Turns a live record back into a FREE slot (still owned by the caller).
  void Clear(mpidbg_record_header* rec);
  // The same for a record whose write window the caller opened (BeginUpdate) to change
  // it first: closes that window with the record FREE.
  void ClearOpened(mpidbg_record_header* rec);

  // --- per-message lifecycle on an owned slot (no lock, no zeroing, no generation) ---
  // Opens the write window of a new record: seq odd, kind/size/flags set. The caller
  // writes every field of the body, then calls CloseRecord.
  MPIDBG_ALWAYS_INLINE void OpenRecord(mpidbg_record_header* slot, uint32_t flags) {
    BeginRecordWrite(slot);
    StoreKind(slot, kind_);
    slot->size = static_cast<uint16_t>(record_size_);
    slot->flags = flags;
    slot->reserved = 0;
  }
  // Closes it: seq even, the record counts as live.
  MPIDBG_ALWAYS_INLINE void CloseRecord(mpidbg_record_header* slot) {
    EndRecordWrite(slot);
    CounterAdd(&table_->live_count, 1u);
  }
  // Turns a live record back into a FREE slot (still owned by the caller); the body
  // keeps its stale bytes, which readers skip with the FREE kind.
  MPIDBG_ALWAYS_INLINE void Vacate(mpidbg_record_header* rec) {
    MarkFree(rec);
    CounterAdd(&table_->live_count, ~0u);  // -1
  }
  // The same for a caller that runs beside MPI calls rather than in one (a thread's
  // exit, the runtime's clock thread releasing orphans): below MPI_THREAD_MULTIPLE an MPI
  // call steps live_count plainly, so this step is a locked subtract. A race between
  // the two can then lose only this step: live_count may run high, never low, and a
  // walk that skips a table reading 0 (rt/process/registry.h, ForEachRecord) never
  // skips a live record.
  MPIDBG_ALWAYS_INLINE void VacateBeside(mpidbg_record_header* rec) {
    MarkFree(rec);
    __atomic_fetch_sub(&table_->live_count, 1u, __ATOMIC_RELAXED);
  }
  MPIDBG_ALWAYS_INLINE void BumpGenerationHot() const { GenerationBump(generation_); }
  // For a caller that has seen Concurrent() false in this MPI call.
  MPIDBG_ALWAYS_INLINE void BumpGenerationPlain() const { GenerationBumpPlain(generation_); }

  // --- conveniences ---
  // TakeSlot + BeginCreate; the caller fills fields, then EndCreate.
  mpidbg_record_header* Create(uint32_t flags);
  // Clear + ReturnSlot.
  void Release(mpidbg_record_header* rec);
  // ClearOpened + ReturnSlot.
  void ReleaseOpened(mpidbg_record_header* rec);

  void BumpGeneration() const { __atomic_fetch_add(generation_, 1, __ATOMIC_RELEASE); }
  // Changes made through EndCreate, EndUpdate and Clear so far (not the per-message
  // forms): a cache of something derived from this table's records is valid while it
  // stays the same. Like root.generation, both are stepped with a locked add only while
  // threads may race (core/concurrency.h, GenerationBump); below MPI_THREAD_MULTIPLE the
  // runtime's own thread releasing orphans may absorb one step, never the change.
  uint64_t changes() const { return __atomic_load_n(&changes_, __ATOMIC_ACQUIRE); }
  uint32_t record_size() const { return record_size_; }
  uint32_t kind() const { return kind_; }

 private:
  bool AddSlabLocked();
  // Vacate's write window: kind FREE, flags cleared, the body left as it was.
  MPIDBG_ALWAYS_INLINE static void MarkFree(mpidbg_record_header* rec) {
    BeginRecordWrite(rec);
    StoreKind(rec, MPIDBG_KIND_FREE);
    rec->flags = 0;
    EndRecordWrite(rec);
  }

  mpidbg_table* table_;
  uint64_t* generation_;
  uint32_t kind_;
  uint32_t record_size_;
  uint32_t slots_per_slab_;
  SpinLock lock_;
  mpidbg_record_header* free_head_ = nullptr;
  mpidbg_slab* last_slab_ = nullptr;
  mutable uint64_t changes_ = 0;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_SLAB_TABLE_H
