// request_index.h — request handle -> op record(s), the lookup every Wait/Test does.
//
// Open addressing with linear probing and backward-shift deletion: no tombstones, so a
// table that sees millions of requests come and go never needs rebuilding; it grows
// (doubling, the only allocation) when live entries pass half its capacity and never
// shrinks. Not thread-safe: the caller serialises every access (the op registry takes
// its spinlock under MPI_THREAD_MULTIPLE and nothing below it).
//
// It depends on nothing of MPI (its unit test compiles it without an MPI library).
//
// An entry holds the request's op record and an optional companion record (the send
// half of an MPI_Isendrecv, whose receive half is the main record). Values are record
// addresses; key 0 is reserved (no MPI request handle is 0 in either MPI we build for:
// MPICH's handles carry a kind in their top bits, Open MPI's are object addresses).
#ifndef MPIDBG_RT_REQUEST_INDEX_H
#define MPIDBG_RT_REQUEST_INDEX_H

#include <stdint.h>

namespace mpidbg::core {

class RequestIndex {
 public:
  struct Entry {
    uint64_t key;
    uint64_t op;
    uint64_t companion;
  };

  constexpr explicit RequestIndex(uint32_t initial_capacity = 1024)
      : initial_capacity_(initial_capacity) {}
  RequestIndex(const RequestIndex&) = delete;
  RequestIndex& operator=(const RequestIndex&) = delete;

  // Inserts or replaces. *previous (if given) receives the entry it replaced, or a zero
  // entry. False for key 0 or when memory ran out.
  bool Insert(uint64_t key, uint64_t op, uint64_t companion, Entry* previous = nullptr);
  // The entry of `key`, or nullptr. Valid until the next Insert or Erase.
  const Entry* Find(uint64_t key) const;
  // Removes `key`; *out (if given) receives its entry.
  bool Erase(uint64_t key, Entry* out = nullptr);
  // Removes `key` only if it maps to `op`.
  bool CompareErase(uint64_t key, uint64_t op);
  // The entry of `key` for in-place changes, or nullptr; RemoveEntry removes it.
  Entry* FindMutable(uint64_t key);
  void RemoveEntry(Entry* e);
  // Clears the companion of `key` if it is `companion`.
  void ForgetCompanion(uint64_t key, uint64_t companion);

  uint32_t size() const { return size_; }
  uint32_t capacity() const { return mask_ + (entries_ != nullptr ? 1 : 0); }
  // Frees the entry array (tests, teardown).
  void ReleaseMemory();

 private:
  uint32_t Home(uint64_t key) const;
  bool Grow();
  void RemoveAt(uint32_t slot);

  uint32_t initial_capacity_;
  Entry* entries_ = nullptr;
  uint32_t mask_ = 0;
  uint32_t size_ = 0;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_RT_REQUEST_INDEX_H
