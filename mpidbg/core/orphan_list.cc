// orphan_list.cc — see orphan_list.h.
#include "core/orphan_list.h"

#include <stdlib.h>

namespace mpidbg::core {

namespace {
// Evictions are done in batches so a callback never runs under the lock.
constexpr uint32_t kBatch = 32;

// The exported counters (evictions, releases) are written only under the list's lock,
// so a plain add does; readers load them atomically.
void StepLocked(uint64_t* counter, uint64_t n) {
  __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}
}  // namespace

bool OrphanList::GrowLocked() {
  uint32_t capacity = capacity_ == 0 ? 64 : capacity_ * 2;
  if (capacity < capacity_) return false;
  Entry* ring = static_cast<Entry*>(malloc(sizeof(Entry) * capacity));
  if (ring == nullptr) return false;
  for (uint32_t i = 0; i < size_; ++i) ring[i] = ring_[(head_ + i) & (capacity_ - 1)];
  free(ring_);
  ring_ = ring;
  capacity_ = capacity;
  head_ = 0;
  return true;
}

void OrphanList::PublishCountLocked() {
  __atomic_store_n(c_.count, static_cast<uint64_t>(size_), __ATOMIC_RELAXED);
}

uint32_t OrphanList::TakeExcessLocked(Entry* out, uint32_t max) {
  if (__atomic_load_n(c_.keep_all, __ATOMIC_RELAXED) != 0) return 0;
  const uint32_t budget = __atomic_load_n(c_.budget, __ATOMIC_RELAXED);
  uint32_t n = 0;
  while (size_ > budget && n < max) {
    out[n++] = ring_[head_];
    head_ = (head_ + 1) & (capacity_ - 1);
    --size_;
  }
  if (n != 0) {
    StepLocked(c_.evictions, n);
    PublishCountLocked();
  }
  return n;
}

bool OrphanList::CarryOutAskedRelease() {
  if (c_.release_asked == nullptr || c_.release_done == nullptr) return false;
  const uint64_t asked = __atomic_load_n(c_.release_asked, __ATOMIC_ACQUIRE);
  if (asked == __atomic_load_n(c_.release_done, __ATOMIC_ACQUIRE)) return false;
  ReleaseAll();
  __atomic_store_n(c_.release_done, asked, __ATOMIC_RELEASE);
  return true;
}

void OrphanList::Add(mpidbg_record_header* rec, ReleaseFn release, void* owner) {
  if (rec == nullptr || release == nullptr) return;
  CarryOutAskedRelease();
  Entry batch[kBatch];
  uint32_t n = 0;
  bool kept = false;
  {
    // Kept and the excess taken under one hold of the lock: one orphan in, usually one
    // out once the budget is full.
    SpinGuard guard(lock_);
    if (size_ < capacity_ || GrowLocked()) {
      ring_[(head_ + size_) & (capacity_ - 1)] = Entry{rec, release, owner};
      ++size_;
      PublishCountLocked();
      kept = true;
      n = TakeExcessLocked(batch, kBatch);
    } else {
      StepLocked(c_.evictions, 1);  // released at once, below
    }
  }
  if (!kept) {
    release(rec, owner);
    return;
  }
  for (;;) {
    for (uint32_t i = 0; i < n; ++i) batch[i].release(batch[i].rec, batch[i].owner);
    if (n < kBatch) return;
    SpinGuard guard(lock_);
    n = TakeExcessLocked(batch, kBatch);
  }
}

uint64_t OrphanList::ReleaseAll() {
  uint64_t total = 0;
  for (;;) {
    Entry batch[kBatch];
    uint32_t n = 0;
    {
      SpinGuard guard(lock_);
      while (size_ > 0 && n < kBatch) {
        batch[n++] = ring_[head_];
        head_ = (head_ + 1) & (capacity_ - 1);
        --size_;
      }
      if (n != 0) {
        StepLocked(c_.releases, n);
        PublishCountLocked();
      }
    }
    if (n == 0) return total;
    for (uint32_t i = 0; i < n; ++i) batch[i].release(batch[i].rec, batch[i].owner);
    total += n;
  }
}

void OrphanList::SetBudget(uint32_t budget) {
  __atomic_store_n(c_.budget, budget, __ATOMIC_RELAXED);
  uint32_t n = 0;
  do {
    Entry batch[kBatch];
    {
      SpinGuard guard(lock_);
      n = TakeExcessLocked(batch, kBatch);
    }
    for (uint32_t i = 0; i < n; ++i) batch[i].release(batch[i].rec, batch[i].owner);
  } while (n == kBatch);
}

uint64_t OrphanList::size() const {
  SpinGuard guard(lock_);
  return size_;
}

void OrphanList::ReleaseMemoryForTests() {
  SpinGuard guard(lock_);
  if (size_ != 0) return;
  free(ring_);
  ring_ = nullptr;
  capacity_ = 0;
  head_ = 0;
}

}  // namespace mpidbg::core
