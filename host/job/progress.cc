// progress.cc — see progress.h.
#include "job/progress.h"

#include <string>
#include <unordered_map>

namespace mpidbg::job {
namespace {

// Frames compared by pc: a thread read from its stacks alone has no call count, but its
// folded stack (the MPI call's frame and the program's callers) stays put while it waits.
bool SameStack(const model::Thread& before, const model::Thread& after) {
  if (before.frames.size() != after.frames.size()) return false;
  for (std::size_t i = 0; i < before.frames.size(); ++i) {
    if (before.frames[i].pc != after.frames[i].pc) return false;
  }
  return true;
}

bool ThreadProgressed(const model::Thread& before, const model::Thread& after) {
  if (before.mpi_calls != after.mpi_calls || before.call != after.call) return true;
  const bool counted = before.mpi_calls != 0 || after.mpi_calls != 0;
  return !counted && !SameStack(before, after);
}

// Ranks by (job, world rank): inputs of several jobs (job_join.h) each have a rank 0.
// A process whose rank is not known (the stacks view without a launcher variable) by
// its pid, which a second live read keeps.
std::string RankKey(const model::ProcessSnapshot& s) {
  const std::string job = s.launch ? s.launch->job_id : std::string();
  if (s.process.rank >= 0) return job + "/" + std::to_string(s.process.rank);
  return "pid " + std::to_string(s.process.pid);
}

bool RankProgressed(const model::ProcessSnapshot& before, const model::ProcessSnapshot& after) {
  std::unordered_map<int64_t, const model::Thread*> earlier_threads;
  for (const model::Thread& t : before.threads) earlier_threads.emplace(t.tid, &t);
  for (const model::Thread& t : after.threads) {
    auto it = earlier_threads.find(t.tid);
    if (it == earlier_threads.end() || ThreadProgressed(*it->second, t)) return true;
  }
  return false;
}

}  // namespace

std::vector<int> MarkProgressingRanks(const std::vector<model::ProcessSnapshot>& earlier,
                                      std::vector<model::ProcessSnapshot>* later,
                                      std::vector<int64_t>* progressing_pids) {
  std::unordered_map<std::string, const model::ProcessSnapshot*> by_rank;
  for (const model::ProcessSnapshot& s : earlier) {
    if (s.process.state != "unreadable") by_rank.emplace(RankKey(s), &s);
  }
  std::vector<int> progressing;
  for (model::ProcessSnapshot& s : *later) {
    if (s.process.state == "unreadable") continue;
    if (s.process.rank < 0 && s.process.view != "stacks") continue;
    auto it = by_rank.find(RankKey(s));
    if (it != by_rank.end() && !RankProgressed(*it->second, s)) continue;
    bool had_blocked = false;
    for (model::Thread& t : s.threads) {
      if (t.state != "blocked") continue;
      t.state = "in_mpi";
      had_blocked = true;
    }
    if (!had_blocked) continue;
    if (s.process.rank >= 0) progressing.push_back(s.process.rank);
    if (progressing_pids != nullptr) progressing_pids->push_back(s.process.pid);
  }
  return progressing;
}

}  // namespace mpidbg::job
