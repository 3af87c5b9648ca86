// two_jobs_test.cc — a parent job and the job it spawned, analysed as one (job_join.h):
// ranks numbered across the jobs, each job's own MPI_COMM_WORLD kept apart, the
// intercommunicator between them shared, and a deadlock found across it.
#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job/job_join.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;

constexpr const char* kInter = "x";  // the id both sides of the spawn derived

// A job of `size` ranks whose launcher named it `job_id`; every rank holds the
// intercommunicator to the other job (its `other_size` ranks named by `other_job`).
JobBuilder MakeJob(int size, const std::string& job_id, const std::string& other_job,
                   int other_size, const std::string& creator) {
  JobBuilder job(size);
  std::vector<int> local, remote_in_other;
  for (int r = 0; r < size; ++r) local.push_back(r);
  for (int r = 0; r < other_size; ++r) remote_in_other.push_back(r);
  for (int r = 0; r < size; ++r) {
    model::ProcessSnapshot& s = job.Rank(r);
    s.launch = model::LaunchInfo{};
    s.launch->job_id = job_id;
    model::Communicator c;
    c.id = kInter;
    c.name = "";
    c.kind = "inter";
    c.size = size;
    c.rank = r;
    c.world_ranks = local;
    // As the runtime records it: our world cannot translate the other job's ranks.
    c.remote_world_ranks = std::vector<int>(static_cast<std::size_t>(other_size), -3);
    c.remote_job = model::Communicator::RemoteJob{other_job, remote_in_other};
    c.creator = creator;
    s.communicators.push_back(std::move(c));
  }
  return job;
}

// Rank r blocked in MPI_Recv from remote rank `source` over the intercommunicator; the
// runtime writes no world rank for a peer in another job.
void RecvFromOtherJob(JobBuilder* job, int r, int source) {
  model::Operation op = Op("MPI_Recv", false, R(source), Tag(7), kInter);
  op.blocking = true;
  model::Thread& t = job->Thread(r);
  t.state = "blocked";
  t.call = op.call;
  t.call_class = "p2p";
  t.operation = op;
}

std::vector<model::ProcessSnapshot> Both(const JobBuilder& first, const JobBuilder& second) {
  std::vector<model::ProcessSnapshot> all = first.snapshots();
  all.insert(all.end(), second.snapshots().begin(), second.snapshots().end());
  return all;
}

JobBuilder Parent() { return MakeJob(2, "parent-1", "child-2", 2, "MPI_Comm_spawn"); }
JobBuilder Child() { return MakeJob(2, "child-2", "parent-1", 2, "MPI_Comm_get_parent"); }

TEST(TwoJobs, FindJobsPutsTheParentFirstWhateverTheInputOrder) {
  const std::vector<JobSpan> jobs = FindJobs(Both(Child(), Parent()));
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].label, "A");
  EXPECT_EQ(jobs[0].job_id, "parent-1");
  EXPECT_EQ(jobs[0].first_rank, 0);
  EXPECT_EQ(jobs[1].label, "B");
  EXPECT_EQ(jobs[1].job_id, "child-2");
  EXPECT_EQ(jobs[1].first_rank, 2);
  EXPECT_EQ(jobs[1].size, 2);
}

TEST(TwoJobs, AnUnreadableInputBeforeTheRanksIsNoJobOfItsOwn) {
  // `--pids` of the launcher and the ranks: the launcher cannot be read (no job id)
  // and comes first; the ranks' one job is still one job.
  JobBuilder job(2);
  for (int r = 0; r < 2; ++r) {
    job.Rank(r).launch = model::LaunchInfo{};
    job.Rank(r).launch->job_id = "kvs-1";
  }
  std::vector<model::ProcessSnapshot> inputs = job.snapshots();
  model::ProcessSnapshot launcher;
  launcher.process.state = "unreadable";
  inputs.insert(inputs.begin(), launcher);
  const std::vector<JobSpan> jobs = FindJobs(inputs);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].job_id, "kvs-1");
  const JobReport report = Analyze(inputs);
  EXPECT_TRUE(report.jobs.empty()) << "a single job reports no jobs[]";
}

