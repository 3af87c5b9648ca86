// object_registry.cc — see object_registry.h.
#include "core/object_registry.h"

#include "core/clock.h"
#include "core/record_write.h"

namespace mpidbg::core {

namespace {
mpidbg_object_head* HeadAt(uint64_t address) {
  return reinterpret_cast<mpidbg_object_head*>(static_cast<uintptr_t>(address));
}
uint64_t AddressOf(const mpidbg_object_head* rec) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(rec));
}
}  // namespace

mpidbg_object_head* ObjectRegistry::BeginCreate(uint64_t handle, int32_t creator,
                                                uint32_t flags) {
  if (!HandleMap::ValidKey(handle)) return nullptr;
  mpidbg_record_header* slot = table_->Create(flags);
  if (slot == nullptr) return nullptr;
  auto* rec = reinterpret_cast<mpidbg_object_head*>(slot);
  rec->handle = handle;
  rec->create_serial = __atomic_add_fetch(shared_.create_counter, 1, __ATOMIC_RELAXED);
  rec->create_time_ns = (flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : RealtimeNs();
  rec->creator = creator;
  rec->fortran_index = -1;
  return rec;
}

void ObjectRegistry::EndCreate(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  table_->EndCreate(&rec->hdr);
  mpidbg_object_head* displaced = nullptr;
  {
    SpinGuard guard(lock_);
    uint64_t previous = 0;
    if (!by_handle_.Insert(rec->handle, AddressOf(rec), &previous)) return;
    if (previous != 0 && previous != AddressOf(rec)) {
      mpidbg_object_head* old = HeadAt(previous);
      if ((old->hdr.flags & MPIDBG_REC_FREED) == 0) {
        // MPI handed this value out again without the runtime seeing a free.
        OrphanLocked(old, /*released_now=*/true);
        displaced = old;
      }
    }
  }
  if (displaced != nullptr) shared_.orphans->Add(&displaced->hdr, &ReleaseOrphan, this);
}

mpidbg_object_head* ObjectRegistry::Find(uint64_t handle) const {
  uint64_t address = 0;
  if (!by_handle_.Find(handle, &address) || address == 0) return nullptr;
  return HeadAt(address);
}

mpidbg_object_head* ObjectRegistry::FindLive(uint64_t handle) const {
  mpidbg_object_head* rec = Find(handle);
  if (rec == nullptr || (rec->hdr.flags & MPIDBG_REC_FREED) != 0) return nullptr;
  return rec;
}

void ObjectRegistry::OrphanLocked(mpidbg_object_head* rec, bool released_now) {
  table_->BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_FREED;
  if (released_now) rec->hdr.flags |= MPIDBG_REC_RELEASED;
  rec->free_serial = __atomic_add_fetch(shared_.free_counter, 1, __ATOMIC_RELAXED);
  table_->EndUpdate(&rec->hdr);
}

mpidbg_object_head* ObjectRegistry::MarkFreed(uint64_t handle, bool released_now) {
  mpidbg_object_head* rec = nullptr;
  {
    SpinGuard guard(lock_);
    uint64_t address = 0;
    if (!by_handle_.Find(handle, &address) || address == 0) return nullptr;
    rec = HeadAt(address);
    if ((rec->hdr.flags & MPIDBG_REC_FREED) != 0) return rec;  // freed twice: MPI's error
    OrphanLocked(rec, released_now);
  }
  shared_.orphans->Add(&rec->hdr, &ReleaseOrphan, this);
  return rec;
}

void ObjectRegistry::MarkReleased(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  SpinGuard guard(lock_);
  if (rec->hdr.kind == MPIDBG_KIND_FREE) return;
  table_->BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_RELEASED;
  table_->EndUpdate(&rec->hdr);
}

void ObjectRegistry::ReleaseRecord(mpidbg_object_head* rec) {
  {
    SpinGuard guard(lock_);
    by_handle_.CompareErase(rec->handle, AddressOf(rec));
  }
  if (drop_ != nullptr) {
    table_->BeginUpdate(&rec->hdr);
    drop_(rec);
    table_->EndUpdate(&rec->hdr);
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
