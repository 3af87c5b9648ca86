// Which rank a process is, from its launcher's variables (rank_environment.h), and the
// environment of a live process.
#include "host/target/rank_environment.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace mpidbg::host {
namespace {

TEST(RankEnvironment, EachLauncherFamily) {
  RankFromEnvironment hydra = RankOfEnvironment({"HOME=/root", "PMI_RANK=3", "PMI_SIZE=4"});
  EXPECT_EQ(hydra.rank, 3);
  EXPECT_EQ(hydra.size, 4);
  EXPECT_EQ(hydra.from, "PMI_RANK");
  RankFromEnvironment ompi = RankOfEnvironment(
      {"PMIX_RANK=1", "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=8", "PMI_RANK=5"});
  EXPECT_EQ(ompi.rank, 1);
  EXPECT_EQ(ompi.size, 8);
  EXPECT_EQ(ompi.from, "OMPI_COMM_WORLD_RANK");
  RankFromEnvironment slurm = RankOfEnvironment({"SLURM_PROCID=2", "SLURM_NTASKS=16"});
  EXPECT_EQ(slurm.rank, 2);
  EXPECT_EQ(slurm.size, 16);
  RankFromEnvironment pmix = RankOfEnvironment({"PMIX_RANK=6"});
  EXPECT_EQ(pmix.rank, 6);
  EXPECT_EQ(pmix.size, 0);
}

TEST(RankEnvironment, BadValuesAreSkipped) {
  EXPECT_EQ(RankOfEnvironment({}).rank, -1);
  EXPECT_EQ(RankOfEnvironment({"PMI_RANK=x"}).rank, -1);
  EXPECT_EQ(RankOfEnvironment({"PMI_RANK=-1"}).rank, -1);
  EXPECT_EQ(RankOfEnvironment({"PMI_RANK=99999999999"}).rank, -1);
  EXPECT_EQ(RankOfEnvironment({"PMI_RANK="}).rank, -1);
  EXPECT_EQ(RankOfEnvironment({"PMI_RANKS=1"}).rank, -1);
  // A size that cannot hold the rank is not believed; the rank still is.
  RankFromEnvironment odd = RankOfEnvironment({"PMI_RANK=4", "PMI_SIZE=4"});
  EXPECT_EQ(odd.rank, 4);
  EXPECT_EQ(odd.size, 0);
  // A bad first family falls through to the next.
  EXPECT_EQ(RankOfEnvironment({"OMPI_COMM_WORLD_RANK=?", "SLURM_PROCID=3"}).from, "SLURM_PROCID");
}

TEST(RankEnvironment, LiveProcess) {
  // /proc/PID/environ holds the environment the process was started with: exec one.
  const pid_t child = fork();
  if (child == 0) {
    char* const argv[] = {const_cast<char*>("sleep"), const_cast<char*>("30"), nullptr};
    char* const envp[] = {const_cast<char*>("PATH=/usr/bin:/bin"),
                          const_cast<char*>("PMI_RANK=5"), const_cast<char*>("PMI_SIZE=6"),
                          nullptr};
    execve("/bin/sleep", argv, envp);
    _exit(127);
  }
  usleep(200 * 1000);  // let the exec happen
  TargetSpec spec;
  spec.pid = child;
  auto target = OpenedTarget::Open(spec);
  RankFromEnvironment rank;
  if (target.ok()) {
    rank = RankOfEnvironment(TargetEnvironment(*target.value()));
    target.value()->Close();
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_EQ(rank.rank, 5);
  EXPECT_EQ(rank.size, 6);
  EXPECT_EQ(rank.from, "PMI_RANK");
}

}  // namespace
}  // namespace mpidbg::host