TEST(TwoJobs, DeadlockAcrossTheIntercommunicator) {
  JobBuilder parent = Parent(), child = Child();
  for (int r = 0; r < 2; ++r) {
    RecvFromOtherJob(&parent, r, r);
    RecvFromOtherJob(&child, r, r);
  }
  const JobReport report = Analyze(Both(child, parent));
  ASSERT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(report.unread.empty());
  ASSERT_EQ(report.deadlock.cycle.size(), 2u);
  EXPECT_FALSE(report.Incomplete());
  // The parent's rank 0 waits for the child's rank 0, analysis rank 2, and back.
  bool zero_to_two = false, two_to_zero = false;
  for (const WaitRequirement& w : report.deadlock.waits) {
    for (int to : w.to) {
      zero_to_two = zero_to_two || (w.from == 0 && to == 2);
      two_to_zero = two_to_zero || (w.from == 2 && to == 0);
    }
  }
  EXPECT_TRUE(zero_to_two);
  EXPECT_TRUE(two_to_zero);
  ASSERT_EQ(report.ranks.size(), 4u);
  EXPECT_EQ(report.ranks[2].job, "B");
  EXPECT_EQ(report.ranks[2].job_rank, 0);
  EXPECT_EQ(report.ranks[1].job, "A");
  EXPECT_EQ(report.ranks[1].job_rank, 1);
  EXPECT_EQ(RankName(report, 3), "job B rank 1");

  const nlohmann::json j = ToJson(report);
  ASSERT_TRUE(j.contains("jobs"));
  EXPECT_EQ(j["jobs"][1]["job_id"], "child-2");
  EXPECT_EQ(j["jobs"][1]["ranks"], "2-3");
  EXPECT_EQ(j["ranks"][3]["job"], "B");
  EXPECT_EQ(j["ranks"][3]["job_rank"], 1);
  const std::string text = ToText(report);
  EXPECT_NE(text.find("DEADLOCK: ranks 0-3"), std::string::npos) << text;
  EXPECT_NE(text.find("job A rank 0, job A rank 1, job B rank 0, job B rank 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("job B: ranks 2-3 = its world ranks 0-1, launcher job id child-2"),
            std::string::npos)
      << text;
}

TEST(TwoJobs, NoDeadlockWhenTheOtherJobCanStillSend) {
  JobBuilder parent = Parent(), child = Child();
  RecvFromOtherJob(&parent, 0, 0);
  RecvFromOtherJob(&parent, 1, 1);
  // The child's ranks compute outside MPI: they may still send.
  const JobReport report = Analyze(Both(parent, child));
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_FALSE(report.Incomplete());
}

// Both jobs have an MPI_COMM_WORLD with the same id ("w"): a barrier all of job A's
// ranks joined must not wait for job B's ranks, and B's own cycle stays B's.
TEST(TwoJobs, EachJobKeepsItsOwnWorld) {
  JobBuilder parent = Parent(), child = Child();
  parent.Collective(0, "MPI_Barrier").Collective(1, "MPI_Barrier");
  child.Recv(0, R(1), Tag(3)).Recv(1, R(0), Tag(3));
  const JobReport report = Analyze(Both(parent, child));
  ASSERT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, (std::vector<int>{2, 3}));
  EXPECT_TRUE(report.collective_mismatches.empty());
  for (const WaitRequirement& w : report.deadlock.waits) {
    if (w.from == 2) {
      EXPECT_EQ(std::vector<int>(w.to.begin(), w.to.end()), (std::vector<int>{3}));
    }
  }
}

