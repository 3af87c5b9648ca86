// slab_table.h — one table of fixed-size records (records.h: mpidbg_table/mpidbg_slab).
//
// Slabs are mapped once and never moved or unmapped, so a debugger can always walk the
// chain from the root. A released slot goes on a free list and is reused; the list link
// lives in the slot body while the slot's kind is MPIDBG_KIND_FREE (readers skip those).
//
// Slot allocation takes a spinlock (first cut: one lock per table, held for a few
// instructions). Writing a record's fields does not: a slot belongs to its owner.
#ifndef MPIDBG_CORE_SLAB_TABLE_H
#define MPIDBG_CORE_SLAB_TABLE_H

#include <stdint.h>

#include "core/spinlock.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

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

  // --- record lifecycle on an owned slot (no lock) ---
  // Opens the write window of a new record: seq odd, body zeroed, kind/size/flags set.
  void BeginCreate(mpidbg_record_header* slot, uint32_t flags);
  // Closes it: seq even, the record counts as live, generation changes.
  void EndCreate(mpidbg_record_header* slot);
  // Update of a live record's fields.
  void BeginUpdate(mpidbg_record_header* rec) const;
  void EndUpdate(mpidbg_record_header* rec) const;
  // Turns a live record back into a FREE slot (still owned by the caller).
  void Clear(mpidbg_record_header* rec);

  // --- conveniences ---
  // TakeSlot + BeginCreate; the caller fills fields, then EndCreate.
  mpidbg_record_header* Create(uint32_t flags);
  // Clear + ReturnSlot.
  void Release(mpidbg_record_header* rec);

  void BumpGeneration() const { __atomic_fetch_add(generation_, 1, __ATOMIC_RELEASE); }
  uint32_t record_size() const { return record_size_; }
  uint32_t kind() const { return kind_; }

 private:
  bool AddSlabLocked();

  mpidbg_table* table_;
  uint64_t* generation_;
  uint32_t kind_;
  uint32_t record_size_;
  uint32_t slots_per_slab_;
  SpinLock lock_;
  mpidbg_record_header* free_head_ = nullptr;
  mpidbg_slab* last_slab_ = nullptr;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_SLAB_TABLE_H
