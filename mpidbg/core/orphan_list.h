// orphan_list.h — records of freed handles kept for debuggers ("orphans"), oldest first.
//
// When the application frees a handle its record stays, marked freed, so a stale copy of
// the handle still shows what it was (seed MPI_Handles_interface). Orphans of every kind
// share one budget: past it the oldest are released (and counted as evictions), unless
// a debugger has set keep_all. A debugger can also drop them all (ReleaseAll, behind
// the exported mpidbg_release_orphans()).
//
// The counters live in the exported root so a debugger reads them from memory. Not on
// a per-message path: orphans are made by MPI_*_free calls. Thread-safe.
//
// Release callbacks run on the calling thread after the list's own lock is dropped, so
// a callback may take its registry's lock. Callers must therefore not hold that lock
// while calling Add or ReleaseAll.
//
// An orphan whose release touches state only MPI calls may change (the request index
// below MPI_THREAD_MULTIPLE, which takes no lock there) is added with `beside` false:
// a release carried out beside the application's MPI calls (the runtime's clock thread
// doing what a debugger asked) leaves it in the list, in its place, and the release
// stays outstanding until an MPI call finishes it (Add carries out an outstanding one).
#ifndef MPIDBG_CORE_ORPHAN_LIST_H
#define MPIDBG_CORE_ORPHAN_LIST_H

#include <stdint.h>

#include "core/spinlock.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

class OrphanList {
 public:
  // Frees whatever the record owns and returns its slot; `owner` is the registry.
  using ReleaseFn = void (*)(mpidbg_record_header* rec, void* owner);

  struct Counters {
    uint32_t* budget;     // most orphans kept
    uint32_t* keep_all;   // nonzero: ignore the budget
    uint64_t* count;      // orphans kept now
    uint64_t* evictions;  // released because of the budget
    uint64_t* releases;   // released by ReleaseAll
    // A release a debugger asks for by writing memory (records.h): asked above done
    // means one is outstanding; nullptr for none.
    uint64_t* release_asked = nullptr;
    uint64_t* release_done = nullptr;
  };

  constexpr explicit OrphanList(Counters counters) : c_(counters) {}
  OrphanList(const OrphanList&) = delete;
  OrphanList& operator=(const OrphanList&) = delete;

  // Keeps `rec` as the newest orphan, then evicts the oldest ones beyond the budget.
  // If memory for the list itself runs out the record is released at once (counted as
  // an eviction): a debugger loses a stale view, the application loses nothing.
  // `beside`: whether the release may run beside a thread in MPI (file comment).
  void Add(mpidbg_record_header* rec, ReleaseFn release, void* owner, bool beside = true);

  // The oldest orphan, taken out of the list for `owner` to write a new record over in
  // its slot, when it is the one the next Add would evict (the budget is full, keep_all
  // unset) and it is `owner`'s (added with `release` and `owner`): counted as an
  // eviction. nullptr otherwise, and without taking the lock while the list is below
  // its budget. A new record then costs no slot taken and no evicted record cleared and
  // given back: what a program that makes and frees objects all the time does once the
  // budget is full.
  mpidbg_record_header* TakeOldestForReuse(ReleaseFn release, void* owner);

  // Releases every orphan; returns how many.
  uint64_t ReleaseAll();

  // Carries out the release a debugger asked for, if one is outstanding: every orphan
  // released, then the request's number stored in `release_done` (after the releases,
  // so a debugger that reads it sees them done). True if there was one. Add does this
  // first; the runtime also calls it from its clock thread (`beside_mpi`), where an
  // orphan that may not be released there keeps the request outstanding. While one
  // thread carries a release out, another's call does nothing (the first acknowledges).
  bool CarryOutAskedRelease(bool beside_mpi = false) {
    if (c_.release_asked == nullptr || c_.release_done == nullptr) return false;
    // Two loads on every free and every reuse: a request is rare.
    const uint64_t asked = __atomic_load_n(c_.release_asked, __ATOMIC_ACQUIRE);
    if (asked == __atomic_load_n(c_.release_done, __ATOMIC_ACQUIRE)) return false;
    CarryOutRelease(asked, beside_mpi);
    return true;
  }

  // Applies a new budget now (evicting if it shrank).
  void SetBudget(uint32_t budget);

  uint64_t size() const;

  // Frees the list's own memory when empty; for tests.
  void ReleaseMemoryForTests();

 private:
  struct Entry {
    mpidbg_record_header* rec;
    ReleaseFn release;
    void* owner;
    bool beside;  // may be released beside a thread in MPI
  };
  // Add beyond the common case: the ring grown, or the excess beyond the budget evicted.
  __attribute__((noinline)) void AddEvicting(mpidbg_record_header* rec, ReleaseFn release,
                                             void* owner, bool beside);
  // CarryOutAskedRelease once a request numbered `asked` is outstanding.
  void CarryOutRelease(uint64_t asked, bool beside_mpi);
  // ReleaseAll; *kept gets how many orphans stayed because of `beside_mpi`.
  uint64_t ReleaseAllKeeping(bool beside_mpi, uint64_t* kept);
  // Puts entries back as the oldest, in their order.
  void PutBackOldestLocked(const Entry* entries, uint32_t n);
  bool GrowLocked();
  // Moves up to `max` oldest entries beyond the budget into `out`; returns how many.
  uint32_t TakeExcessLocked(Entry* out, uint32_t max);
  void PublishCountLocked();

  Counters c_;
  mutable SpinLock lock_;
  SpinLock release_lock_;  // held by the one asked release under way (CarryOutRelease)
  Entry* ring_ = nullptr;
  uint32_t capacity_ = 0;  // power of two
  uint32_t head_ = 0;      // oldest
  uint32_t size_ = 0;
};

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_ORPHAN_LIST_H
