// runtime_processes_test.cc — how `collect --job` finds its candidates and decides
// membership, against a made-up /proc: processes mapping the runtime library, job ids
// of the launch record, and the Slurm allocation named by a process's environment.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "host/collect/runtime_processes.h"

namespace mpidbg::host {
namespace {

class FakeProc : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mpidbg-proc-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  void Process(int pid, const std::string& maps, const std::string& environ = "") {
    std::string d = dir_ + "/" + std::to_string(pid);
    ASSERT_EQ(std::system(("mkdir -p " + d).c_str()), 0);
    std::ofstream(d + "/maps") << maps;
    std::ofstream(d + "/environ", std::ios::binary) << environ;
  }

  std::string dir_;
};

TEST_F(FakeProc, CandidatesMapTheRuntimeLibrary) {
  Process(12, "7f00-7f10 r-xp 0 08:01 5 /opt/mpidbg/lib/libmpidbg_rt_mpich.so\n");
  Process(7, "7f00-7f10 r-xp 0 08:01 5 /usr/lib/libc.so.6\n");
  Process(30, "7f00-7f10 r-xp 0 08:01 5 /x/libmpidbg_rt_openmpi.so.0\n");
  Process(31, "7f00-7f10 r-xp 0 08:01 5 /x/libmpidbg_rt_notes.txt\n");
  ASSERT_EQ(std::system(("mkdir -p " + dir_ + "/self").c_str()), 0);
  EXPECT_EQ(RuntimeProcesses(dir_), (std::vector<int64_t>{12, 30}));
}

TEST(JobIds, SlurmJobNamesEveryStepOtherIdsOnlyThemselves) {
  EXPECT_TRUE(JobIdMatches("12.0", "12"));
  EXPECT_TRUE(JobIdMatches("12.0", "12.0"));
  EXPECT_FALSE(JobIdMatches("12.0", "12.1"));
  EXPECT_FALSE(JobIdMatches("123.0", "12"));
  EXPECT_FALSE(JobIdMatches("kvs_12.0", "kvs_12"));
  EXPECT_FALSE(JobIdMatches("", ""));
}

TEST_F(FakeProc, AllocationFromTheEnvironment) {
  using namespace std::string_literals;
  Process(40, "", "PATH=/bin\0SLURM_JOB_ID=77\0SLURM_STEP_ID=0\0"s);
  Process(41, "", "SLURM_JOBID=78\0"s);
  Process(42, "", "HOME=/root\0"s);
  Process(43, "", "SLURM_JOB_ID=7;rm\0SLURM_STEP_ID=0\0"s);
  Process(44, "", "XSLURM_JOB_ID=9\0SLURM_JOB_ID_OTHER=9\0"s);
  EXPECT_EQ(SlurmAllocationOf(40, dir_), "77.0");
  EXPECT_EQ(SlurmAllocationOf(41, dir_), "78");
  EXPECT_EQ(SlurmAllocationOf(42, dir_), "");
  EXPECT_EQ(SlurmAllocationOf(43, dir_), "");  // not a Slurm id
  EXPECT_EQ(SlurmAllocationOf(44, dir_), "");
  EXPECT_EQ(SlurmAllocationOf(45, dir_), "");  // no such process
  EXPECT_TRUE(JobIdMatches(SlurmAllocationOf(40, dir_), "77"));
}

TEST_F(FakeProc, RanksOfAnotherAllocationAreNotCandidates) {
  using namespace std::string_literals;
  Process(50, "", "SLURM_JOB_ID=77\0SLURM_STEP_ID=3\0"s);
  Process(51, "", "HOME=/root\0"s);
  EXPECT_FALSE(OtherSlurmAllocation(50, "77", dir_));
  EXPECT_FALSE(OtherSlurmAllocation(50, "77.0", dir_));  // another step: its launch record decides
  EXPECT_TRUE(OtherSlurmAllocation(50, "78", dir_));
  EXPECT_TRUE(OtherSlurmAllocation(50, "78.3", dir_));
  EXPECT_FALSE(OtherSlurmAllocation(51, "78", dir_));     // outside Slurm: asked
  EXPECT_FALSE(OtherSlurmAllocation(50, "kvs_1_0", dir_)); // a launcher's id: asked
  EXPECT_FALSE(OtherSlurmAllocation(50, "78.", dir_));
}

}  // namespace
}  // namespace mpidbg::host
