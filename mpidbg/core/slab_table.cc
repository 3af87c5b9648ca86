// slab_table.cc — slab chain and free list of one record table.
#include "core/slab_table.h"

#include <string.h>
#include <sys/mman.h>

#include "core/record_write.h"

namespace mpidbg::core {

namespace {
// Zeroes a record's body (all but its header). Another thread may be reading the record
// the way a debugger does (ForEachRecord: a lifetime check walking thread or operation
// records) while it is cleared or reopened, with word-sized atomic loads; it must read
// the old or the zero value of each word. memset's stores of naturally aligned words
// give that on the machines the runtime runs on, at a tenth of the instructions of a
// loop of atomic stores; under ThreadSanitizer, which checks the language's rules and
// not the machine's, the body is zeroed with relaxed atomic word stores. Record sizes
// are multiples of 8 (records.h); a tail is zeroed bytewise.
void ZeroBody(mpidbg_record_header* rec, uint32_t record_size) {
  char* body = reinterpret_cast<char*>(rec) + sizeof(mpidbg_record_header);
  const size_t bytes = record_size - sizeof(mpidbg_record_header);
#if defined(__SANITIZE_THREAD__)
  auto* words = reinterpret_cast<uint64_t*>(body);
  const size_t n = bytes / sizeof(uint64_t);
  for (size_t i = 0; i < n; ++i) __atomic_store_n(&words[i], uint64_t{0}, __ATOMIC_RELAXED);
  for (size_t i = n * sizeof(uint64_t); i < bytes; ++i) {
    __atomic_store_n(&body[i], char{0}, __ATOMIC_RELAXED);
  }
#else
  memset(body, 0, bytes);
#endif
}
}  // namespace
namespace {

// The free-list link, stored in the body of a FREE slot right after the header.
mpidbg_record_header** NextFreeLink(mpidbg_record_header* slot) {
  return reinterpret_cast<mpidbg_record_header**>(reinterpret_cast<char*>(slot) +
                                                  sizeof(mpidbg_record_header));
}

uint64_t AddressOf(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

}  // namespace

bool SlabTable::AddSlabLocked() {
  const uint64_t bytes = sizeof(mpidbg_slab) + uint64_t{record_size_} * slots_per_slab_;
  // Anonymous mappings come zero-filled: every slot starts FREE with seq 0.
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  auto* slab = static_cast<mpidbg_slab*>(mem);
  slab->magic = MPIDBG_SLAB_MAGIC;
  slab->next = 0;
  slab->header_size = sizeof(mpidbg_slab);
  slab->record_size = record_size_;
  slab->capacity = slots_per_slab_;
  slab->kind = kind_;

  char* first = static_cast<char*>(mem) + sizeof(mpidbg_slab);
  // Push in reverse so slots are handed out in address order.
  for (uint32_t i = slots_per_slab_; i-- > 0;) {
    auto* slot = reinterpret_cast<mpidbg_record_header*>(first + uint64_t{i} * record_size_);
    *NextFreeLink(slot) = free_head_;
    free_head_ = slot;
  }

  // The slab is complete before it becomes reachable; the count goes up first so a
  // reader's bound is never smaller than the chain.
  __atomic_store_n(&table_->slab_count, table_->slab_count + 1, __ATOMIC_RELEASE);
  if (last_slab_ == nullptr) {
    __atomic_store_n(&table_->first_slab, AddressOf(slab), __ATOMIC_RELEASE);
  } else {
    __atomic_store_n(&last_slab_->next, AddressOf(slab), __ATOMIC_RELEASE);
  }
  last_slab_ = slab;
  return true;
}

mpidbg_record_header* SlabTable::TakeSlot() {
  SpinGuard guard(lock_);
  if (free_head_ == nullptr && !AddSlabLocked()) return nullptr;
  mpidbg_record_header* slot = free_head_;
  free_head_ = *NextFreeLink(slot);
  *NextFreeLink(slot) = nullptr;
  return slot;
}

void SlabTable::ReturnSlot(mpidbg_record_header* slot) {
  if (slot == nullptr) return;
  SpinGuard guard(lock_);
  *NextFreeLink(slot) = free_head_;
  free_head_ = slot;
}

uint32_t SlabTable::TakeSlots(mpidbg_record_header** out, uint32_t n) {
  SpinGuard guard(lock_);
  uint32_t taken = 0;
  while (taken < n) {
    if (free_head_ == nullptr && !AddSlabLocked()) break;
    mpidbg_record_header* slot = free_head_;
    free_head_ = *NextFreeLink(slot);
    *NextFreeLink(slot) = nullptr;
    out[taken++] = slot;
  }
  return taken;
}

void SlabTable::ReturnSlots(mpidbg_record_header* const* slots, uint32_t n) {
  if (n == 0) return;
  SpinGuard guard(lock_);
  for (uint32_t i = 0; i < n; ++i) {
    *NextFreeLink(slots[i]) = free_head_;
    free_head_ = slots[i];
  }
}

void SlabTable::BeginCreate(mpidbg_record_header* slot, uint32_t flags) {
  BeginRecordWrite(slot);
  ZeroBody(slot, record_size_);
  StoreKind(slot, kind_);
  slot->size = static_cast<uint16_t>(record_size_);
  slot->flags = flags;
  slot->reserved = 0;
}

void SlabTable::RecreateOpened(mpidbg_record_header* rec, uint32_t flags) {
  ZeroBody(rec, record_size_);
  StoreKind(rec, kind_);
  rec->size = static_cast<uint16_t>(record_size_);
  rec->flags = flags;
  rec->reserved = 0;
  CounterAdd(&table_->live_count, ~0u);  // -1; an MPI call's step (EndCreateInCall)
}

void SlabTable::EndCreate(mpidbg_record_header* slot) {
  EndRecordWrite(slot);
  GenerationBump(&changes_);
  __atomic_fetch_add(&table_->live_count, 1, __ATOMIC_RELAXED);
  GenerationBump(generation_);
}

void SlabTable::EndCreateInCall(mpidbg_record_header* slot) {
  EndRecordWrite(slot);
  GenerationBump(&changes_);
  CounterAdd(&table_->live_count, 1u);
  GenerationBump(generation_);
}

void SlabTable::BeginUpdate(mpidbg_record_header* rec) const { BeginRecordWrite(rec); }

void SlabTable::EndUpdate(mpidbg_record_header* rec) const {
  EndRecordWrite(rec);
  GenerationBump(&changes_);
  GenerationBump(generation_);
}

void SlabTable::Clear(mpidbg_record_header* rec) {
  BeginRecordWrite(rec);
  ClearOpened(rec);
}

void SlabTable::ClearOpened(mpidbg_record_header* rec) {
  StoreKind(rec, MPIDBG_KIND_FREE);
  rec->flags = 0;
  ZeroBody(rec, record_size_);
  EndRecordWrite(rec);
  GenerationBump(&changes_);
  __atomic_fetch_sub(&table_->live_count, 1, __ATOMIC_RELAXED);
  GenerationBump(generation_);
}

mpidbg_record_header* SlabTable::Create(uint32_t flags) {
  mpidbg_record_header* slot = TakeSlot();
  if (slot != nullptr) BeginCreate(slot, flags);
  return slot;
}

void SlabTable::Release(mpidbg_record_header* rec) {
  if (rec == nullptr) return;
  Clear(rec);
  ReturnSlot(rec);
}

void SlabTable::ReleaseOpened(mpidbg_record_header* rec) {
  ClearOpened(rec);
  ReturnSlot(rec);
}

}  // namespace mpidbg::core
