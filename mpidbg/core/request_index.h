// request_index.h — request handle -> op record(s), the lookup every Wait/Test does.
//
// Open addressing with linear probing and backward-shift deletion: no tombstones, so a
// table that sees millions of requests come and go never needs rebuilding; it grows
// (doubling, the only allocation) when live entries pass half its capacity and never
// shrinks. Not thread-safe: the caller serialises every access (the request registry takes
// its spinlock under MPI_THREAD_MULTIPLE and nothing below it).
//
// It depends on nothing of MPI (its unit test compiles it without an MPI library). The
// per-request operations are inline (every Isend and every completion runs them); growth
// is in request_index.cc.
//
// An entry holds the request's op record and an optional companion record (the send
// half of an MPI_Isendrecv, whose receive half is the main record). Values are record
// addresses; key 0 is reserved (no MPI request handle is 0 in either MPI we build for:
// MPICH's handles carry a kind in their top bits, Open MPI's are object addresses).
#ifndef MPIDBG_CORE_REQUEST_INDEX_H
#define MPIDBG_CORE_REQUEST_INDEX_H

#include <stdint.h>

namespace mpidbg::core {

class RequestIndex {
 public:
  struct Entry {
    uint64_t key;
    uint64_t record;
    uint64_t companion;
  };

  constexpr explicit RequestIndex(uint32_t initial_capacity = 1024)
      : initial_capacity_(initial_capacity) {}
  RequestIndex(const RequestIndex&) = delete;
  RequestIndex& operator=(const RequestIndex&) = delete;

  // Inserts or replaces. *previous (if given) receives the entry it replaced, or a zero
  // entry. False for key 0 or when memory ran out.
  bool Insert(uint64_t key, uint64_t record, uint64_t companion, Entry* previous = nullptr) {
    if (previous != nullptr) *previous = Entry{0, 0, 0};
    if (key == 0) return false;
    // Grown first (while at most half full), so one probe finds the key or its place:
    // without tombstones the key, if present, lies before the first empty slot.
    if (__builtin_expect(entries_ == nullptr || uint64_t{size_ + 1} * 2 > uint64_t{mask_} + 1, 0) &&
        !Grow()) {
      if (entries_ == nullptr || size_ == mask_) return false;  // still room to replace in
    }
    for (uint32_t i = Home(key);; i = (i + 1) & mask_) {
      Entry& e = entries_[i];
      if (e.key == key) {
        if (previous != nullptr) *previous = e;
        e.record = record;
        e.companion = companion;
        return true;
      }
      if (e.key == 0) {
        e = Entry{key, record, companion};
        ++size_;
        return true;
      }
    }
  }
  // The entry of `key`, or nullptr. Valid until the next Insert or Erase.
  const Entry* Find(uint64_t key) const {
    if (entries_ == nullptr || key == 0) return nullptr;
    for (uint32_t i = Home(key);; i = (i + 1) & mask_) {
      const Entry& e = entries_[i];
      if (e.key == key) return &e;
      if (e.key == 0) return nullptr;
    }
  }
  // The entry of `key`, or the empty entry where Insert would put it (grown first, as
  // Insert does); nullptr for key 0 or when memory ran out. Valid until the next change;
  // Claim fills an empty one. For a caller that decides what to insert once it knows
  // whether the key is there, with one probe.
  Entry* FindOrSlot(uint64_t key) {
    if (key == 0) return nullptr;
    if (__builtin_expect(entries_ == nullptr || uint64_t{size_ + 1} * 2 > uint64_t{mask_} + 1, 0) &&
        !Grow()) {
      if (entries_ == nullptr || size_ == mask_) return nullptr;
    }
    for (uint32_t i = Home(key);; i = (i + 1) & mask_) {
      Entry& e = entries_[i];
      if (e.key == key || e.key == 0) return &e;
    }
  }
  void Claim(Entry* empty, uint64_t key, uint64_t record, uint64_t companion) {
    *empty = Entry{key, record, companion};
    ++size_;
  }
  // Removes `key`; *out (if given) receives its entry.
  bool Erase(uint64_t key, Entry* out = nullptr);
  // Removes `key` only if it maps to `record`.
  bool CompareErase(uint64_t key, uint64_t record);
  // The entry of `key` for in-place changes, or nullptr; RemoveEntry removes it.
  Entry* FindMutable(uint64_t key) { return const_cast<Entry*>(Find(key)); }
  void RemoveEntry(Entry* e) { RemoveAt(static_cast<uint32_t>(e - entries_)); }
  // Clears the companion of `key` if it is `companion`.
  void ForgetCompanion(uint64_t key, uint64_t companion);

  uint32_t size() const { return size_; }
  // Calls fn(const Entry&) for every entry, in table order (not per request: a cold walk,
  // for a pause that notes the requests pending, rt/hot/pause_drain.h).
  template <typename Fn>
  void ForEach(Fn fn) const {
    if (entries_ == nullptr) return;
    for (uint32_t i = 0; i <= mask_; ++i) {
      if (entries_[i].key != 0) fn(entries_[i]);
    }
  }
  uint32_t capacity() const { return mask_ + (entries_ != nullptr ? 1 : 0); }
  // Frees the entry array (tests, teardown).
  void ReleaseMemory();

 private:
  // Fibonacci hashing: one multiply spreads MPICH's dense integer handles and Open MPI's
  // aligned object addresses alike; the high bits of the product are the best mixed.
  uint32_t Home(uint64_t key) const {
    return static_cast<uint32_t>((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask_;
  }
  bool Grow();
  // Backward-shift deletion: moves later entries of the probe run into the hole so that
  // every remaining entry stays reachable from its home slot without tombstones.
  void RemoveAt(uint32_t hole) {
    uint32_t i = hole;
    for (;;) {
      i = (i + 1) & mask_;
      if (entries_[i].key == 0) break;
      const uint32_t home = Home(entries_[i].key);
      // The entry at i may fill the hole if its home is not in (hole, i] cyclically.
      const bool home_after_hole =
          hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
      if (home_after_hole) continue;
      entries_[hole] = entries_[i];
      hole = i;
    }
    entries_[hole] = Entry{0, 0, 0};
    --size_;
  }

  uint32_t initial_capacity_;
  Entry* entries_ = nullptr;
  uint32_t mask_ = 0;
  uint32_t size_ = 0;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_REQUEST_INDEX_H
