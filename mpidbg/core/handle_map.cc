// handle_map.cc — see handle_map.h.
#include "core/handle_map.h"

#include <stdlib.h>

#include <new>

#include "core/job_id.h"

namespace mpidbg::core {

uint64_t HandleMap::Hash(uint64_t key) { return Mix64(key); }

HandleMap::Array* HandleMap::NewArray(uint32_t capacity) {
  const size_t bytes = sizeof(Array) + sizeof(Bucket) * (capacity - 1);
  void* mem = calloc(1, bytes);
  if (mem == nullptr) return nullptr;
  auto* a = static_cast<Array*>(mem);
  a->mask = capacity - 1;
  a->retired = nullptr;
  // calloc'd zero bytes are valid empty atomics; construct them formally anyway.
  for (uint32_t i = 0; i < capacity; ++i) {
    new (&a->buckets[i].key) std::atomic<uint64_t>(kEmpty);
    new (&a->buckets[i].value) std::atomic<uint64_t>(0);
  }
  return a;
}

uint32_t HandleMap::capacity() const {
  Array* a = array_.load(std::memory_order_acquire);
  return a == nullptr ? 0 : a->mask + 1;
}

uint32_t HandleMap::retired_arrays() const {
  uint32_t n = 0;
  Array* a = array_.load(std::memory_order_acquire);
  for (Array* r = a != nullptr ? a->retired : nullptr; r != nullptr; r = r->retired) ++n;
  return n;
}

HandleMap::Bucket* HandleMap::Locate(Array* a, uint64_t key) const {
  for (uint32_t i = static_cast<uint32_t>(Hash(key)) & a->mask, n = 0; n <= a->mask;
       i = (i + 1) & a->mask, ++n) {
    uint64_t k = a->buckets[i].key.load(std::memory_order_acquire);
    if (k == key) return &a->buckets[i];
    if (k == kEmpty) return nullptr;
  }
  return nullptr;
}

bool HandleMap::Find(uint64_t key, uint64_t* value) const {
  if (!ValidKey(key)) return false;
  // Counted in before the array is loaded (sequentially consistent, paired with
  // ReclaimRetired), so a writer that sees no reader knows none holds an old array.
  readers_.fetch_add(1, std::memory_order_seq_cst);
  Array* a = array_.load(std::memory_order_seq_cst);
  Bucket* b = a != nullptr ? Locate(a, key) : nullptr;
  if (b != nullptr && value != nullptr) *value = b->value.load(std::memory_order_acquire);
  readers_.fetch_sub(1, std::memory_order_release);
  return b != nullptr;
}

bool HandleMap::FindAsWriter(uint64_t key, uint64_t* value) const {
  if (!ValidKey(key)) return false;
  Array* a = array_.load(std::memory_order_relaxed);
  Bucket* b = a != nullptr ? Locate(a, key) : nullptr;
  if (b != nullptr && value != nullptr) *value = b->value.load(std::memory_order_relaxed);
  return b != nullptr;
}

void HandleMap::ReclaimRetired() {
  Array* a = array_.load(std::memory_order_relaxed);
  if (a == nullptr || a->retired == nullptr) return;
  if (readers_.load(std::memory_order_seq_cst) != 0) return;  // next time
  Array* old = a->retired;
  a->retired = nullptr;
  while (old != nullptr) {
    Array* older = old->retired;
    free(old);
    old = older;
  }
}

bool HandleMap::Grow() {
  Array* old = array_.load(std::memory_order_relaxed);
  uint32_t capacity = old == nullptr ? initial_capacity_ : old->mask + 1;
  if (capacity < 8) capacity = 8;
  if ((capacity & (capacity - 1)) != 0) {  // round up to a power of two
    uint32_t p = 8;
    while (p < capacity) p <<= 1;
    capacity = p;
  }
  // Double only when live entries need it; otherwise rebuilding drops the tombstones.
  if (old != nullptr && uint64_t{live_} * 10 >= uint64_t{capacity} * 5) capacity <<= 1;
  if (capacity == 0) return false;
  Array* fresh = NewArray(capacity);
  if (fresh == nullptr) return false;
  if (old != nullptr) {
    for (uint32_t i = 0; i <= old->mask; ++i) {
      uint64_t k = old->buckets[i].key.load(std::memory_order_relaxed);
      if (!ValidKey(k)) continue;
      uint32_t j = static_cast<uint32_t>(Hash(k)) & fresh->mask;
      while (fresh->buckets[j].key.load(std::memory_order_relaxed) != kEmpty) j = (j + 1) & fresh->mask;
      fresh->buckets[j].value.store(old->buckets[i].value.load(std::memory_order_relaxed),
                                    std::memory_order_relaxed);
      fresh->buckets[j].key.store(k, std::memory_order_relaxed);
    }
  }
  fresh->retired = old;
  used_ = live_;
  array_.store(fresh, std::memory_order_seq_cst);
  ReclaimRetired();
  return true;
}

bool HandleMap::Insert(uint64_t key, uint64_t value, uint64_t* previous) {
  if (previous != nullptr) *previous = 0;
  if (!ValidKey(key)) return false;
  ReclaimRetired();
  Array* a = array_.load(std::memory_order_relaxed);
  if (a != nullptr) {
    if (Bucket* b = Locate(a, key)) {
      if (previous != nullptr) *previous = b->value.load(std::memory_order_relaxed);
      b->value.store(value, std::memory_order_release);
      return true;
    }
  }
  if (a == nullptr || uint64_t{used_ + 1} * 10 > uint64_t{a->mask + 1} * 7) {
    if (!Grow()) return false;
    a = array_.load(std::memory_order_relaxed);
  }
  uint32_t i = static_cast<uint32_t>(Hash(key)) & a->mask;
  for (;;) {
    uint64_t k = a->buckets[i].key.load(std::memory_order_relaxed);
    if (k == kEmpty || k == kTombstone) {
      if (k == kEmpty) ++used_;
      // Value first, then key: a concurrent Find that sees the key sees the value.
      a->buckets[i].value.store(value, std::memory_order_relaxed);
      a->buckets[i].key.store(key, std::memory_order_release);
      ++live_;
      return true;
    }
    i = (i + 1) & a->mask;
  }
}

bool HandleMap::Erase(uint64_t key, uint64_t* value) {
  if (!ValidKey(key)) return false;
  Array* a = array_.load(std::memory_order_relaxed);
  if (a == nullptr) return false;
  Bucket* b = Locate(a, key);
  if (b == nullptr) return false;
  if (value != nullptr) *value = b->value.load(std::memory_order_relaxed);
  b->key.store(kTombstone, std::memory_order_release);
  --live_;
  return true;
}

bool HandleMap::CompareErase(uint64_t key, uint64_t expected) {
  if (!ValidKey(key)) return false;
  Array* a = array_.load(std::memory_order_relaxed);
  if (a == nullptr) return false;
  Bucket* b = Locate(a, key);
  if (b == nullptr || b->value.load(std::memory_order_relaxed) != expected) return false;
  b->key.store(kTombstone, std::memory_order_release);
  --live_;
  return true;
}

void HandleMap::ReleaseMemory() {
  Array* a = array_.exchange(nullptr, std::memory_order_acq_rel);
  while (a != nullptr) {
    Array* older = a->retired;
    free(a);
    a = older;
  }
  live_ = used_ = 0;
}

}  // namespace mpidbg::core
