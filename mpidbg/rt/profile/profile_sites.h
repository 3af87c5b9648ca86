// profile_sites.h — the MPI-state sampler's counting step: one sample (of `weight`
// ticks) added to the block's totals, its function and its call site.
//
// SIGNAL CONTEXT. Runs in the profiling signal handler (rt/profile/profile.cc), on the sampled
// thread, while other threads may run their own handlers: relaxed atomic adds only, no
// lock, no allocation, no system call, no waiting. The table of sites is open
// addressing by return address (linear probing, at most kMaxProbe slots): an entry is
// claimed EMPTY -> CLAIMED by compare-and-swap, filled, then made READY (release); an
// entry never moves or goes away. A handler that meets a CLAIMED entry (another thread
// filling it this instant) does not wait: the sample's site is lost (counted in `lost`,
// the sample itself still counts by state and function). Header-only so the unit test
// can run it without MPI.
#ifndef MPIDBG_RT_PROFILE_SITES_H
#define MPIDBG_RT_PROFILE_SITES_H

#include <stdint.h>

#include "core/inline.h"
#include "core/job_id.h"
#include "mpidbg/call_ids.h"
#include "mpidbg/records.h"

namespace mpidbg::rt {

// Probes before a site counts as not placeable (the table is that full around it).
constexpr uint32_t kProfileMaxProbe = 64;

// The site entry of (address, call), claimed if new; nullptr when there is no room or
// the entry is being filled by another thread. `sites` has `mask + 1` entries (a power
// of two). One instruction address calls one MPI function but through a function
// pointer, so the call is part of the key.
MPIDBG_ALWAYS_INLINE mpidbg_profile_site* ProfileSiteFor(mpidbg_profile* block,
                                                          mpidbg_profile_site* sites,
                                                          uint32_t mask, uint64_t address,
                                                          int32_t call) {
  uint32_t i = static_cast<uint32_t>(core::Mix64(address)) & mask;
  for (uint32_t n = 0; n < kProfileMaxProbe && n <= mask; ++n, i = (i + 1) & mask) {
    mpidbg_profile_site* s = &sites[i];
    uint32_t state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (state == MPIDBG_PROFILE_SITE_EMPTY) {
      if (__atomic_compare_exchange_n(&s->state, &state, MPIDBG_PROFILE_SITE_CLAIMED, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&s->address, address, __ATOMIC_RELAXED);
        __atomic_store_n(&s->call, call, __ATOMIC_RELAXED);
        __atomic_store_n(&s->state, MPIDBG_PROFILE_SITE_READY, __ATOMIC_RELEASE);
        __atomic_fetch_add(&block->site_count, 1, __ATOMIC_RELAXED);
        return s;
      }
      // Lost the race: `state` now holds what the winner wrote.
    }
    if (state == MPIDBG_PROFILE_SITE_CLAIMED) return nullptr;
    if (__atomic_load_n(&s->address, __ATOMIC_RELAXED) == address &&
        __atomic_load_n(&s->call, __ATOMIC_RELAXED) == call) {
      return s;
    }
  }
  return nullptr;
}

// Counts `weight` samples of a thread in `state` (enum mpidbg_thread_state), in MPI
// function `call` called from `site` (both ignored when not in MPI).
MPIDBG_ALWAYS_INLINE void ProfileCount(mpidbg_profile* block, mpidbg_profile_function* functions,
                                       mpidbg_profile_site* sites, uint32_t mask, int state,
                                       int32_t call, uint64_t site, uint64_t weight) {
  if (state < MPIDBG_THREAD_NOT_IN_MPI || state > MPIDBG_THREAD_BLOCKED) return;
  __atomic_fetch_add(&block->samples[state], weight, __ATOMIC_RELAXED);
  if (state == MPIDBG_THREAD_NOT_IN_MPI) return;
  const bool blocked = state == MPIDBG_THREAD_BLOCKED;
  if (call > MPIDBG_CALL_NONE && static_cast<uint32_t>(call) < block->function_count) {
    mpidbg_profile_function* f = &functions[call];
    __atomic_fetch_add(blocked ? &f->blocked : &f->working, weight, __ATOMIC_RELAXED);
  }
  mpidbg_profile_site* s = site != 0 ? ProfileSiteFor(block, sites, mask, site, call) : nullptr;
  if (s == nullptr) {
    __atomic_fetch_add(&block->lost, weight, __ATOMIC_RELAXED);
    return;
  }
  __atomic_fetch_add(blocked ? &s->blocked : &s->working, weight, __ATOMIC_RELAXED);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_SITES_H
