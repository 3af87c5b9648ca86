// completed_request.h — the request handle an MPI returns for an operation it completed
// inside the posting call.
//
// Both MPIs finish a small nonblocking send at once when they can (and a receive from
// MPI_PROC_NULL always), and then return one shared, already completed request instead
// of a request of its own (measured on the Debian builds: MPICH 4.0 returns 0x6c000001
// for every such MPI_Isend, Open MPI 4.1 the address of its `ompi_request_empty`). Such
// an operation is complete when the posting call returns: nothing is pending for a
// debugger to see, a shared request holds no status, and waiting on the handle completes
// nothing. Its flight entry is therefore written DONE from the start (a send stays a
// logged send) and is never put in the flight map, and a Wait/Test skips the handle
// without a lookup. MPI_Request_free of the handle keeps the thread's last such post as
// a freed orphan, as it does any request freed before it was waited on.
//
//  - MPICH: a request handle of kind BUILTIN (bits 30-31 = 01) and object kind REQUEST
//    (bits 26-29 = 0xb) is one of MPICH's preallocated requests, which are complete by
//    construction (MPI_REQUEST_NULL is of kind INVALID, 0x2c000000).
//  - Open MPI: `ompi_request_empty`, looked up by name at MPI_Init (the symbol is exported
//    by libmpi; if it is not found no handle is taken for one, and such operations are
//    recorded as pending until completed, as any other).
//  - Another MPI: none.
#ifndef MPIDBG_RT_HOT_COMPLETED_REQUEST_H
#define MPIDBG_RT_HOT_COMPLETED_REQUEST_H

#include <mpi.h>
#include <stdint.h>

#include "core/inline.h"

namespace mpidbg::rt {

#if defined(MPICH_NUMVERSION)
// The bits above a handle's 26-bit index: its kind and object kind (and the 32 bits
// above an int handle, which widening leaves 0).
constexpr uint64_t kMpichKindAndObjectBits = ~uint64_t{0x03ffffff};
constexpr uint64_t kMpichBuiltinRequest = 0x6c000000u;  // kind BUILTIN, object REQUEST

MPIDBG_ALWAYS_INLINE bool CompletedRequestHandle(uint64_t request) {
  return (request & kMpichKindAndObjectBits) == kMpichBuiltinRequest;
}
inline void FindCompletedRequestHandle() {}
#elif defined(OPEN_MPI)
// The address of ompi_request_empty; 0 (no request's handle) until found.
extern uint64_t g_completed_request;

MPIDBG_ALWAYS_INLINE bool CompletedRequestHandle(uint64_t request) {
  return request == g_completed_request;
}
// Looks ompi_request_empty up (rt/process/completed_request_setup.cc); at MPI_Init.
void FindCompletedRequestHandle();
#else
MPIDBG_ALWAYS_INLINE bool CompletedRequestHandle(uint64_t) { return false; }
inline void FindCompletedRequestHandle() {}
#endif

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOT_COMPLETED_REQUEST_H
