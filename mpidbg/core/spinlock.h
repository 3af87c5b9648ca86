// spinlock.h — the runtime's only lock: a test-and-set spinlock.
//
// It guards record allocation (slab free lists) and the runtime's private hash tables.
// Critical sections are a few dozen instructions, so spinning beats a futex; after a
// while the waiter yields, because MPI jobs often oversubscribe cores. On the
// per-message path it is taken only under MPI_THREAD_MULTIPLE (core/concurrency.h).
#ifndef MPIDBG_CORE_SPINLOCK_H
#define MPIDBG_CORE_SPINLOCK_H

#include <sched.h>

#include <atomic>

namespace mpidbg::core {

class SpinLock {
 public:
  constexpr SpinLock() = default;
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

  // The uncontended lock is one exchange inline; the wait is out of line, so a caller
  // does not keep registers saved for a loop it almost never runs.
  void lock() {
    if (__builtin_expect(flag_.test_and_set(std::memory_order_acquire), 0)) LockContended();
  }
  // Takes the lock if it is free; never waits.
  bool try_lock() { return !flag_.test_and_set(std::memory_order_acquire); }
  void unlock() { flag_.clear(std::memory_order_release); }

 private:
  __attribute__((noinline, cold)) void LockContended() {
    unsigned spins = 0;
    while (flag_.test_and_set(std::memory_order_acquire)) {
      if (++spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        sched_yield();
      }
    }
  }

  std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

class SpinGuard {
 public:
  explicit SpinGuard(SpinLock& lock) : lock_(lock) { lock_.lock(); }
  ~SpinGuard() { lock_.unlock(); }
  SpinGuard(const SpinGuard&) = delete;
  SpinGuard& operator=(const SpinGuard&) = delete;

 private:
  SpinLock& lock_;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_SPINLOCK_H
