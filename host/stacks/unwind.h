// unwind.h — the call stack of one thread as raw program counters, unwound by libdwfl
// over the CFI (.eh_frame/.debug_frame) of the modules a SymbolIndex has reported.
//
// The thread state is attached to the index's own Dwfl: for a live process through
// libdwfl's /proc backend told that our LiveTarget already holds every thread stopped
// under ptrace (so it neither attaches nor resumes them), for a core through the core's
// NT_PRSTATUS notes. Target memory is untrusted: every walk is bounded in depth and an
// unwinding error ends the walk with what was found so far, never the read.
#pragma once

#include <elfutils/libdwfl.h>
#include <libelf.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/stacks/call_site_values.h"
#include "host/util/status.h"

namespace mpidbg::host {

// At most this many frames per thread: deeper stacks are cut (and say so).
constexpr std::size_t kMaxFrames = 64;

struct RawFrame {
  uint64_t pc = 0;
  // False for a caller's frame, whose pc is a return address: its call lies at pc - 1.
  bool activation = true;
  // The registers a callee preserves, as recovered for this frame (call_site_values.h
  // evaluates a caller's call-site values over them).
  PreservedRegisters preserved;
};

struct RawStack {
  std::vector<RawFrame> frames;  // innermost first
  std::string error;             // "" when the walk ended normally
};

// Attaches libdwfl's thread state to `dwfl` once: a live process (`core` nullptr, its
// threads already stopped by us) or a core. Errors: the architecture has no unwinder in
// libdwfl, the process is gone.
Status AttachThreads(Dwfl* dwfl, int64_t pid, Elf* core);

// Unwinds one thread of an attached Dwfl. Never fails: a thread that cannot be unwound
// at all has no frames and an error.
RawStack UnwindThread(Dwfl* dwfl, int64_t tid);

}  // namespace mpidbg::host
