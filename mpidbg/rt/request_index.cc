// request_index.cc — see request_index.h.
#include "rt/request_index.h"

#include <stdlib.h>


namespace mpidbg::core {

// Fibonacci hashing: one multiply spreads MPICH's dense integer handles and Open MPI's
// aligned object addresses alike; the high bits of the product are the best mixed.
uint32_t RequestIndex::Home(uint64_t key) const {
  return static_cast<uint32_t>((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask_;
}

bool RequestIndex::Grow() {
  uint32_t capacity = entries_ == nullptr ? initial_capacity_ : (mask_ + 1) * 2;
  if (capacity < 16) capacity = 16;
  uint32_t p = 16;
  while (p < capacity && p != 0) p <<= 1;
  if (p == 0) return false;
  capacity = p;
  auto* fresh = static_cast<Entry*>(calloc(capacity, sizeof(Entry)));
  if (fresh == nullptr) return false;
  Entry* old = entries_;
  const uint32_t old_capacity = old == nullptr ? 0 : mask_ + 1;
  entries_ = fresh;
  mask_ = capacity - 1;
  for (uint32_t i = 0; i < old_capacity; ++i) {
    if (old[i].key == 0) continue;
    uint32_t j = Home(old[i].key);
    while (fresh[j].key != 0) j = (j + 1) & mask_;
    fresh[j] = old[i];
  }
  free(old);
  return true;
}

bool RequestIndex::Insert(uint64_t key, uint64_t op, uint64_t companion, Entry* previous) {
  if (previous != nullptr) *previous = Entry{0, 0, 0};
  if (key == 0) return false;
  // Grown first (while at most half full), so one probe finds the key or its place:
  // without tombstones the key, if present, lies before the first empty slot.
  if ((entries_ == nullptr || uint64_t{size_ + 1} * 2 > uint64_t{mask_} + 1) && !Grow()) {
    if (entries_ == nullptr || size_ == mask_) return false;  // still room to replace in
  }
  for (uint32_t i = Home(key);; i = (i + 1) & mask_) {
    Entry& e = entries_[i];
    if (e.key == key) {
      if (previous != nullptr) *previous = e;
      e.op = op;
      e.companion = companion;
      return true;
    }
    if (e.key == 0) {
      e = Entry{key, op, companion};
      ++size_;
      return true;
    }
  }
}

const RequestIndex::Entry* RequestIndex::Find(uint64_t key) const {
  if (entries_ == nullptr || key == 0) return nullptr;
  for (uint32_t i = Home(key);; i = (i + 1) & mask_) {
    const Entry& e = entries_[i];
    if (e.key == key) return &e;
    if (e.key == 0) return nullptr;
  }
}

// Backward-shift deletion: moves later entries of the probe run into the hole so that
// every remaining entry stays reachable from its home slot without tombstones.
void RequestIndex::RemoveAt(uint32_t hole) {
  uint32_t i = hole;
  for (;;) {
    i = (i + 1) & mask_;
    if (entries_[i].key == 0) break;
    const uint32_t home = Home(entries_[i].key);
    // The entry at i may fill the hole if its home is not in (hole, i] cyclically.
    const bool home_after_hole = hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
    if (home_after_hole) continue;
    entries_[hole] = entries_[i];
    hole = i;
  }
  entries_[hole] = Entry{0, 0, 0};
  --size_;
}

bool RequestIndex::Erase(uint64_t key, Entry* out) {
  const Entry* e = Find(key);
  if (e == nullptr) return false;
  if (out != nullptr) *out = *e;
  RemoveAt(static_cast<uint32_t>(e - entries_));
  return true;
}

bool RequestIndex::CompareErase(uint64_t key, uint64_t op) {
  const Entry* e = Find(key);
  if (e == nullptr || e->op != op) return false;
  RemoveAt(static_cast<uint32_t>(e - entries_));
  return true;
}

RequestIndex::Entry* RequestIndex::FindMutable(uint64_t key) {
  return const_cast<Entry*>(Find(key));
}

void RequestIndex::RemoveEntry(Entry* e) { RemoveAt(static_cast<uint32_t>(e - entries_)); }

void RequestIndex::ForgetCompanion(uint64_t key, uint64_t companion) {
  Entry* e = FindMutable(key);
  if (e != nullptr && e->companion == companion) e->companion = 0;
}

void RequestIndex::ReleaseMemory() {
  free(entries_);
  entries_ = nullptr;
  mask_ = 0;
  size_ = 0;
}

}  // namespace mpidbg::core
