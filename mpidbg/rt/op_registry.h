// op_registry.h — operation records: requests (nonblocking, persistent, nonblocking
// collectives) keyed by request handle, and the envelopes of blocking calls in progress.
//
// HOT PATH (every point-to-point call). Request records are allocated from the op table
// and indexed in a hash that only grows (no per-message allocation once warm); both
// take a spinlock for a few instructions. Blocking calls use op slots reserved per
// thread and take no lock at all.
#ifndef MPIDBG_RT_OP_REGISTRY_H
#define MPIDBG_RT_OP_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct CommView;
struct ThreadState;

// The caller's description of an operation; MPI-specific values are normalised here.
struct OpDescription {
  int32_t call = MPIDBG_CALL_NONE;
  int32_t direction = MPIDBG_OP_SEND;
  int32_t mode = MPIDBG_MODE_NONE;
  int32_t status = MPIDBG_OP_PENDING;
  const void* buffer = nullptr;
  int64_t count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int32_t peer = MPIDBG_RANK_UNKNOWN;  // already normalised
  int32_t tag = MPIDBG_TAG_ANY;        // already normalised
  const CommView* comm = nullptr;      // nullptr when the call has no communicator
  // Requests of other origins (records.h, appended op fields).
  uint64_t object = 0;        // window (RMA) or file (file I/O) handle
  int64_t file_offset = -1;   // explicit offset of *_at file I/O
  int64_t target_disp = 0;    // RMA target displacement
  uint64_t extra_state = 0;   // generalized requests
  uint64_t query_fn = 0;      // generalized requests
  int64_t bytes = -1;         // when >= 0, used instead of count * datatype size
};

// Fills every field of `rec` after the header from `d` (request 0).
void FillOp(mpidbg_op_record* rec, const OpDescription& d, uint64_t tid);

// --- requests ---
// Records a request; persistent ones start INACTIVE. A stale record for the same handle
// (a request that completed without the runtime seeing it) is released.
void TrackRequest(uint64_t request, const OpDescription& d, uint32_t flags, uint64_t tid);
// The record of a request, or nullptr.
mpidbg_op_record* FindRequestOp(uint64_t request);
// Looks up n requests under one lock acquisition.
void FindRequestOps(const uint64_t* requests, int n, mpidbg_op_record** out);
// A persistent request was started.
void StartRequest(uint64_t request, uint64_t tid);
// A request completed: a persistent one goes INACTIVE, others are released. Only if the
// handle still maps to `expected` (a handle may be reused as soon as MPI frees it).
void RetireRequest(uint64_t request, mpidbg_op_record* expected);
// MPI_Request_free: the record goes away.
void ForgetRequest(uint64_t request);

// --- blocking calls ---
// Publishes the envelope of a blocking call in the thread's reserved slot `which`
// (0 send/probe/recv, 1 the receive of a Sendrecv); returns its address or 0.
uint64_t BeginBlockingOp(ThreadState* ts, int which, const OpDescription& d);
void EndBlockingOp(ThreadState* ts, int which);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_OP_REGISTRY_H
