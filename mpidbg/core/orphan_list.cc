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

void OrphanList::CarryOutRelease(uint64_t asked, bool beside_mpi) {
  // One asked release at a time. The clock thread's holds aside the orphans only MPI
  // calls may release while it runs its callbacks; an MPI call's release meanwhile would
  // find them gone from the list, release the rest and acknowledge the request before
  // they are back. So a release that finds another under way does nothing: that one
  // acknowledges, or leaves the request outstanding for the next free inside MPI.
  if (!release_lock_.try_lock()) return;
  if (asked != __atomic_load_n(c_.release_done, __ATOMIC_ACQUIRE)) {
    uint64_t kept = 0;
    ReleaseAllKeeping(beside_mpi, &kept);
    // Orphans left for an MPI call to release: the request stays outstanding.
    if (kept == 0) __atomic_store_n(c_.release_done, asked, __ATOMIC_RELEASE);
  }
  release_lock_.unlock();
}

void OrphanList::Add(mpidbg_record_header* rec, ReleaseFn release, void* owner, bool beside) {
  if (rec == nullptr || release == nullptr) return;
  CarryOutAskedRelease();
  // The common cases, without AddEvicting's frame: the budget not reached (a program
  // that makes and frees all the time: each cycle's new record took the oldest orphan's
  // slot), or reached, when this orphan in is the oldest out (a kind whose records do not
  // take orphans' slots). Beyond them (the ring full, keep_all, a budget that shrank),
  // AddEvicting.
  Entry evicted{};
  {
    SpinGuard guard(lock_);
    const uint32_t budget = __atomic_load_n(c_.budget, __ATOMIC_RELAXED);
    const bool one_out = size_ == budget && size_ != 0 &&
                         __atomic_load_n(c_.keep_all, __ATOMIC_RELAXED) == 0;
    if (size_ < capacity_ && (size_ < budget || one_out)) {
      ring_[(head_ + size_) & (capacity_ - 1)] = Entry{rec, release, owner, beside};
      if (one_out) {
        evicted = ring_[head_];
        head_ = (head_ + 1) & (capacity_ - 1);
        StepLocked(c_.evictions, 1);
      } else {
        ++size_;
        PublishCountLocked();
      }
      rec = nullptr;  // kept
    }
  }
  if (rec != nullptr) {
    AddEvicting(rec, release, owner, beside);
  } else if (evicted.rec != nullptr) {
    evicted.release(evicted.rec, evicted.owner);  // outside the lock, as every release
  }
}

void OrphanList::AddEvicting(mpidbg_record_header* rec, ReleaseFn release, void* owner,
                             bool beside) {
  Entry batch[kBatch];
  uint32_t n = 0;
  bool kept = false;
  {
    // Kept and the excess taken under one hold of the lock: one orphan in, usually one
    // out once the budget is full.
    SpinGuard guard(lock_);
    if (size_ < capacity_ || GrowLocked()) {
      ring_[(head_ + size_) & (capacity_ - 1)] = Entry{rec, release, owner, beside};
      ++size_;
      PublishCountLocked();
      kept = true;
      if (size_ > __atomic_load_n(c_.budget, __ATOMIC_RELAXED)) n = TakeExcessLocked(batch, kBatch);
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

mpidbg_record_header* OrphanList::TakeOldestForReuse(ReleaseFn release, void* owner) {
  // The published count is the list's size: below the budget nothing is evicted.
  const uint32_t budget = __atomic_load_n(c_.budget, __ATOMIC_RELAXED);
  if (__atomic_load_n(c_.count, __ATOMIC_RELAXED) < budget) return nullptr;
  // A release a debugger asked for comes first, as in Add: it empties the list.
  CarryOutAskedRelease();
  SpinGuard guard(lock_);
  if (size_ == 0 || size_ < budget || __atomic_load_n(c_.keep_all, __ATOMIC_RELAXED) != 0)
    return nullptr;
  const Entry& oldest = ring_[head_];
  if (oldest.release != release || oldest.owner != owner) return nullptr;
  mpidbg_record_header* rec = oldest.rec;
  head_ = (head_ + 1) & (capacity_ - 1);
  --size_;
  StepLocked(c_.evictions, 1);
  PublishCountLocked();
  return rec;
}

uint64_t OrphanList::ReleaseAll() {
  uint64_t kept = 0;
  return ReleaseAllKeeping(/*beside_mpi=*/false, &kept);
}

void OrphanList::PutBackOldestLocked(const Entry* entries, uint32_t n) {
  for (uint32_t i = n; i-- > 0;) {
    if (size_ == capacity_ && !GrowLocked()) {
      // No memory to keep it listed: it stays a freed record nothing evicts (a reader
      // still sees it as an orphan) rather than be released beside an MPI call.
      continue;
    }
    head_ = (head_ - 1) & (capacity_ - 1);
    ring_[head_] = entries[i];
    ++size_;
  }
  PublishCountLocked();
}

uint64_t OrphanList::ReleaseAllKeeping(bool beside_mpi, uint64_t* kept) {
  *kept = 0;
  uint32_t todo = 0;  // the orphans kept now; any added meanwhile are not this call's
  {
    SpinGuard guard(lock_);
    todo = size_;
  }
  // Orphans that stay (beside_mpi only) are held aside, then put back as the oldest, in
  // their order. Without memory to hold them nothing is released.
  Entry* stay = nullptr;
  uint32_t stay_n = 0;
  if (beside_mpi && todo != 0) {
    stay = static_cast<Entry*>(malloc(sizeof(Entry) * todo));
    if (stay == nullptr) {
      *kept = todo;
      return 0;
    }
  }
  uint64_t total = 0;
  while (todo > 0) {
    Entry batch[kBatch];
    uint32_t n = 0, released = 0;
    {
      SpinGuard guard(lock_);
      while (size_ > 0 && n < kBatch && n < todo) {
        batch[n++] = ring_[head_];
        head_ = (head_ + 1) & (capacity_ - 1);
        --size_;
      }
      for (uint32_t i = 0; i < n; ++i) released += (!beside_mpi || batch[i].beside) ? 1u : 0u;
      if (released != 0) StepLocked(c_.releases, released);
      if (n != 0) PublishCountLocked();
    }
    if (n == 0) break;
    todo -= n;
    for (uint32_t i = 0; i < n; ++i) {
      if (!beside_mpi || batch[i].beside) {
        batch[i].release(batch[i].rec, batch[i].owner);
      } else {
        stay[stay_n++] = batch[i];
      }
    }
    total += released;
  }
  if (stay_n != 0) {
    SpinGuard guard(lock_);
    PutBackOldestLocked(stay, stay_n);
  }
  *kept = stay_n;
  free(stay);
  return total;
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
