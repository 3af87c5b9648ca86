// clock_keeper.cc — starts and stops the tick keeper (core/tick_clock.h) with MPI.
//
// MPIDBG_CLOCK_TICK_MS: unset or empty, the keeper ticks at the coarse clock's own
// resolution; 1-1000, every that many milliseconds; 0, no keeper (every outermost call
// reads the vDSO's coarse clock, as before MPI_Init). See doc/hot_path.md, "Time".
#include <stdlib.h>

#include "core/tick_clock.h"
#include "rt/init_steps.h"

namespace mpidbg::rt {

void ClockAfterInit() {
  const char* text = getenv("MPIDBG_CLOCK_TICK_MS");
  long ms = -1;  // the coarse clock's resolution
  if (text != nullptr && *text != '\0') {
    char* end = nullptr;
    ms = strtol(text, &end, 10);
    if (end == text || *end != '\0' || ms < 0 || ms > 1000) ms = -1;
    if (ms == 0) return;
  }
  core::StartTickClock(core::TickPeriodNs(ms));
}

void ClockAfterFinalize() { core::StopTickClock(); }

}  // namespace mpidbg::rt
