// completion_count.h — how a request that completed counts as a received message
// (rt/hot/traffic.h), from what completion knows of its record (SavedRequest). Shared by the
// Wait/Test hooks (hooks_completion.cc) and the request registry's retiring of a thread's
// own requests (operation_registry.cc, RetireOwnedRequest). HOT PATH: inline, no lock.
#ifndef MPIDBG_RT_COMPLETION_COUNT_H
#define MPIDBG_RT_COMPLETION_COUNT_H

#include <mpi.h>
#include <stdint.h>

#include "core/inline.h"
#include "mpidbg/records.h"
#include "rt/hot/thread_state.h"
#include "rt/hot/traffic.h"

namespace mpidbg::rt {

// How a completed request is counted as a receive (SavedRequest::count_as).
enum ReceiveCounting {
  kNotCounted = 0,   // not a receive; a matched message's (MPI_Imrecv: counted at the
                     // probe); one from MPI_PROC_NULL
  kFromStatus = 1,   // under the status's source and tag
  kFromPosting = 2,  // MPI_Isendrecv: MPICH 4.0 leaves its status empty, so the posted
                     // source and tag (when not wildcards) and the posted size
};

MPIDBG_ALWAYS_INLINE int32_t CountingOf(const SavedRequest& r) {
  if (r.direction != MPIDBG_OPERATION_RECV || r.call == MPIDBG_CALL_MPI_Imrecv ||
      r.peer == MPIDBG_RANK_PROC_NULL) {
    return kNotCounted;
  }
  if (r.call == MPIDBG_CALL_MPI_Isendrecv || r.call == MPIDBG_CALL_MPI_Isendrecv_replace) {
    return r.peer >= 0 && r.tag != MPIDBG_TAG_ANY ? kFromPosting : kNotCounted;
  }
  return kFromStatus;
}

// Counts request `r` (count_as filled) as completed with `status` (nullptr if unknown).
MPIDBG_ALWAYS_INLINE void CountFrom(ThreadState* ts, const SavedRequest& r,
                                    const MPI_Status* status) {
  if (r.count_as == kNotCounted) return;
  SourceHint hint;
  hint.peer = r.peer;
  hint.peer_world = r.peer_world;
  hint.comm_handle = r.comm_handle;
  if (r.count_as == kFromPosting) {
    ReceivedMessage m;
    m.source = r.peer;
    m.tag = r.tag;
    m.bytes = r.bytes;
    CountReceived(ts, r.comm_job_id, m, hint);
  } else if (status != nullptr && status != MPI_STATUS_IGNORE) {
    CountReceive(ts, r.comm_job_id, *status, hint);
  }
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_COMPLETION_COUNT_H
