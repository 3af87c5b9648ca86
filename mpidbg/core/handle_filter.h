// handle_filter.h — a fixed set of bits indexed by a hash of a handle value, that only
// ever gains members: "may this handle have been seen?" with no false "no". Lock-free,
// no allocation; a set bit stays set, so a handle value reused for another object only
// costs a needless check, never a wrong answer.
#ifndef MPIDBG_CORE_HANDLE_FILTER_H
#define MPIDBG_CORE_HANDLE_FILTER_H

#include <stdint.h>

#include "core/inline.h"

namespace mpidbg::core {

template <int kWords>
class HandleFilter {
  static_assert(kWords > 0 && (kWords & (kWords - 1)) == 0, "a power of two");

 public:
  // Adds `handle`. Writes only when its bit is clear (the first time), with release
  // order, so a reader that sees what the adder wrote next also sees the bit.
  MPIDBG_ALWAYS_INLINE void Add(uint64_t handle) {
    uint64_t* word = &words_[Word(handle)];
    const uint64_t bit = Bit(handle);
    if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) {
      __atomic_fetch_or(word, bit, __ATOMIC_RELEASE);
    }
  }
  // False only if `handle` was never added.
  bool MayContain(uint64_t handle) const {
    return (__atomic_load_n(&words_[Word(handle)], __ATOMIC_ACQUIRE) & Bit(handle)) != 0;
  }

 private:
  // Handles of one kind differ in their low bits (MPICH's index) or by their object's
  // address (Open MPI): mix them before taking bits.
  static uint64_t Mix(uint64_t h) {
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
  }
  static uint32_t Word(uint64_t h) { return static_cast<uint32_t>(Mix(h) >> 6) & (kWords - 1); }
  static uint64_t Bit(uint64_t h) { return uint64_t{1} << (Mix(h) & 63); }

  uint64_t words_[kWords] = {};
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_HANDLE_FILTER_H
