// concurrency.h — the runtime's lock policy: whether several threads may be inside MPI at
// once, and the cheap counter and lock forms that follow from it.
//
// Below MPI_THREAD_MULTIPLE the application guarantees that one thread at a time calls
// MPI (with its own synchronisation between calls), so state that only MPI calls touch
// needs neither a lock nor a locked instruction: the hot path then uses plain loads and
// stores. Under MPI_THREAD_MULTIPLE (and until MPI_Init has said which level it
// provides) the same code takes the spinlock and uses atomic read-modify-writes.
//
// Counters are accessed through __atomic builtins in both modes (relaxed load + store
// when single), so a concurrent debugger-side read is never a data race in the C++ sense.
#ifndef MPIDBG_CORE_CONCURRENCY_H
#define MPIDBG_CORE_CONCURRENCY_H

#include <stdint.h>

#include "core/inline.h"
#include "core/spinlock.h"

namespace mpidbg::core {

// True when several threads may run runtime code that shares state at the same time.
// Starts true (safe) and is set once, at MPI_Init, from the provided thread level.
inline bool g_concurrent = true;

MPIDBG_ALWAYS_INLINE bool Concurrent() { return __atomic_load_n(&g_concurrent, __ATOMIC_RELAXED); }
inline void SetConcurrent(bool on) { __atomic_store_n(&g_concurrent, on, __ATOMIC_RELAXED); }

// *p += v; returns the new value. A locked add only when threads may race.
template <typename T>
MPIDBG_ALWAYS_INLINE T CounterAdd(T* p, T v) {
  if (Concurrent()) return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
  T n = __atomic_load_n(p, __ATOMIC_RELAXED) + v;
  __atomic_store_n(p, n, __ATOMIC_RELAXED);
  return n;
}

// The same, for a caller that updates several counters and has read Concurrent() once.
template <typename T>
MPIDBG_ALWAYS_INLINE T CounterAdd(T* p, T v, bool concurrent) {
  if (concurrent) return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
  T n = __atomic_load_n(p, __ATOMIC_RELAXED) + v;
  __atomic_store_n(p, n, __ATOMIC_RELAXED);
  return n;
}

// The same for a counter readers use to detect change (root.generation): release order,
// so a reader that sees the new value sees the writes before it.
MPIDBG_ALWAYS_INLINE void GenerationBump(uint64_t* p) {
  if (Concurrent()) {
    __atomic_fetch_add(p, 1, __ATOMIC_RELEASE);
  } else {
    __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
  }
}

// The same for a caller that has seen Concurrent() false in this MPI call (a thread's
// exit may still step it at once, absorbing one step: doc/hot_path.md, "Lock policy").
MPIDBG_ALWAYS_INLINE void GenerationBumpPlain(uint64_t* p) {
  __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

// A scope that holds `lock` only when threads may race.
class MaybeSpinGuard {
 public:
  explicit MaybeSpinGuard(SpinLock& lock) : lock_(Concurrent() ? &lock : nullptr) {
    if (lock_ != nullptr) lock_->lock();
  }
  ~MaybeSpinGuard() {
    if (lock_ != nullptr) lock_->unlock();
  }
  MaybeSpinGuard(const MaybeSpinGuard&) = delete;
  MaybeSpinGuard& operator=(const MaybeSpinGuard&) = delete;

 private:
  SpinLock* lock_;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_CONCURRENCY_H
