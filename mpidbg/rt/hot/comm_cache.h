// comm_cache.h — the communicator view of the hot path: LookupComm (a hash probe)
// behind a one-entry cache per thread.
//
// The cached view is reused while the communicator table has not changed since it was
// taken (SlabTable::changes(): every communicator creation, update, free and release
// moves it), so a freed communicator whose handle MPI hands out again is never seen
// through a stale view.
#ifndef MPIDBG_RT_COMM_CACHE_H
#define MPIDBG_RT_COMM_CACHE_H

#include <mpi.h>

#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// The view of `comm`, kept in ts (valid until the thread's next CommViewOf).
MPIDBG_ALWAYS_INLINE const CommView& CommViewOf(ThreadState* ts, MPI_Comm comm) {
  const uint64_t key = HandleToU64(comm);
  const uint64_t changes = g_comm_table.changes();
  if (ts->comm_key != key || ts->comm_changes != changes) {
    ts->comm_view = LookupComm(comm);
    // Views are what the hot path fills op records from (comm_registry.h).
    NoteCommInOperations(ts->comm_view.job_id);
    ts->comm_key = key;
    ts->comm_changes = changes;
  }
  return ts->comm_view;
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_COMM_CACHE_H
