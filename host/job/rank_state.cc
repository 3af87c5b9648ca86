#include "job/rank_state.h"

#include "job/call_info.h"
#include "job/summary.h"

namespace mpidbg::job {
namespace {

bool InMpi(const model::Thread& thread) { return thread.state != "not_in_mpi"; }

// The envelope a thread waits on, if it has exactly one: its blocking operation, or the
// only request of a Wait-class call.
const model::Operation* SingleOperation(const model::Thread& thread) {
  if (thread.operation) return &*thread.operation;
  if (thread.waited.size() == 1 && thread.waited_unknown == 0) return &thread.waited[0];
  return nullptr;
}

void FillCall(const JobIndex& job, std::size_t i, const model::Thread& thread,
              RankReport* report) {
  report->call = thread.call;
  if (const model::Operation* op = SingleOperation(thread)) {
    if (!op->comm_id.empty()) report->comm = op->comm_id;
    const std::string name = job.CommLabel(i, op->comm_id, op->comm_name);
    if (!op->comm_id.empty() || !op->comm_name.empty()) report->comm_name = name;
    if (op->peer.kind != model::Rank::Kind::kUnknown) report->peer = op->peer;
    if (std::optional<int> world = job.PeerWorld(i, *op)) report->peer_world = model::Rank::Of(*world);
    if (ClassOfCall(op->call) != CallClass::kColl) report->tag = op->tag;
  } else if (!thread.comm_id.empty() || !thread.comm_name.empty()) {
    // The stacks view names a communicator (MPI_COMM_WORLD, or a handle) without an id.
    if (!thread.comm_id.empty()) report->comm = thread.comm_id;
    report->comm_name = job.CommLabel(i, thread.comm_id, thread.comm_name);
  }
  report->arguments_from = thread.arguments_from;
  if (thread.root && *thread.root >= 0) report->root = thread.root;
}

}  // namespace

bool MayCallMpi(const model::ProcessSnapshot& snapshot, const model::Thread& thread) {
  const std::string& level = snapshot.process.thread_level;
  if (level == "MPI_THREAD_SINGLE" || level == "MPI_THREAD_FUNNELED") {
    return thread.tid == snapshot.process.pid;  // the main thread's tid is the pid
  }
  return true;
}

RankState ClassifyRank(const model::ProcessSnapshot& snapshot) {
  if (snapshot.process.state == "unreadable") return RankState::kUnreadable;
  if (snapshot.process.state == "finalized") return RankState::kFinalized;
  bool blocked = false;
  bool active = false;   // a thread that can still act on its own
  bool in_mpi = false;
  for (const model::Thread& thread : snapshot.threads) {
    if (thread.state == "blocked") {
      blocked = true;
    } else if (InMpi(thread)) {
      in_mpi = true;
      active = true;
    } else if (MayCallMpi(snapshot, thread)) {
      active = true;
    }
  }
  if (blocked && !active) return RankState::kBlocked;
  if (in_mpi || blocked) return RankState::kInMpi;
  return RankState::kNotInMpi;
}

int RepresentativeThread(const model::ProcessSnapshot& snapshot) {
  const std::vector<model::Thread>& threads = snapshot.threads;
  for (std::size_t t = 0; t < threads.size(); ++t) {
    if (threads[t].state == "blocked") return static_cast<int>(t);
  }
  for (std::size_t t = 0; t < threads.size(); ++t) {
    if (InMpi(threads[t])) return static_cast<int>(t);
  }
  return -1;
}

bool IsFinalizing(const model::ProcessSnapshot& snapshot) {
  for (const model::Thread& thread : snapshot.threads) {
    if (InMpi(thread) && thread.call && IsFinalize(*thread.call)) return true;
  }
  return false;
}

namespace {

// The stack that speaks for the rank: its representative thread's, else (a rank outside
// MPI) its main thread's, whose tid is the pid, else the first one read.
const std::vector<model::Frame>* RankFrames(const model::ProcessSnapshot& snapshot) {
  const int t = RepresentativeThread(snapshot);
  if (t >= 0) return &snapshot.threads[static_cast<std::size_t>(t)].frames;
  for (const model::Thread& thread : snapshot.threads) {
    if (thread.tid == snapshot.process.pid) return &thread.frames;
  }
  for (const model::Thread& thread : snapshot.threads) {
    if (!thread.frames.empty()) return &thread.frames;
  }
  return nullptr;
}

}  // namespace

RankReport DescribeRank(const JobIndex& job, std::size_t i) {
  const model::ProcessSnapshot& snapshot = job.snapshot(i);
  RankReport report;
  report.rank = snapshot.process.rank;
  report.pid = snapshot.process.pid;
  report.source = snapshot.process.source;
  report.state = ClassifyRank(snapshot);
  report.threads = static_cast<int>(snapshot.threads.size());
  for (const model::Thread& thread : snapshot.threads) {
    if (thread.state == "blocked") ++report.blocked_threads;
    if (!thread.recording_paused) continue;
    report.recording_paused = true;
    // Records of a paused thread that say "not in MPI" say nothing: only its stack does.
    if (thread.state_from == "stack") continue;
    if (thread.state == "unknown" || thread.state == "not_in_mpi") {
      report.paused_state = RankReport::PausedState::kUnknown;
    } else if (report.paused_state == RankReport::PausedState::kStack) {
      report.paused_state = RankReport::PausedState::kRecords;
    }
  }
  if (const std::vector<model::Frame>* frames = RankFrames(snapshot)) report.frames = *frames;

  switch (report.state) {
    case RankState::kUnreadable:
      report.summary = "unreadable";
      if (!snapshot.process.error.empty()) {
        report.error = snapshot.process.error;
        report.error_kind = snapshot.process.error_kind;
      }
      return report;
    case RankState::kFinalized:
      report.summary = "finalized";
      return report;
    case RankState::kNotInMpi:
      report.summary = "not in MPI";
      return report;
    case RankState::kBlocked:
    case RankState::kInMpi:
      break;
  }
  const int t = RepresentativeThread(snapshot);
  if (t < 0) {
    report.summary = "in MPI";
    return report;
  }
  const model::Thread& thread = snapshot.threads[static_cast<std::size_t>(t)];
  FillCall(job, i, thread, &report);
  if (report.state == RankState::kBlocked) {
    report.summary = ThreadCallSummary(job, i, thread);
  } else {
    report.summary = "in " + thread.call.value_or("MPI");
  }
  return report;
}

}  // namespace mpidbg::job
