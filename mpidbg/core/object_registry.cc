// object_registry.cc — see object_registry.h.
#include "core/object_registry.h"

#include "core/clock.h"
#include "core/concurrency.h"
#include "core/record_write.h"

namespace mpidbg::core {

mpidbg_object_head* ObjectRegistry::BeginCreate(uint64_t handle, int32_t creator,
                                                uint32_t flags) {
  if (!HandleMap::ValidKey(handle)) return nullptr;
  mpidbg_record_header* slot =
      (flags & MPIDBG_REC_PREDEFINED) == 0 ? ReuseEvictedOrphan(flags) : nullptr;
  if (slot == nullptr) slot = table_->Create(flags);
  if (slot == nullptr) return nullptr;
  auto* rec = reinterpret_cast<mpidbg_object_head*>(slot);
  rec->handle = handle;
  // Serials come from MPI calls only: below MPI_THREAD_MULTIPLE one at a time.
  rec->create_serial = CounterAdd(shared_.create_counter, uint64_t{1});
  // The coarse clock, as every per-call timestamp (the tick keeper's word while it runs).
  rec->create_time_ns = (flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CoarseRealtimeNs();
  rec->creator = creator;
  rec->fortran_index = -1;
  return rec;
}

mpidbg_record_header* ObjectRegistry::ReuseEvictedOrphan(uint32_t flags) {
  mpidbg_record_header* slot = shared_.orphans->TakeOldestForReuse(&ReleaseOrphan, this);
  if (slot == nullptr) return nullptr;
  auto* old = reinterpret_cast<mpidbg_object_head*>(slot);
  // Orphans freed in two steps (Detach) are out of the map already, and so are those a
  // newer record of their handle displaced: only MarkFreed leaves one mapped, and a
  // registry whose frees all detach (datatypes) never looks.
  if (__atomic_load_n(&freed_mapped_, __ATOMIC_RELAXED) && by_handle_.Find(old->handle) == old) {
    SpinGuard guard(lock_);
    by_handle_.CompareErase(old->handle, old);
  }
  // What the old record owned goes inside the window that turns it into the new one.
  table_->BeginUpdate(slot);
  if (drop_ != nullptr) drop_(old);
  table_->RecreateOpened(slot, flags);
  return slot;
}

void ObjectRegistry::EndCreate(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  table_->EndCreateInCall(&rec->hdr);  // object records are made by MPI calls only
  if ((rec->hdr.flags & MPIDBG_REC_PREDEFINED) != 0) {
    SpinGuard guard(lock_);
    mpidbg_object_head* replaced = nullptr;
    predefined_.Insert(rec, &replaced);
    return;
  }
  mpidbg_object_head* displaced = nullptr;   // orphaned (kOrphanOld)
  mpidbg_object_head* superseded = nullptr;  // dropped (kCountReference)
  {
    SpinGuard guard(lock_);
    mpidbg_object_head* previous = nullptr;
    if (!by_handle_.Insert(rec, &previous)) return;
    mpidbg_object_head* old = previous != rec ? previous : nullptr;
    if (old != nullptr && (old->hdr.flags & MPIDBG_REC_FREED) == 0) {
      if (counts_references()) {
        // One more reference to the same object: the new record describes it.
        uint64_t refs = 0;
        extra_refs_.FindAsWriter(rec->handle, &refs);
        extra_refs_.Insert(rec->handle, refs + 1);
        superseded = old;
      } else {
        // MPI handed this value out again without the runtime seeing a free.
        OrphanLocked(old, /*released_now=*/true);
        displaced = old;
      }
    } else if (counts_references()) {
      extra_refs_.Erase(rec->handle);  // a new object: no references from before
    }
  }
  if (displaced != nullptr) shared_.orphans->Add(&displaced->hdr, &ReleaseOrphan, this);
  if (superseded != nullptr) ReleaseRecord(superseded);
}

mpidbg_object_head* ObjectRegistry::Find(uint64_t handle) const {
  if (mpidbg_object_head* rec = by_handle_.Find(handle)) return rec;
  return predefined_.Find(handle);
}

mpidbg_object_head* ObjectRegistry::FindLive(uint64_t handle) const {
  if (mpidbg_object_head* rec = by_handle_.Find(handle)) {
    if ((rec->hdr.flags & MPIDBG_REC_FREED) == 0) return rec;
  }
  return predefined_.Find(handle);
}

void ObjectRegistry::OrphanLocked(mpidbg_object_head* rec, bool released_now) {
  table_->BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_FREED;
  if (released_now) rec->hdr.flags |= MPIDBG_REC_RELEASED;
  rec->free_serial = CounterAdd(shared_.free_counter, uint64_t{1});
  table_->EndUpdate(&rec->hdr);
}

mpidbg_object_head* ObjectRegistry::MarkFreed(uint64_t handle, bool released_now) {
  mpidbg_object_head* rec = nullptr;
  {
    SpinGuard guard(lock_);
    rec = by_handle_.Find(handle);
    if (rec == nullptr) return nullptr;
    if ((rec->hdr.flags & MPIDBG_REC_FREED) != 0) return rec;  // freed twice: MPI's error
    // Before the record is marked: an eviction that sees the mark checks the map.
    __atomic_store_n(&freed_mapped_, true, __ATOMIC_RELAXED);
    uint64_t refs = 0;
    if (counts_references() && extra_refs_.FindAsWriter(handle, &refs) && refs != 0) {
      // Other references to the object remain: it is not freed yet.
      if (refs == 1) {
        extra_refs_.Erase(handle);
      } else {
        extra_refs_.Insert(handle, refs - 1);
      }
      return nullptr;
    }
    OrphanLocked(rec, released_now);
  }
  shared_.orphans->Add(&rec->hdr, &ReleaseOrphan, this);
  return rec;
}

mpidbg_object_head* ObjectRegistry::Detach(uint64_t handle) {
  SpinGuard guard(lock_);
  mpidbg_object_head* rec = by_handle_.Find(handle);
  if (rec == nullptr) return nullptr;
  if ((rec->hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_PREDEFINED)) != 0) return nullptr;
  uint64_t refs = 0;
  if (counts_references() && extra_refs_.FindAsWriter(handle, &refs) && refs != 0) {
    // Other references to the object remain: this free does not free it.
    if (refs == 1) {
      extra_refs_.Erase(handle);
    } else {
      extra_refs_.Insert(handle, refs - 1);
    }
    return nullptr;
  }
  by_handle_.CompareErase(handle, rec);
  return rec;
}

void ObjectRegistry::Reattach(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  SpinGuard guard(lock_);
  if (by_handle_.Find(rec->handle) != nullptr) return;
  mpidbg_object_head* previous = nullptr;
  by_handle_.Insert(rec, &previous);
}

void ObjectRegistry::MarkDetachedFreed(mpidbg_object_head* rec, bool released_now) {
  if (rec == nullptr) return;
  {
    SpinGuard guard(lock_);
    if ((rec->hdr.flags & MPIDBG_REC_FREED) != 0) return;
    OrphanLocked(rec, released_now);
  }
  shared_.orphans->Add(&rec->hdr, &ReleaseOrphan, this);
}

void ObjectRegistry::MarkDetachedFreedHeld(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  SpinGuard guard(lock_);
  if ((rec->hdr.flags & MPIDBG_REC_FREED) == 0) OrphanLocked(rec, /*released_now=*/false);
}

void ObjectRegistry::MarkReleased(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  SpinGuard guard(lock_);
  if (rec->hdr.kind == MPIDBG_KIND_FREE) return;
  table_->BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_RELEASED;
  table_->EndUpdate(&rec->hdr);
}

bool ObjectRegistry::MarkHandleReleased(uint64_t handle) {
  SpinGuard guard(lock_);
  // A record still mapped under the lock has not started its release (ReleaseRecord
  // unmaps it first under the same lock).
  mpidbg_object_head* rec = by_handle_.Find(handle);
  if (rec == nullptr) return false;
  const uint32_t flags = rec->hdr.flags;
  if ((flags & MPIDBG_REC_FREED) == 0 || (flags & MPIDBG_REC_RELEASED) != 0) return false;
  table_->BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_RELEASED;
  table_->EndUpdate(&rec->hdr);
  return true;
}

void ObjectRegistry::ReleaseRecord(mpidbg_object_head* rec) {
  {
    SpinGuard guard(lock_);
    by_handle_.CompareErase(rec->handle, rec);
  }
  if (drop_ != nullptr) {
    // The arrays go inside the window that clears the record: a reader sees it whole,
    // arrays included, or FREE.
    table_->BeginUpdate(&rec->hdr);
    drop_(rec);
    table_->ReleaseOpened(&rec->hdr);
    return;
  }
  table_->Release(&rec->hdr);
}

void ObjectRegistry::Discard(mpidbg_object_head* rec) {
  if (rec != nullptr) ReleaseRecord(rec);
}

void ObjectRegistry::ReleaseOrphan(mpidbg_record_header* rec, void* owner) {
  static_cast<ObjectRegistry*>(owner)->ReleaseRecord(
      reinterpret_cast<mpidbg_object_head*>(rec));
}

}  // namespace mpidbg::core
