// hooks_objects.h — records of info objects, errhandlers, reduction ops (MPI_Op) and
// sessions (gen/calls_objects.def), their predefined objects, and what other areas of
// the runtime need from them.
#ifndef MPIDBG_RT_HOOKS_OBJECTS_H
#define MPIDBG_RT_HOOKS_OBJECTS_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"
#include "rt/hot/hook_args_objects.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

void PreInfo(CallFacts call, InfoArgs& args);
void PostInfo(CallFacts call, InfoArgs& args, int rc);
void PreErrhandler(CallFacts call, ErrhandlerArgs& args);
void PostErrhandler(CallFacts call, ErrhandlerArgs& args, int rc);
void PreReduceOp(CallFacts call, ReduceOpArgs& args);
void PostReduceOp(CallFacts call, ReduceOpArgs& args, int rc);
#if MPI_VERSION >= 4
void PreSession(CallFacts call, SessionArgs& args);
void PostSession(CallFacts call, SessionArgs& args, int rc);
#endif

// At MPI_Init (rt/objects/predefined_objects.cc): predefined ops, errhandlers and MPI_INFO_ENV.
void RegisterPredefinedObjects();

// Handle values as records store them: 0 for the null handle.
uint64_t InfoValue(MPI_Info info);
uint64_t ErrhandlerValue(MPI_Errhandler errhandler);

// --- for the areas that attach errhandlers (communicators, windows, files) ---
// The live record of an errhandler handle (predefined or user-made), or nullptr when
// the runtime does not know it (created before the runtime was loaded, or freed).
const mpidbg_errhandler_record* FindErrhandler(uint64_t errhandler);
// Call after an object stopped using `errhandler` (the object was freed, or another
// errhandler was set on it): a freed errhandler that no live communicator, window,
// file or session record names any more is marked RELEASED. Not on a hot path.
void ErrhandlerDetached(uint64_t errhandler);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_OBJECTS_H
