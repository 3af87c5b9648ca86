// tick_clock.h — the time the per-call records use, kept by a thread instead of read
// by every call.
//
// Every outermost MPI call stamps its thread record with an entry time (and a request
// its posting time). Reading even the kernel's coarse clock through the vDSO costs
// 3-6 ns per call, the largest single item of the per-call path once the records are
// written from registers (doc/hot_path.md, "Time"). The times only need the coarse
// clock's resolution (a host measures a blocked call in seconds), so one thread per
// process stores CLOCK_REALTIME_COARSE into a word every tick and the calls load that
// word: one load of a line that changes once per tick.
//
// The keeper runs from the end of MPI_Init to MPI_Finalize (rt/process/hooks_init.cc). While
// it does not run — before MPI_Init, after MPI_Finalize, in a child after fork(), when
// the thread could not be created, or when MPIDBG_CLOCK_TICK_MS=0 — the word is 0 and
// callers read the vDSO clock themselves (clock.h, CoarseRealtimeNs).
//
// While MPI is called too rarely for ticks to pay the keeper idles (StartTickClock,
// `activity`).
//
// The thread never calls MPI, blocks every signal (a process-directed signal is still
// delivered to one of the application's threads, as without the runtime), sleeps on a
// condition variable between ticks (so stopping it wakes it at once) and is named
// "mpidbg-clock" for debuggers and top.
#ifndef MPIDBG_CORE_TICK_CLOCK_H
#define MPIDBG_CORE_TICK_CLOCK_H

#include <stdint.h>

#include "core/inline.h"

namespace mpidbg::core {

// CLOCK_REALTIME (coarse) in ns as of the keeper's last tick; 0 while no keeper runs.
extern int64_t g_tick_now_ns;

MPIDBG_ALWAYS_INLINE int64_t TickNowNs() {
  return __atomic_load_n(&g_tick_now_ns, __ATOMIC_RELAXED);
}

// The keeper's period: `requested_ms` if in [1, 1000], else the coarse clock's own
// resolution (clock_getres(CLOCK_REALTIME_COARSE), the kernel's tick: 1-10 ms), so the
// stamps are no coarser than the clock they replace.
int64_t TickPeriodNs(long requested_ms);

// Starts the keeper (no-op if running); false if the thread could not be created, in
// which case callers keep reading the clock themselves. Not async-signal-safe; called
// with the runtime's own MPI_Init work, from one thread.
//
// `activity`, if given, is a counter the callers move (the runtime passes
// root.generation, which every outermost MPI call steps twice), and the keeper ticks
// only while that pays: a tick costs a wake-up of a few microseconds, a call that reads
// the clock itself a few nanoseconds. After 25 ticks in a row in which the counter moved
// less than `min_activity`, the keeper stores 0 — callers read the clock themselves
// again — and wakes only every 250 ms, resuming its ticks once the counter moved at
// least as much as those ticks would have needed. So a process that computes, or calls
// MPI a few thousand times a second, is not woken every tick, and one that calls MPI
// hundreds of thousands of times a second pays one load per call. Without `activity`
// the keeper always ticks.
//
// `chore`, if given, runs on the keeper thread after every wake-up, ticking or idle, so
// at least every 250 ms while the process runs: the work a debugger asks for by writing
// the runtime's memory (records.h, "requests a debugger writes"), done off the
// application's threads, also while they are blocked in MPI. It must be cheap when
// nothing was asked (a load or two) and may take locks: the keeper holds none then.
bool StartTickClock(int64_t period_ns, const uint64_t* activity = nullptr,
                    uint64_t min_activity = 1, void (*chore)() = nullptr);

// Stops the keeper and waits for its thread to end (at most a wake-up: it sleeps on a
// condition variable). Afterwards TickNowNs() is 0.
void StopTickClock();

// True while the keeper runs (for tests and the runtime's documentation checks).
bool TickClockRunning();

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_TICK_CLOCK_H
