// unwind.cc — libdwfl's thread state over an already stopped process or a core, and
// one bounded walk per thread. libdwfl errors are read right after the failing call:
// its error state is per thread and the next call resets it.
#include "host/stacks/unwind.h"

#include <cstring>

namespace mpidbg::host {
namespace {

std::string DwflError() {
  const char* msg = dwfl_errmsg(-1);
  return msg != nullptr ? msg : "unknown libdwfl error";
}

struct Walk {
  RawStack* out = nullptr;
  std::string cut;  // why a bound ended the walk, "" when none did
  uint64_t previous_pc = 0;
  int repeats = 0;  // consecutive frames with the same pc
};

int OnFrame(Dwfl_Frame* frame, void* arg) {
  Walk* walk = static_cast<Walk*>(arg);
  Dwarf_Addr pc = 0;
  bool activation = false;
  if (!dwfl_frame_pc(frame, &pc, &activation)) {
    walk->out->error = DwflError();
    return DWARF_CB_ABORT;
  }
  if (pc == 0) return DWARF_CB_ABORT;  // the outermost frame's return address
  // A corrupt stack can make the unwinder return the same frame forever; recursion
  // repeats a pc too, but not with nothing in between thrice over.
  walk->repeats = (pc == walk->previous_pc) ? walk->repeats + 1 : 0;
  walk->previous_pc = pc;
  if (walk->repeats >= 3) {
    walk->cut = "the unwinder made no progress";
    return DWARF_CB_ABORT;
  }
  RawFrame raw{pc, activation, {}};
  for (std::size_t i = 0; i < kPreservedRegisters.size(); ++i) {
    Dwarf_Word value = 0;
    if (dwfl_frame_reg(frame, kPreservedRegisters[i], &value) == 0) raw.preserved.values[i] = value;
  }
  walk->out->frames.push_back(raw);
  if (walk->out->frames.size() >= kMaxFrames) {
    walk->cut = "stack cut at " + std::to_string(kMaxFrames) + " frames";
    return DWARF_CB_ABORT;
  }
  return DWARF_CB_OK;
}

}  // namespace

Status AttachThreads(Dwfl* dwfl, int64_t pid, Elf* core) {
  if (dwfl == nullptr) return Status::Unreadable("no modules to unwind over");
  if (core != nullptr) {
    int r = dwfl_core_file_attach(dwfl, core);
    if (r < 0) return Status::Unreadable("cannot unwind the core's threads: " + DwflError());
    return Status::Ok();
  }
  // `true`: the threads are already ptrace-stopped by LiveTarget; libdwfl must not
  // attach (it would fail: one tracer per thread) nor detach them.
  int r = dwfl_linux_proc_attach(dwfl, static_cast<pid_t>(pid), true);
  if (r != 0) {
    std::string why = r < 0 ? DwflError() : std::strerror(r);
    return Status::Unreadable("cannot unwind the threads of process " + std::to_string(pid) +
                              ": " + why);
  }
  return Status::Ok();
}

RawStack UnwindThread(Dwfl* dwfl, int64_t tid) {
  RawStack stack;
  Walk walk;
  walk.out = &stack;
  int r = dwfl_getthread_frames(dwfl, static_cast<pid_t>(tid), OnFrame, &walk);
  if (r == -1 && stack.error.empty()) stack.error = DwflError();
  // An error after some frames is the usual end of a walk (no CFI for the outermost
  // frame); only a bound that cut the walk, or a walk that found nothing, is news.
  if (!walk.cut.empty()) {
    stack.error = walk.cut;
  } else if (!stack.frames.empty()) {
    stack.error.clear();
  }
  return stack;
}

}  // namespace mpidbg::host
