// request_index.cc — see request_index.h.
#include "core/request_index.h"

#include <stdlib.h>

namespace mpidbg::core {

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

bool RequestIndex::Erase(uint64_t key, Entry* out) {
  const Entry* e = Find(key);
  if (e == nullptr) return false;
  if (out != nullptr) *out = *e;
  RemoveAt(static_cast<uint32_t>(e - entries_));
  return true;
}

bool RequestIndex::CompareErase(uint64_t key, uint64_t record) {
  const Entry* e = Find(key);
  if (e == nullptr || e->record != record) return false;
  RemoveAt(static_cast<uint32_t>(e - entries_));
  return true;
}

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
