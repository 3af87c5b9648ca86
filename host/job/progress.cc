// progress.cc — see progress.h.
#include "job/progress.h"

#include <unordered_map>

namespace mpidbg::job {
namespace {

bool ThreadProgressed(const model::Thread& before, const model::Thread& after) {
  return before.mpi_calls != after.mpi_calls || before.call != after.call;
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
                                      std::vector<model::ProcessSnapshot>* later) {
  std::unordered_map<int, const model::ProcessSnapshot*> by_rank;
  for (const model::ProcessSnapshot& s : earlier) {
    if (s.process.rank >= 0 && s.process.state != "unreadable") by_rank.emplace(s.process.rank, &s);
  }
  std::vector<int> progressing;
  for (model::ProcessSnapshot& s : *later) {
    if (s.process.rank < 0 || s.process.state == "unreadable") continue;
    auto it = by_rank.find(s.process.rank);
    if (it != by_rank.end() && !RankProgressed(*it->second, s)) continue;
    bool had_blocked = false;
    for (model::Thread& t : s.threads) {
      if (t.state != "blocked") continue;
      t.state = "in_mpi";
      had_blocked = true;
    }
    if (had_blocked) progressing.push_back(s.process.rank);
  }
  return progressing;
}

}  // namespace mpidbg::job
