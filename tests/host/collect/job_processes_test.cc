// job_processes_test.cc — the ranks of a job as their launcher made them, runtime or not
// (job_processes.h), over real processes standing in for them: tasks of a Slurm
// allocation beside one of another, and a "proxy" (argv[0] hydra_pmi_proxy, the options
// mpiexec gives it; a shell) with a rank below it beside one of another Hydra job.
#include "host/collect/job_processes.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/target/process_tree.h"
#include "host/target/rank_environment.h"
#include "host/target/target_live.h"
#include "tests/host/fixtures/script_group.h"

namespace mpidbg::host {
namespace {

bool Has(const std::vector<int64_t>& pids, int64_t pid) {
  return std::find(pids.begin(), pids.end(), pid) != pids.end();
}

// The descendant of `root` whose environment holds `entry`, or -1.
int64_t DescendantWith(pid_t root, const std::string& entry) {
  for (int64_t pid : DescendantsOf(root, ProcessParents())) {
    const std::vector<std::string> env = LiveEnvironment(pid);
    if (std::find(env.begin(), env.end(), entry) != env.end()) return pid;
  }
  return -1;
}

// Slurm: two tasks of allocation 424242 step 0, one of allocation 999. Hydra: a proxy
// of job ctl:4000/0 with rank 0 below it, and one of ctl:4001/0.
constexpr const char* kLaunchedJobs =
    "SLURM_JOB_ID=424242 SLURM_STEP_ID=0 SLURM_PROCID=0 MARK=slurm0 sleep 60 & "
    "SLURM_JOB_ID=424242 SLURM_STEP_ID=0 SLURM_PROCID=1 MARK=slurm1 sleep 60 & "
    "SLURM_JOB_ID=999 SLURM_STEP_ID=0 SLURM_PROCID=0 MARK=other sleep 60 & "
    "for port in 4000 4001; do "
    "  (exec -a /usr/bin/hydra_pmi_proxy bash -c "
    "   'PMI_RANK=0 PMI_SIZE=1 MARK=hydra$1 sleep 60; true' proxy ctl:$port "
    "   --control-port ctl:$port --rmk user --pgid 0 --proxy-id 0) & "
    "done; wait";

class FakeLaunchedJobs : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(group_.pid(), 0);
    for (const char* mark : {"MARK=slurm0", "MARK=slurm1", "MARK=other", "MARK=hydractl:4000",
                             "MARK=hydractl:4001"}) {
      int64_t pid = -1;
      ScriptGroup::WaitUntil([&] { return (pid = DescendantWith(group_.pid(), mark)) > 0; });
      pids_.push_back(pid);
    }
  }
  ScriptGroup group_{kLaunchedJobs};
  std::vector<int64_t> pids_;  // slurm0, slurm1, other, hydra 4000, hydra 4001
};

TEST_F(FakeLaunchedJobs, SlurmTasksByTheirAllocation) {
  for (int64_t pid : pids_) ASSERT_GT(pid, 0) << "the fake processes did not start";
  for (const char* wanted : {"424242", "424242.0"}) {
    const std::vector<int64_t> found = LauncherJobProcesses(wanted);
    EXPECT_TRUE(Has(found, pids_[0]) && Has(found, pids_[1])) << wanted;
    EXPECT_FALSE(Has(found, pids_[2])) << wanted << ": another allocation";
    EXPECT_FALSE(Has(found, pids_[3]) || Has(found, pids_[4])) << wanted << ": Hydra's ranks";
    EXPECT_TRUE(std::is_sorted(found.begin(), found.end()));
  }
  EXPECT_FALSE(Has(LauncherJobProcesses("424242.1"), pids_[0])) << "another step";
  EXPECT_FALSE(Has(LauncherJobProcesses("424243"), pids_[0]));
}

TEST_F(FakeLaunchedJobs, HydraRanksBelowTheProxyOfTheirJob) {
  for (int64_t pid : pids_) ASSERT_GT(pid, 0) << "the fake processes did not start";
  const std::vector<int64_t> found = LauncherJobProcesses("ctl:4000/0");
  EXPECT_TRUE(Has(found, pids_[3])) << "the rank below proxy ctl:4000";
  EXPECT_FALSE(Has(found, pids_[4])) << "the rank of ctl:4001";
  EXPECT_FALSE(Has(found, pids_[0])) << "a Slurm task";
  // The proxy itself names no rank.
  const int64_t proxy = ProcessParents().at(pids_[3]);
  EXPECT_FALSE(Has(found, proxy));
  EXPECT_TRUE(Has(LauncherJobProcesses("ctl:4001/0"), pids_[4]));
  EXPECT_TRUE(LauncherJobProcesses("ctl:4000/1").empty()) << "another process group";
}

}  // namespace
}  // namespace mpidbg::host
