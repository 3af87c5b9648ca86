// launcher_descendants_test.cc — a launcher without a process table: its ranks found
// among its descendants (launcher_descendants.h), over a parent table built by hand and
// over a real process tree that stands in for mpiexec, a proxy and its ranks.
#include "host/proctable/launcher_descendants.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "host/proctable/launcher_ranks.h"
#include "tests/host/fixtures/script_group.h"

namespace mpidbg::host {
namespace {

TEST(LauncherDescendants, NearestFirstAndNothingOutsideTheTree) {
  // 10 -> 11 -> {12, 13}, 13 -> 14; 20 is no descendant; 30 is its own parent.
  const std::map<int64_t, int64_t> parents = {
      {10, 1}, {11, 10}, {12, 11}, {13, 11}, {14, 13}, {20, 1}, {30, 30}};
  EXPECT_EQ(DescendantsOf(10, parents), (std::vector<int64_t>{11, 12, 13, 14}));
  EXPECT_EQ(DescendantsOf(13, parents), (std::vector<int64_t>{14}));
  EXPECT_TRUE(DescendantsOf(20, parents).empty());
  EXPECT_TRUE(DescendantsOf(30, parents).empty());
  EXPECT_TRUE(DescendantsOf(99, parents).empty());
}

TEST(LauncherDescendants, ThisProcessIsAmongItsParentsTable) {
  const std::map<int64_t, int64_t> parents = ProcessParents();
  auto me = parents.find(getpid());
  ASSERT_NE(me, parents.end());
  EXPECT_EQ(me->second, getppid());
}

// A shell standing in for mpiexec: a proxy shell below it starts "rank 1" (a sleep) and
// "rank 0" (a shell that runs a sleep of its own, which inherits PMI_RANK=0), beside a
// process that carries Slurm's SLURM_PROCID alone.
class FakeLauncher : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(group_.pid(), 0);
    // Until the whole tree is there: the proxy, rank 1's sleep, rank 0's shell and the
    // sleep below it, the stray sleep.
    ScriptGroup::WaitUntil([this] { return DescendantsOf(launcher_, ProcessParents()).size() >= 5; });
  }
  ScriptGroup group_{
      "sh -c 'PMI_RANK=1 PMI_SIZE=2 sleep 60 & "
      "PMI_RANK=0 PMI_SIZE=2 sh -c \"sleep 60; true\" & "
      "SLURM_PROCID=5 sleep 60 & wait'; true"};
  const pid_t launcher_ = group_.pid();
};

TEST_F(FakeLauncher, RanksInRankOrderAndNoRanksChildren) {
  const std::map<int64_t, int64_t> parents = ProcessParents();
  ASSERT_EQ(DescendantsOf(launcher_, parents).size(), 5u)
      << "the proxy shell, three sleeps, rank 0's shell";
  auto ranks = DescendantRanks(launcher_);
  ASSERT_TRUE(ranks.ok()) << ranks.status().message();
  ASSERT_EQ(ranks->size(), 2u);
  // Rank 0 is the shell, not the sleep below it that inherited its PMI_RANK.
  EXPECT_EQ(parents.at((*ranks)[0].pid), parents.at((*ranks)[1].pid)) << "both below the proxy";
  EXPECT_NE((*ranks)[0].executable_name.find("sh"), std::string::npos)
      << (*ranks)[0].executable_name;
  EXPECT_NE((*ranks)[1].executable_name.find("sleep"), std::string::npos)
      << (*ranks)[1].executable_name;
  EXPECT_TRUE((*ranks)[0].host_name.empty());
  // What --launcher PID gives every command: the same pids, in rank order.
  auto local = LauncherLocalRankPids(launcher_);
  ASSERT_TRUE(local.ok()) << local.status().message();
  EXPECT_EQ(*local, (std::vector<int64_t>{(*ranks)[0].pid, (*ranks)[1].pid}));
}

TEST(LauncherDescendants, NoRankBelowIsRefusedWithBothReasons) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
    _exit(127);
  }
  auto ranks = DescendantRanks(child);
  auto local = LauncherLocalRankPids(child);
  kill(child, SIGKILL);  // before any assertion can end the test
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(ranks.ok());
  EXPECT_EQ(ranks.status().kind(), ErrorKind::kNoSupport);
  ASSERT_FALSE(local.ok());
  EXPECT_EQ(local.status().kind(), ErrorKind::kNoSupport);
  const std::string& m = local.status().message();
  EXPECT_NE(m.find("no MPIR_proctable"), std::string::npos) << m;
  EXPECT_NE(m.find("no process below it on this host names an MPI rank"), std::string::npos) << m;
  EXPECT_NE(m.find("--pids"), std::string::npos) << m;
}

}  // namespace
}  // namespace mpidbg::host
