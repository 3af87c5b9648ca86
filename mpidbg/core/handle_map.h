// handle_map.h — open-addressing hash from a 64-bit key (a widened MPI handle, or a
// job-id counter key) to a 64-bit value (usually a record address).
//
// Find() is lock-free and may run concurrently with one writer; writers (Insert, Erase,
// CompareErase) must be serialised by the caller. The bucket array is rebuilt when it
// gets 70% full (tombstones included): doubled if live entries need it, else at the
// same size to drop tombstones. A replaced array may still be read by a concurrent
// Find, so it is kept until a writer sees no Find in progress (Finds count themselves
// in and out), then freed: under any churn, memory stays within a few arrays.
//
// Not on the per-message path: the hot path caches what it looks up here (communicator
// views per thread); the request index is core/request_index.h.
//
// Keys 0 and ~0 are reserved (empty and tombstone); no MPI handle we store takes them.
#ifndef MPIDBG_CORE_HANDLE_MAP_H
#define MPIDBG_CORE_HANDLE_MAP_H

#include <stdint.h>

#include <atomic>

namespace mpidbg::core {

class HandleMap {
 public:
  static constexpr uint64_t kEmpty = 0;
  static constexpr uint64_t kTombstone = ~uint64_t{0};

  constexpr explicit HandleMap(uint32_t initial_capacity = 64)
      : initial_capacity_(initial_capacity) {}
  HandleMap(const HandleMap&) = delete;
  HandleMap& operator=(const HandleMap&) = delete;

  static bool ValidKey(uint64_t key) { return key != kEmpty && key != kTombstone; }

  // Lock-free lookup.
  bool Find(uint64_t key, uint64_t* value) const;
  // The same for a writer (one that holds whatever serialises the writers): no array
  // can be replaced under it, so it does not count itself in as a reader (two locked
  // instructions fewer).
  bool FindAsWriter(uint64_t key, uint64_t* value) const;

  // Writers (serialised by the caller).
  // Inserts or overwrites. *previous (if given) gets the value it replaced, or 0.
  // Returns false on an invalid key or when memory ran out.
  bool Insert(uint64_t key, uint64_t value, uint64_t* previous = nullptr);
  bool Erase(uint64_t key, uint64_t* value = nullptr);
  // Erases only if the key currently maps to `expected`.
  bool CompareErase(uint64_t key, uint64_t expected);

  // Frees every bucket array, the retired ones included, leaving an empty map. Only
  // when no reader can be running (tests, teardown); the runtime never calls it.
  void ReleaseMemory();

  uint32_t size() const { return live_; }
  uint32_t capacity() const;
  // Replaced arrays not yet freed (tests).
  uint32_t retired_arrays() const;

 private:
  struct Bucket {
    std::atomic<uint64_t> key;
    std::atomic<uint64_t> value;
  };
  struct Array {
    uint32_t mask;
    Array* retired;  // previous array, kept for concurrent readers
    Bucket buckets[1];
  };

  static uint64_t Hash(uint64_t key);
  static Array* NewArray(uint32_t capacity);
  bool Grow();
  Bucket* Locate(Array* a, uint64_t key) const;
  // Frees replaced arrays if no Find is in progress (writers only).
  void ReclaimRetired();

  uint32_t initial_capacity_;
  std::atomic<Array*> array_{nullptr};
  mutable std::atomic<uint32_t> readers_{0};  // Finds in progress
  uint32_t live_ = 0;
  uint32_t used_ = 0;  // live + tombstones
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_HANDLE_MAP_H
