// read_cost.h — where the time of one target's read goes (issue 16), phase by phase.
// ReadTarget fills it when asked; `mpidbg job` prints it under MPIDBG_READ_COST=1 and
// the stacks bench (tests/scale) averages it over the ranks.
#pragma once

#include <cstdint>
#include <string>

namespace mpidbg::host {

struct ReadCost {
  int64_t attach_ns = 0;   // ptrace seize and stop of every thread; opening a core
  int64_t modules_ns = 0;  // libdwfl's module list (/proc/PID/maps, the core's notes)
  int64_t choose_ns = 0;   // choosing the DLL: the first symbol lookups
  int64_t session_ns = 0;  // loading the DLL, setting up image and process
  int64_t records_ns = 0;  // threads, communicators and queues through the DLL
  int64_t stacks_ns = 0;   // unwinding, symbolising and folding the threads' stacks
  int64_t detach_ns = 0;   // letting the process go, dropping the libdwfl session
  int threads = 0;         // threads whose stacks were read

  void Add(const ReadCost& o) {
    attach_ns += o.attach_ns;
    modules_ns += o.modules_ns;
    choose_ns += o.choose_ns;
    session_ns += o.session_ns;
    records_ns += o.records_ns;
    stacks_ns += o.stacks_ns;
    detach_ns += o.detach_ns;
    threads += o.threads;
  }
};

// "attach=1.2 modules=3.4 ... ms": one line's worth, milliseconds with one decimal.
std::string ReadCostText(const ReadCost& cost);

}  // namespace mpidbg::host
