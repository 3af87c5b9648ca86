#include "job/summary.h"

#include <algorithm>

#include "job/call_info.h"

namespace mpidbg::job {
namespace {

// Waited requests shown in full before the rest is only counted.
constexpr std::size_t kShownRequests = 3;

std::string WaitSummary(const JobIndex& job, std::size_t i, const model::Thread& thread) {
  const std::string call = thread.call.value_or("MPI_Wait");
  const std::size_t total = thread.waited.size() + static_cast<std::size_t>(
                                                       std::max(thread.waited_unknown, 0));
  if (total == 0) return call + "()";
  std::string text = call + "(" + std::to_string(total) + (total == 1 ? " request" : " requests");
  if (thread.waited.empty()) return text + ", not decoded)";
  text += ": ";
  const std::size_t shown = std::min(thread.waited.size(), kShownRequests);
  for (std::size_t k = 0; k < shown; ++k) {
    if (k > 0) text += ", ";
    text += OperationSummary(job, i, thread.waited[k]);
  }
  const std::size_t rest = total - shown;
  if (rest > 0) text += ", " + std::to_string(rest) + " more";
  return text + ")";
}

}  // namespace

std::string OperationSummary(const JobIndex& job, std::size_t i, const model::Operation& op) {
  const std::string comm = job.CommLabel(i, op.comm_id, op.comm_name);
  if (ClassOfCall(op.call) == CallClass::kColl) return CollectiveSummary(op.call, std::nullopt, comm);
  const std::string peer_key = op.is_send ? "dest=" : "source=";
  return op.call + "(" + peer_key + RankText(op.peer) + ", tag=" + TagText(op.tag) +
         ", comm=" + comm + ")";
}

std::string CollectiveSummary(const std::string& call, const std::optional<int>& root,
                              const std::string& comm_label) {
  std::string args;
  if (root && *root >= 0) args = "root=" + std::to_string(*root);
  if (!comm_label.empty()) args += (args.empty() ? "" : ", ") + std::string("comm=") + comm_label;
  if (args.empty()) return call;
  return call + "(" + args + ")";
}

std::string ThreadCallSummary(const JobIndex& job, std::size_t i, const model::Thread& thread) {
  const std::string call = thread.call.value_or("MPI");
  switch (ClassOfThread(thread)) {
    case CallClass::kP2P:
      if (thread.operation) return OperationSummary(job, i, *thread.operation);
      return call;
    case CallClass::kWait:
      return WaitSummary(job, i, thread);
    case CallClass::kColl: {
      if (IsFinalize(call)) return call;
      const std::string comm = thread.comm_id.empty() && thread.comm_name.empty()
                                   ? std::string()
                                   : job.CommLabel(i, thread.comm_id, thread.comm_name);
      return CollectiveSummary(call, thread.root, comm);
    }
    case CallClass::kOther:
    case CallClass::kUnknown:
      break;
  }
  return call;
}

}  // namespace mpidbg::job
