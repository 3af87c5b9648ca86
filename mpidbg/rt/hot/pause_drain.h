// pause_drain.h — the requests pending when a thread paused recording, whose
// completions are recorded all the same.
//
// A paused thread's calls go straight to MPI (mpidbg_pause_recording). A request the
// runtime recorded before the pause and the program collects while paused would then
// stay pending for good: in a debugger's view (a hung job would show a receive nothing
// waits for) and in the runtime's own records (its flight entry carried into an
// operation record when its ring comes round). So the first pause notes the requests
// the thread posted (or started) that are pending then (NotePausePending: its flight
// ring's, and its request records a completion has yet to collect), and a completion
// call — a wrapper whose category is declared `drains` (gen/gen_wrappers.py: the Wait
// and Test families, MPI_Request_free, MPI_Cancel) — that the paused thread makes
// outside any other MPI call and that names one of them runs recorded, as if the thread
// were not paused (CallScope::RecordsWhilePaused). After such a call the noted requests
// no longer pending are dropped (DropCollectedPausePending); once none is left the pause
// is a plain one.
// A pause with nothing pending, the usual one between phases, adds one load and test to
// the paused thread's completion calls and nothing to any other call.
//
// More than kPauseDrainMax pending: every completion call of the paused thread runs
// recorded, and after each the pending requests are noted again, until they fit.
//
// The Fortran bindings' completion calls do the same with their handles
// (CallScope::RecordsWhilePausedFortran, gen/fortran/gen_fortran.py).
//
// Not covered: requests posted while paused (unknown, as every paused call); a request
// another thread posted that the paused thread collects (a thread usually collects its
// own, and under MPI_THREAD_MULTIPLE, where every request has a record, noting all of
// them would have a paused thread record every completion call whenever more than
// kPauseDrainMax were pending anywhere); and a noted request another thread collects:
// it stays noted until the last resume, or until the paused thread collects a request
// MPI gave its handle.
#ifndef MPIDBG_RT_HOT_PAUSE_DRAIN_H
#define MPIDBG_RT_HOT_PAUSE_DRAIN_H

#include <mpi.h>

#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

// At the first pause: notes the requests pending (ts->pause_drain and its handles).
void NotePausePending(ThreadState* ts);
// At the last resume: nothing is noted any more.
inline void ForgetPausePending(ThreadState* ts) { ts->pause_drain = 0; }

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOT_PAUSE_DRAIN_H
