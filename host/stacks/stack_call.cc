// stack_call.cc — a thread's MPI call from its folded stack.
#include "host/stacks/stack_call.h"

#include <string_view>

#include "host/stacks/frame_fold.h"
#include "mpidbg/call_ids.h"

namespace mpidbg::host {
namespace {

struct CallEntry {
  std::string_view name;
  std::string_view cls;
};

// The contract's call list is the one place that says which class a call is in.
constexpr CallEntry kCalls[] = {
#define MPIDBG_X_ENTRY(name, id, cls) {#name, #cls},
    MPIDBG_CALL_LIST(MPIDBG_X_ENTRY)
#undef MPIDBG_X_ENTRY
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Calls outside the contract's classes that still wait for other ranks.
constexpr std::string_view kOtherBlocking[] = {"MPI_Win_wait", "MPI_Win_complete",
                                               "MPI_Win_lock_all", "MPI_Win_flush",
                                               "MPI_Win_flush_all", "MPI_Win_unlock",
                                               "MPI_Win_unlock_all", "MPI_Win_start"};

}  // namespace

std::string CallClassName(const std::string& call) {
  for (const CallEntry& e : kCalls) {
    if (e.name != call) continue;
    if (e.cls == "P2P") return "p2p";
    if (e.cls == "WAIT") return "wait";
    if (e.cls == "COLL") return "coll";
    return "other";
  }
  return "";
}

bool IsBlockingCall(const std::string& call) {
  if (call.size() < 5) return false;  // not "MPI_" and a name
  const std::string cls = CallClassName(call);
  // Nonblocking and persistent forms return at once: MPI_Isend, MPI_Ibarrier,
  // MPI_Comm_idup, MPI_Iprobe, MPI_Send_init, MPI_Test*.
  const std::string_view rest = std::string_view(call).substr(4);
  const bool nonblocking = StartsWith(rest, "I") || call == "MPI_Comm_idup" ||
                           EndsWith(call, "_init") || StartsWith(call, "MPI_Test");
  if (cls == "p2p" || cls == "coll" || cls == "wait") return !nonblocking;
  for (std::string_view c : kOtherBlocking) {
    if (c == call) return true;
  }
  // Not in the contract's list: neighbourhood collectives and the dynamic-process
  // calls wait for other ranks; anything else is not claimed to block.
  return StartsWith(call, "MPI_Neighbor_") ||
         call == "MPI_Comm_accept" || call == "MPI_Comm_connect" || call == "MPI_Comm_spawn";
}

bool HasProgramFrame(const std::vector<model::Frame>& folded) {
  for (const model::Frame& f : folded) {
    if (!f.function || MpiCallName(*f.function).empty()) {
      if (ClassifyFrame(f) == FrameOrigin::kProgram) return true;
    }
  }
  return false;
}

model::Thread ThreadFromStack(int64_t tid, std::vector<model::Frame> folded,
                              std::optional<std::string> stack_error) {
  model::Thread t;
  t.tid = tid;
  t.stack_error = std::move(stack_error);
  if (folded.empty()) {
    t.state = "unknown";
    return t;
  }
  for (std::size_t i = 0; i < folded.size(); ++i) {
    const model::Frame& f = folded[i];
    // A folded frame lies in MPI code and carries the call's name; a program function
    // named MPI_* of its own (a statically linked MPI) is classified as MPI too.
    if (!f.function || ClassifyFrame(f) != FrameOrigin::kMpi) continue;
    const std::string call = MpiCallName(*f.function);
    if (call.empty()) continue;
    t.call = call;
    t.call_class = CallClassName(call);
    t.state = i == 0 && IsBlockingCall(call) ? "blocked" : "in_mpi";
    break;
  }
  t.frames = std::move(folded);
  return t;
}

void StateFromStackWhenPaused(model::Thread* thread) {
  if (!thread->recording_paused || thread->state != "not_in_mpi") return;
  model::Thread from = ThreadFromStack(thread->tid, thread->frames, thread->stack_error);
  thread->state = from.state;
  thread->call = from.call;
  thread->call_class = from.call_class;
  if (from.state != "unknown") thread->state_from = "stack";
}

}  // namespace mpidbg::host
