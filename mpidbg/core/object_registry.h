// object_registry.h — records of one handle kind (group, datatype, reduce op,
// errhandler, info, window, file, message, session): create, find by handle, update,
// free into an orphan, release.
//
// Every record starts with mpidbg_object_head (records.h). Lookup by handle is
// lock-free (core/record_map.h: one word for most handles); creation, freeing and
// release take the registry's spinlock (none of them is per message).
//
// A handle maps to its newest record: when MPI reuses the value of a freed handle, the
// new object's record takes over the mapping and the orphan stays findable only by
// walking the table. Predefined records (MPI_GROUP_EMPTY, MPI_SUM, ...) are kept apart:
// they are never freed, and a handle value MPI hands out both as a predefined object
// and as the result of a call (MPI_Group_incl of no rank returns MPI_GROUP_EMPTY) gets
// a record of its own without disturbing the predefined one.
//
// A live record whose handle value is handed out again is dealt with by the registry's
// policy:
//  - kOrphanOld (default): the handle was freed where the runtime cannot see it; the
//    old record is marked freed and released by MPI, and orphaned.
//  - kCountReference: MPI handed out one more reference to the same object (MPI
//    reference counts groups: MPI_Comm_group twice on one communicator returns one
//    handle). The new record replaces the old one, and MarkFreed marks the record freed
//    only when the last reference is freed.
#ifndef MPIDBG_CORE_OBJECT_REGISTRY_H
#define MPIDBG_CORE_OBJECT_REGISTRY_H

#include <stdint.h>

#include "core/handle_map.h"
#include "core/orphan_list.h"
#include "core/record_map.h"
#include "core/slab_table.h"
#include "core/spinlock.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

// Process-wide pieces every registry shares (they live in the exported root).
struct ObjectRegistryShared {
  uint64_t* create_counter;
  uint64_t* free_counter;
  OrphanList* orphans;
};

class ObjectRegistry {
 public:
  // Frees the arrays a record owns and zeroes their fields (called with the record in
  // its write window, just before the slot is cleared); nullptr when the kind owns none.
  using DropArrays = void (*)(mpidbg_object_head* rec);

  // What a live handle handed out again means (see the file comment).
  enum class Rehandout { kOrphanOld, kCountReference };

  constexpr ObjectRegistry(SlabTable* table, ObjectRegistryShared shared,
                           DropArrays drop = nullptr,
                           Rehandout rehandout = Rehandout::kOrphanOld)
      : table_(table), shared_(shared), drop_(drop), rehandout_(rehandout) {}
  ObjectRegistry(const ObjectRegistry&) = delete;
  ObjectRegistry& operator=(const ObjectRegistry&) = delete;

  // Opens a new record (seq odd, zeroed; head: handle, create_serial, create_time_ns,
  // creator, fortran_index -1). The caller fills its fields and calls EndCreate.
  // nullptr when memory ran out (then nothing is recorded and MPI goes on as usual).
  // Once the orphan budget is full, a new record is written over this registry's
  // orphan that the next free would evict, in its slot (OrphanList::TakeOldestForReuse).
  mpidbg_object_head* BeginCreate(uint64_t handle, int32_t creator, uint32_t flags);
  // Publishes the record and maps its handle to it.
  void EndCreate(mpidbg_object_head* rec);

  // The newest record of `handle` (live or orphan; the predefined one if there is no
  // other), or nullptr.
  mpidbg_object_head* Find(uint64_t handle) const;
  // The record of `handle` only if it is live (not freed by the application).
  mpidbg_object_head* FindLive(uint64_t handle) const;

  // Write window for a published record's fields.
  void BeginUpdate(mpidbg_object_head* rec) const { table_->BeginUpdate(&rec->hdr); }
  void EndUpdate(mpidbg_object_head* rec) const { table_->EndUpdate(&rec->hdr); }

  // The application freed `handle`: its record is marked FREED (and RELEASED when MPI
  // drops the object now) and becomes an orphan. Returns the record, or nullptr when
  // there is none or other references to the object remain (kCountReference).
  // Predefined records are never freed. Once orphaned the record may be evicted at any
  // moment (at once with a budget of 0): read nothing through the returned pointer.
  mpidbg_object_head* MarkFreed(uint64_t handle, bool released_now);
  // Freeing in two steps, for frees MPI completes before the runtime's Post hook runs:
  // once PMPI_*_free returns, MPI may hand the same handle value to another thread's
  // new object, so the record must be out of the handle map before the call.
  // Detach (before the call): takes the live record of `handle` out of the map;
  // nullptr when there is none (or other references remain, kCountReference).
  mpidbg_object_head* Detach(uint64_t handle);
  // The free failed: maps the handle to `rec` again unless a newer record took it.
  void Reattach(mpidbg_object_head* rec);
  // The free succeeded: marks the detached record FREED (RELEASED when MPI drops the
  // object now) and orphans it. Read nothing through `rec` afterwards.
  void MarkDetachedFreed(mpidbg_object_head* rec, bool released_now);
  // Only the marking (FREED, free_serial): for a kind that holds freed records outside
  // the orphan budget while other records still name them and orphans them itself.
  void MarkDetachedFreedHeld(mpidbg_object_head* rec);

  // MPI no longer needs a freed object (e.g. a freed request completed). `rec` must
  // still be a record of this registry (not yet released).
  void MarkReleased(mpidbg_object_head* rec);
  // The same by handle: marks the newest record of `handle` RELEASED if it is freed and
  // not yet released. Safe against a concurrent release. Returns true if it marked one.
  bool MarkHandleReleased(uint64_t handle);

  // Drops a record at once, without orphaning it (an object MPI never handed out).
  void Discard(mpidbg_object_head* rec);

  SlabTable* table() const { return table_; }
  // Handles the map holds outside its one-word table (tests: a stale word shows here).
  uint32_t spilled_handles() const { return by_handle_.spilled(); }

 private:
  static void ReleaseOrphan(mpidbg_record_header* rec, void* owner);
  // The slot of the orphan the budget evicts next, opened as a new record; nullptr when
  // there is none of this registry's to evict.
  mpidbg_record_header* ReuseEvictedOrphan(uint32_t flags);
  void ReleaseRecord(mpidbg_object_head* rec);
  void OrphanLocked(mpidbg_object_head* rec, bool released_now);

  SlabTable* table_;
  ObjectRegistryShared shared_;
  DropArrays drop_;
  Rehandout rehandout_;
  mutable SpinLock lock_;
  bool counts_references() const { return rehandout_ == Rehandout::kCountReference; }

  RecordMap by_handle_{64};   // handle -> newest non-predefined record
  RecordMap predefined_{16};  // handle -> predefined record
  HandleMap extra_refs_{16};  // handle -> references beyond the first (kCountReference only)
  // Set by the first MarkFreed: an orphan may still be mapped (an evicted one is then
  // looked up before its slot is reused). Under the lock; read by ReuseEvictedOrphan.
  bool freed_mapped_ = false;
};

template <typename Record>
inline Record* As(mpidbg_object_head* head) {
  return reinterpret_cast<Record*>(head);
}

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_OBJECT_REGISTRY_H
