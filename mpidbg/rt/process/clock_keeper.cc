// clock_keeper.cc — starts and stops the tick keeper (core/tick_clock.h) with MPI.
//
// MPIDBG_CLOCK_TICK_MS: unset or empty, the keeper ticks at the coarse clock's own
// resolution; 1-1000, every that many milliseconds; 0, no keeper (every outermost call
// reads the vDSO's coarse clock, as before MPI_Init). See doc/hot_path.md, "Time".
// The keeper also carries out what a debugger asked for by writing the root
// (CarryOutDebuggerRequests): without it, only the next MPI_*_free does.
#include <stdlib.h>

#include "core/tick_clock.h"
#include "rt/process/init_steps.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

// A tick (a wake-up of the keeper, a few microseconds) pays once it saves about a
// thousand clock readings (a few nanoseconds each).
constexpr uint64_t kMinCallsPerTick = 1000;

}  // namespace

void ClockAfterInit() {
  const char* text = getenv("MPIDBG_CLOCK_TICK_MS");
  long ms = -1;  // the coarse clock's resolution
  if (text != nullptr && *text != '\0') {
    char* end = nullptr;
    ms = strtol(text, &end, 10);
    if (end == text || *end != '\0' || ms < 0 || ms > 1000) ms = -1;
    if (ms == 0) return;
  }
  // Every outermost call steps root.generation twice; below kMinCallsPerTick calls per
  // tick the keeper idles.
  core::StartTickClock(core::TickPeriodNs(ms), &mpidbg_runtime_root.generation,
                       kMinCallsPerTick * 2, CarryOutDebuggerRequests);
}

void ClockAfterFinalize() { core::StopTickClock(); }

}  // namespace mpidbg::rt