// Both jobs, but one rank of the child not given: the verdict is incomplete and the
// missing rank is named in its job.
TEST(TwoJobs, AMissingRankIsNamedInItsJob) {
  JobBuilder parent = Parent(), child = Child();
  for (int r = 0; r < 2; ++r) RecvFromOtherJob(&parent, r, r);
  RecvFromOtherJob(&child, 0, 0);
  std::vector<model::ProcessSnapshot> inputs = parent.snapshots();
  inputs.push_back(child.snapshots()[0]);
  const JobReport report = Analyze(inputs);
  EXPECT_TRUE(report.Incomplete());
  // Parent rank 0 and child rank 0 wait for each other whatever the others do.
  ASSERT_TRUE(report.deadlock.detected);
  EXPECT_EQ(report.deadlock.ranks, (std::vector<int>{0, 2}));
  const std::string text = ToText(report);
  EXPECT_NE(text.find("rank 3 (job B rank 1): not read"), std::string::npos) << text;
}

// One job given alone (the other job's ranks not among the inputs, as `--launcher`
// gives them: Open MPI's MPIR_proctable lists the parent's ranks only): no job keys, its
// waits on the other job claim nothing, and the verdict says the other job was not read.
TEST(TwoJobs, OneJobAloneSaysTheOtherWasNotRead) {
  JobBuilder parent = Parent();
  RecvFromOtherJob(&parent, 0, 0);
  RecvFromOtherJob(&parent, 1, 1);
  const JobReport report = Analyze(parent.snapshots());
  EXPECT_TRUE(report.jobs.empty());
  EXPECT_FALSE(report.deadlock.detected);
  EXPECT_TRUE(report.Incomplete());
  EXPECT_EQ(report.waiting_on_unread, (std::vector<int>{0, 1}));
  ASSERT_EQ(report.unread.size(), 1u);
  EXPECT_FALSE(report.unread[0].rank.has_value());
  EXPECT_NE(report.unread[0].reason.find("job child-2 (2 ranks)"), std::string::npos)
      << report.unread[0].reason;
  const std::string text = ToText(report);
  EXPECT_NE(text.find("no verdict: ranks 0-1 wait for ranks not read"), std::string::npos) << text;
  const nlohmann::json j = ToJson(report);
  EXPECT_FALSE(j.contains("jobs"));
  EXPECT_FALSE(j["ranks"][0].contains("job"));
  EXPECT_EQ(RankName(report, 1), "rank 1");
}

TEST(TwoJobs, JoinJobsRewritesRanksIdsAndTheRemoteGroup) {
  std::vector<model::ProcessSnapshot> all = Both(Parent(), Child());
  all[2].communicators[0].pending_sends.push_back(Op("MPI_Isend", true, R(1), Tag(1)));
  all[2].communicators[0].pending_sends[0].peer_world = R(1);
  const std::vector<JobSpan> jobs = FindJobs(all);
  const std::vector<int> job_of = JoinJobs(jobs, &all);
  EXPECT_EQ(job_of, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(all[3].process.rank, 3);
  EXPECT_EQ(all[3].process.size, 4);
  const model::Communicator& child_world = all[2].communicators[0];
  EXPECT_EQ(child_world.id, "B:w");
  EXPECT_EQ(child_world.world_ranks.ranks(), (std::vector<int>{2, 3}));
  EXPECT_EQ(child_world.pending_sends[0].comm_id, "B:w");
  EXPECT_EQ(child_world.pending_sends[0].peer_world, R(3));
  EXPECT_EQ(all[0].communicators[0].id, "A:w");
  const model::Communicator& inter = all[2].communicators[1];
  EXPECT_EQ(inter.id, kInter);
  EXPECT_EQ(inter.world_ranks.ranks(), (std::vector<int>{2, 3}));
  ASSERT_TRUE(inter.remote_world_ranks.has_value());
  EXPECT_EQ(inter.remote_world_ranks->ranks(), (std::vector<int>{0, 1}));
  EXPECT_EQ(all[0].communicators[1].remote_world_ranks->ranks(), (std::vector<int>{2, 3}));
}

}  // namespace
}  // namespace mpidbg::job
