// job_analysis.cc — Analyze(): the steps in order, each in its own file.
#include "job/job_analysis.h"

#include <algorithm>

#include "job/collective_index.h"
#include "job/coverage.h"
#include "job/deadlock.h"
#include "job/hints.h"
#include "job/job_index.h"
#include "job/job_join.h"
#include "job/message_index.h"
#include "job/rank_classes.h"
#include "job/rank_ranges.h"
#include "job/rank_state.h"
#include "job/stacks_view.h"
#include "job/wait_graph.h"

namespace mpidbg::job {

const char* RankStateName(RankState state) {
  switch (state) {
    case RankState::kBlocked: return "blocked";
    case RankState::kInMpi: return "in_mpi";
    case RankState::kNotInMpi: return "not_in_mpi";
    case RankState::kFinalized: return "finalized";
    case RankState::kUnreadable: return "unreadable";
  }
  return "unreadable";
}

const char* RankStateText(RankState state) {
  switch (state) {
    case RankState::kBlocked: return "blocked";
    case RankState::kInMpi: return "in MPI";
    case RankState::kNotInMpi: return "not in MPI";
    case RankState::kFinalized: return "finalized";
    case RankState::kUnreadable: return "not readable";
  }
  return "not readable";
}

const char* WaitKindName(WaitKind kind) { return kind == WaitKind::kOr ? "or" : "and"; }

std::size_t DeadlockReport::EdgeCount() const {
  std::size_t edges = 0;
  for (const WaitRequirement& w : waits) edges += w.to.size();
  return edges;
}

namespace {

// The ranks into the report, sorted: every rank, and a process without one (as rank -1)
// so nothing given is lost; a repeated rank is not (a hint says so). Groups and classes
// hold real ranks only.
void ListRanks(const JobIndex& job, std::vector<RankReport> ranks, JobReport* report) {
  std::vector<RankReport> grouped;
  for (std::size_t i = 0; i < job.size(); ++i) {
    if (job.participates(i)) grouped.push_back(ranks[i]);
    if (job.participates(i) || ranks[i].rank < 0) report->ranks.push_back(std::move(ranks[i]));
  }
  std::stable_sort(report->ranks.begin(), report->ranks.end(),
                   [](const RankReport& a, const RankReport& b) { return a.rank < b.rank; });
  report->groups = GroupBySummary(grouped);
  report->classes = RankClasses(grouped);
}

// The reduced view: ranks, their classes and what the stacks prove; no wait graph,
// since no rank says what it waits for.
JobReport AnalyzeStacks(std::vector<model::ProcessSnapshot> snapshots) {
  JobReport report;
  report.view = "stacks";
  const bool numbered = NumberRanksByOrder(&snapshots);
  const JobIndex job(snapshots);
  std::vector<RankReport> ranks;
  for (std::size_t i = 0; i < job.size(); ++i) ranks.push_back(DescribeRank(job, i));
  for (std::size_t i = 0; i < job.size(); ++i) {
    report.world_size = std::max(report.world_size, job.snapshot(i).process.size);
  }
  report.unread = FindUnreadRanks(job, ranks);
  ListRanks(job, std::move(ranks), &report);
  report.stacks = JudgeStacks(report.ranks);
  report.collective_mismatches = ProvenCollectiveMismatches(report.ranks);
  report.stacks.ranks_by_order = numbered;
  return report;
}

JobReport AnalyzeOneJob(const std::vector<model::ProcessSnapshot>& snapshots);

// Each rank's job and rank in it, from the analysis rank (job_join.h).
void NameJobs(const std::vector<JobSpan>& jobs, JobReport* report) {
  for (RankReport& r : report->ranks) {
    for (const JobSpan& j : jobs) {
      if (r.rank >= j.first_rank && r.rank < j.first_rank + j.size) {
        r.job = j.label;
        r.job_rank = r.rank - j.first_rank;
        break;
      }
    }
  }
  report->jobs = jobs;
}

// A job reached through an intercommunicator but not given: the verdict does not cover
// it, and a blocked rank waiting on that intercommunicator may be waiting for it.
void NoteMissingJobs(const std::vector<model::ProcessSnapshot>& snapshots,
                     const std::vector<JobSpan>& jobs, JobReport* report) {
  std::vector<std::string> comm_ids;
  std::vector<UnreadRank> missing = MissingJobs(snapshots, jobs, &comm_ids);
  if (missing.empty()) return;
  report->unread.insert(report->unread.end(), missing.begin(), missing.end());
  const std::vector<int>& deadlocked = report->deadlock.ranks;
  for (const RankReport& r : report->ranks) {
    if (r.state != RankState::kBlocked || !r.comm) continue;
    if (std::find(comm_ids.begin(), comm_ids.end(), *r.comm) == comm_ids.end()) continue;
    if (std::find(deadlocked.begin(), deadlocked.end(), r.rank) != deadlocked.end()) continue;
    if (std::find(report->waiting_on_unread.begin(), report->waiting_on_unread.end(), r.rank) ==
        report->waiting_on_unread.end()) {
      report->waiting_on_unread.push_back(r.rank);
    }
  }
  std::sort(report->waiting_on_unread.begin(), report->waiting_on_unread.end());
}

}  // namespace

JobReport Analyze(const std::vector<model::ProcessSnapshot>& snapshots) {
  const std::vector<JobSpan> jobs = FindJobs(snapshots);
  if (jobs.size() < 2) {
    JobReport report = AnalyzeOneJob(snapshots);
    NoteMissingJobs(snapshots, jobs, &report);
    return report;
  }
  std::vector<model::ProcessSnapshot> joined = snapshots;
  JoinJobs(jobs, &joined);
  JobReport report = AnalyzeOneJob(joined);
  NameJobs(jobs, &report);
  NoteMissingJobs(snapshots, jobs, &report);
  return report;
}

std::string RankName(const JobReport& report, int rank) {
  for (const JobSpan& j : report.jobs) {
    if (rank >= j.first_rank && rank < j.first_rank + j.size) {
      return "job " + j.label + " rank " + std::to_string(rank - j.first_rank);
    }
  }
  return "rank " + std::to_string(rank);
}

namespace {

JobReport AnalyzeOneJob(const std::vector<model::ProcessSnapshot>& snapshots) {
  if (IsStacksView(snapshots)) return AnalyzeStacks(snapshots);
  const JobIndex job(snapshots);

  std::vector<RankReport> ranks;  // by snapshot index
  std::vector<RankState> states;
  std::vector<bool> finalizing;
  ranks.reserve(job.size());
  for (std::size_t i = 0; i < job.size(); ++i) {
    ranks.push_back(DescribeRank(job, i));
    states.push_back(ranks.back().state);
    finalizing.push_back(IsFinalizing(job.snapshot(i)));
  }

  const MessageIndex messages(job);
  CollectiveIndex collectives(job);
  WaitGraph graph = BuildWaitGraph(job, messages, collectives, states);

  JobReport report;
  report.deadlock = FindDeadlock(job, states, finalizing, graph);
  const std::vector<int> outside_view = std::move(graph.outside_view);
  report.deadlock.waits = std::move(graph.requirements);
  std::stable_sort(report.deadlock.waits.begin(), report.deadlock.waits.end(),
                   [](const WaitRequirement& a, const WaitRequirement& b) { return a.from < b.from; });

  report.unread = FindUnreadRanks(job, ranks);
  report.partial = FindPartialRanks(job);
  report.waiting_on_unread = RanksWaitingOnUnread(report.deadlock, report.unread, outside_view);
  for (std::size_t i = 0; i < job.size(); ++i) {
    report.world_size = std::max(report.world_size, job.snapshot(i).process.size);
  }
  report.unmatched = FindUnmatched(job, messages);
  report.collective_mismatches = FindCollectiveMismatches(job);
  report.hints = MakeHints(job, messages, collectives, ranks, report.collective_mismatches);

  ListRanks(job, std::move(ranks), &report);
  return report;
}

}  // namespace

bool JobReport::Incomplete() const {
  if (!unreadable_inputs.empty() || !unread.empty() || !partial.empty()) return true;
  for (const RankReport& r : ranks) {
    if (r.state == RankState::kUnreadable) return true;
  }
  return false;
}

}  // namespace mpidbg::job
