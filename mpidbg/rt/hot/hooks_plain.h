// hooks_plain.h — the hooks of the `plain` category (gen/*.def): calls the runtime
// records nothing of beyond the thread's live words, with their communicator where the
// call names one (MPI_Iprobe, MPI_Abort, MPI_Comm_get_errhandler, MPI_Errhandler_get).
//
// HOT PATH, inline in the generated wrappers: MPI_Iprobe is what a program that waits
// for messages by probing calls millions of times, and an out-of-line hook handed the
// call's scope kept the whole scope in memory. The communicator comes from the thread's
// one-entry view cache (comm_cache.h), as a point-to-point call's does.
#ifndef MPIDBG_RT_HOOKS_PLAIN_H
#define MPIDBG_RT_HOOKS_PLAIN_H

#include <mpi.h>

#include "core/inline.h"
#include "rt/hot/comm_cache.h"
#include "rt/hot/hook_args.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

MPIDBG_ALWAYS_INLINE CallComm PrePlain(CallFacts call, PlainArgs& args) {
  if (args.comm == MPI_COMM_NULL) return CallComm{0, 0};
  return CallCommOf(CommViewOf(call.thread, args.comm));
}

MPIDBG_ALWAYS_INLINE void PostPlain(CallFacts, PlainArgs&, int) {}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_PLAIN_H
