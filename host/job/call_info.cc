#include "job/call_info.h"

#include <cstdio>
#include <string_view>

#include "mpidbg/call_ids.h"

namespace mpidbg::job {
namespace {

struct CallEntry {
  std::string_view name;
  CallClass cls;
};

constexpr CallClass kClassP2P = CallClass::kP2P;
constexpr CallClass kClassWAIT = CallClass::kWait;
constexpr CallClass kClassCOLL = CallClass::kColl;
constexpr CallClass kClassOTHER = CallClass::kOther;

// The contract's call list is the one place that says which class a call is in.
constexpr CallEntry kCalls[] = {
#define MPIDBG_X_ENTRY(name, id, cls) {#name, kClass##cls},
    MPIDBG_CALL_LIST(MPIDBG_X_ENTRY)
#undef MPIDBG_X_ENTRY
};

}  // namespace

CallClass ClassOfCall(std::string_view call) {
  for (const CallEntry& entry : kCalls) {
    if (entry.name == call) return entry.cls;
  }
  return CallClass::kUnknown;
}

CallClass ClassOfThread(const model::Thread& thread) {
  const std::string& cls = thread.call_class;
  if (cls == "p2p") return CallClass::kP2P;
  if (cls == "wait") return CallClass::kWait;
  if (cls == "coll") return CallClass::kColl;
  if (cls == "other") return CallClass::kOther;
  if (thread.call) return ClassOfCall(*thread.call);
  return CallClass::kUnknown;
}

bool CompletesOnAny(std::string_view call) {
  return call == "MPI_Waitany" || call == "MPI_Waitsome" || call == "MPI_Testany" ||
         call == "MPI_Testsome";
}

std::string MatchingCallName(std::string_view call) {
  constexpr std::string_view kLargeCount = "_c";
  if (call.size() > kLargeCount.size() && call.substr(call.size() - kLargeCount.size()) == kLargeCount) {
    std::string_view twin = call.substr(0, call.size() - kLargeCount.size());
    if (ClassOfCall(twin) != CallClass::kUnknown) return std::string(twin);
  }
  return std::string(call);
}

bool IsFinalize(std::string_view call) { return call == "MPI_Finalize"; }

bool IsNeighborhoodCollective(std::string_view call) {
  return call.rfind("MPI_Neighbor_", 0) == 0 || call.rfind("MPI_Ineighbor_", 0) == 0;
}

std::string RankText(const model::Rank& rank) {
  switch (rank.kind) {
    case model::Rank::Kind::kRank: return std::to_string(rank.value);
    case model::Rank::Kind::kAnySource: return "ANY_SOURCE";
    case model::Rank::Kind::kProcNull: return "PROC_NULL";
    case model::Rank::Kind::kUnknown: break;
  }
  return "?";
}

std::string FrameName(const model::Frame& f) {
  if (f.function) return *f.function;
  char pc[32];
  std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
  return f.module.empty() ? std::string(pc) : std::string(pc) + " in " + f.module;
}

std::string FrameFileLine(const model::Frame& f) {
  const std::size_t slash = f.file->rfind('/');
  return (slash == std::string::npos ? *f.file : f.file->substr(slash + 1)) + ":" +
         std::to_string(*f.line);
}

std::string TagText(const model::Tag& tag) {
  return tag.any ? std::string("ANY_TAG") : std::to_string(tag.value);
}

}  // namespace mpidbg::job
