// operation_slots.h — the per-message forms of the request registry (rt/hot/operation_registry.h), inline:
// a thread's reserved slots for the envelopes of its blocking calls, and its cache of
// free slots for operation records.
//
// HOT PATH: no lock, no allocation, no system call here; the cold halves (a thread's
// first blocking call, cache refills and drains, which take the request table's lock once per
// kSlotBatch requests) are out of line in operation_registry.cc.
//
// Generation: none of these steps root.generation. Every caller runs inside an
// outermost call scope, whose publication (CallScope::Publish, before PMPI) and reset
// (after the Post hook) each step it once, covering every record the call changed.
#ifndef MPIDBG_RT_REQUEST_SLOTS_H
#define MPIDBG_RT_REQUEST_SLOTS_H

#include <stdint.h>

#include "core/concurrency.h"
#include "core/record_write.h"
#include "core/slab_table.h"
#include "mpidbg/records.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// The thread's reserved slot `which` (0 send/probe/receive, 1 the receive of a
// Sendrecv), taken on the thread's first blocking call with the fields no blocking call
// changes written once: request 0, tid, actual_bytes 0, object 0, free_serial 0,
// file_offset -1, target_disp 0, extra_state 0, query_fn 0, reserved 0. nullptr if
// memory ran out. operation_registry.cc.
mpidbg_operation_record* TakeBlockingSlot(ThreadState* ts, int which);
// Refills an empty slot cache with up to kSlotBatch slots; returns how many it holds.
uint32_t RefillOperationSlots(ThreadState* ts);
// Gives kSlotBatch slots of a full cache back to the request table.
void DrainOperationSlots(ThreadState* ts);

// Opens the blocking envelope in the thread's slot `which` (flags MPIDBG_OPERATION_BLOCKING).
// The caller writes the fields a blocking call changes (hooks_p2p.h, FillEnvelope),
// then CloseOperationRecord. nullptr if memory ran out.
MPIDBG_ALWAYS_INLINE mpidbg_operation_record* OpenBlockingRecord(ThreadState* ts, int which) {
  mpidbg_operation_record* rec = ts->blocking_requests[which];
  if (__builtin_expect(rec == nullptr, 0)) {
    rec = TakeBlockingSlot(ts, which);
    if (rec == nullptr) return nullptr;
  }
  g_operation_table.OpenRecord(&rec->hdr, MPIDBG_OPERATION_BLOCKING);
  return rec;
}

// Closes an opened record: seq even, counted live.
MPIDBG_ALWAYS_INLINE void CloseOperationRecord(mpidbg_operation_record* rec) { g_operation_table.CloseRecord(&rec->hdr); }

// The blocking envelope in slot `which` goes (the slot stays the thread's).
MPIDBG_ALWAYS_INLINE void EndBlockingRecord(ThreadState* ts, int which) {
  mpidbg_operation_record* rec = ts->blocking_requests[which];
  if (rec != nullptr && rec->hdr.kind != MPIDBG_KIND_FREE) g_operation_table.Vacate(&rec->hdr);
}

// A free slot for a operation record from the thread's cache (nullptr if memory ran out).
MPIDBG_ALWAYS_INLINE mpidbg_operation_record* TakeOperationSlot(ThreadState* ts) {
  if (__builtin_expect(ts->slot_count == 0, 0) && RefillOperationSlots(ts) == 0) return nullptr;
  return reinterpret_cast<mpidbg_operation_record*>(ts->slot_cache[--ts->slot_count]);
}

// A vacated (FREE) slot back to the thread's cache.
MPIDBG_ALWAYS_INLINE void GiveOperationSlot(ThreadState* ts, mpidbg_operation_record* rec) {
  if (__builtin_expect(ts->slot_count == kSlotCacheSize, 0)) DrainOperationSlots(ts);
  ts->slot_cache[ts->slot_count++] = &rec->hdr;
}

// A new operation record opened with `flags`; the caller writes every field of the body,
// then IndexRequest (operation_registry.h) closes and indexes it.
MPIDBG_ALWAYS_INLINE mpidbg_operation_record* OpenOperationRecord(ThreadState* ts, uint32_t flags) {
  mpidbg_operation_record* rec = TakeOperationSlot(ts);
  if (rec != nullptr) g_operation_table.OpenRecord(&rec->hdr, flags);
  return rec;
}

// The next post serial, below MPI_THREAD_MULTIPLE (plain add).
MPIDBG_ALWAYS_INLINE uint64_t NextPostSerialPlain() {
  uint64_t* counter = &mpidbg_runtime_root.post_counter;
  const uint64_t n = __atomic_load_n(counter, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(counter, n, __ATOMIC_RELAXED);
  return n;
}

// The next post serial (root.post_counter).
MPIDBG_ALWAYS_INLINE uint64_t NextPostSerialHot() {
  return core::CounterAdd(&mpidbg_runtime_root.post_counter, uint64_t{1});
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_REQUEST_SLOTS_H
