// read_stacks.cc — unwind, symbolise, fold, for every thread asked for.
#include "host/stacks/read_stacks.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "host/stacks/frame_fold.h"
#include "host/stacks/frame_symbols.h"
#include "host/stacks/unwind.h"

namespace mpidbg::host {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The values passed to the MPI call of the innermost folded frame: its caller is the
// next folded frame, whose pc (a return address) folding kept from the raw frame.
CallSiteValues CallSiteOfInnermostCall(Dwfl* dwfl, const RawStack& raw,
                                       const std::vector<model::Frame>& folded) {
  if (folded.size() < 2 || !folded[0].function || MpiCallName(*folded[0].function).empty()) {
    return {};
  }
  for (const RawFrame& f : raw.frames) {
    if (!f.activation && f.pc == folded[1].pc) return ReadCallSiteValues(dwfl, f.pc, f.preserved);
  }
  return {};
}

}  // namespace

bool StacksWanted() {
  const char* env = std::getenv("MPIDBG_STACKS");
  return env == nullptr || std::strcmp(env, "0") != 0;
}

std::map<int64_t, ThreadStack> ReadStacks(OpenedTarget& target, const std::vector<int64_t>& tids,
                                          StackReadCost* cost, bool call_sites) {
  std::map<int64_t, ThreadStack> out;
  Dwfl* dwfl = target.symbols().dwfl();
  const int64_t start = NowNs();
  Status attached = AttachThreads(dwfl, target.pid(), target.core_elf());
  const int64_t attached_at = NowNs();
  for (int64_t tid : tids) {
    ThreadStack& stack = out[tid];
    if (!attached.ok()) {
      stack.error = attached.message();
      continue;
    }
    RawStack raw = UnwindThread(dwfl, tid);
    std::vector<model::Frame> frames;
    frames.reserve(raw.frames.size());
    for (const RawFrame& f : raw.frames) {
      model::Frame frame = DescribeFrame(dwfl, f);
      // Lines only where a person reads them: the program's frames. The MPI library's
      // fold away, and a system library's cost its whole debug file to look up.
      if (ClassifyFrame(frame) == FrameOrigin::kProgram) AddSourceLine(dwfl, f, &frame);
      frames.push_back(std::move(frame));
    }
    stack.frames = FoldMpiFrames(frames);
    if (call_sites) stack.call_site = CallSiteOfInnermostCall(dwfl, raw, stack.frames);
    if (!raw.error.empty()) stack.error = raw.error;
  }
  if (cost != nullptr) {
    cost->threads = static_cast<int>(tids.size());
    cost->attach_ns = attached_at - start;
    cost->unwind_ns = NowNs() - attached_at;
  }
  return out;
}

void AttachStacks(std::map<int64_t, ThreadStack> stacks, std::vector<model::Thread>* threads) {
  for (model::Thread& thread : *threads) {
    auto it = stacks.find(thread.tid);
    if (it == stacks.end()) continue;
    thread.frames = std::move(it->second.frames);
    thread.stack_error = std::move(it->second.error);
  }
}

}  // namespace mpidbg::host
