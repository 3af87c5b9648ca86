// read_stacks.h — the folded, symbolised stacks of the threads of an opened target
// (live, still stopped, or a core), for the snapshot readers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/model/snapshot.h"
#include "host/stacks/call_site_values.h"
#include "host/target/opened_target.h"

namespace mpidbg::host {

struct ThreadStack {
  std::vector<model::Frame> frames;  // folded, innermost first
  std::optional<std::string> error;  // why frames is empty or cut short
  // When asked for and the innermost frame is an MPI call: the values its caller passed
  // (the caller's DWARF call-site entry; found == false when there is none).
  CallSiteValues call_site;
};

struct StackReadCost {
  int threads = 0;
  int64_t attach_ns = 0;  // attaching libdwfl's thread state
  int64_t unwind_ns = 0;  // walking and symbolising every thread (first use loads CFI/DWARF)
};

// Whether `snapshot`, `job` and `collect` read stacks: yes unless MPIDBG_STACKS=0.
bool StacksWanted();

// Unwinds each of `tids`. Never fails: a target whose threads cannot be unwound gives
// every thread the reason. Must run before a live target is closed (its threads resumed).
// `call_sites`: also read the values passed to each thread's innermost MPI call.
std::map<int64_t, ThreadStack> ReadStacks(OpenedTarget& target, const std::vector<int64_t>& tids,
                                          StackReadCost* cost = nullptr, bool call_sites = false);

// Puts each thread's stack into the snapshot's thread of the same tid.
void AttachStacks(std::map<int64_t, ThreadStack> stacks, std::vector<model::Thread>* threads);

}  // namespace mpidbg::host
