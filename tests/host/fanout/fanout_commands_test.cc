// fanout_commands_test.cc — the commands that start the readers: srun's arguments from a
// job or step and its nodes, scontrol's fields, remote-shell templates per host or for
// all hosts.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "host/fanout/fanout_collect.h"
#include "host/fanout/remote_shell.h"
#include "host/fanout/slurm_step.h"

namespace mpidbg::host {
namespace {

TEST(SlurmStep, JobAndStepIdsAreNumbers) {
  auto job = ParseSlurmTarget("4242");
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(job->id(), "4242");
  auto step = ParseSlurmTarget("4242.0");
  ASSERT_TRUE(step.ok());
  EXPECT_EQ(step->job, "4242");
  EXPECT_EQ(step->step, "0");
  for (const char* bad : {"", "abc", "12.", ".3", "12.x", "12;rm", "1.2.3"}) {
    EXPECT_FALSE(ParseSlurmTarget(bad).ok()) << bad;
  }
}

TEST(SlurmStep, ScontrolFieldsAreWholeKeys) {
  std::string line = "JobId=12 JobState=RUNNING ReqNodeList=(null) NodeList=node[1-4] BatchHost=node1";
  EXPECT_EQ(ScontrolField(line, "NodeList"), "node[1-4]");
  EXPECT_EQ(ScontrolField(line, "JobState"), "RUNNING");
  EXPECT_EQ(ScontrolField(line, "Missing"), "");
}

TEST(SlurmStep, SrunStartsOneReaderPerNodeOfTheStep) {
  ReaderCommand c = SrunReaders(*ParseSlurmTarget("12.1"), {"n1", "n2", "n3"},
                                {"/opt/mpidbg", "collect", "--job", "12.1", "--framed"});
  std::string text = CommandText(c.argv);
  for (const char* part : {"srun --overlap --jobid=12 ", "--nodes=3", "--ntasks-per-node=1",
                           "--nodelist=n1,n2,n3", "/opt/mpidbg collect --job 12.1 --framed"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << " in " << text;
  }
}

TEST(RemoteShell, OneCommandPerHostWithItsPids) {
  RemoteTargets hosts;
  hosts.pids_by_host = {{"a", {1, 2}}, {"b", {3}}};
  auto reads = RemoteReaders(kDefaultRemoteShell, ReaderCommandWords({"/m", "", {}}), hosts);
  ASSERT_TRUE(reads.ok()) << reads.status().message();
  ASSERT_EQ(reads->size(), 2u);
  EXPECT_EQ(CommandText((*reads)[0].command.argv),
            "ssh -o BatchMode=yes a /m collect --framed --pids 1,2");
  EXPECT_EQ((*reads)[1].hosts, std::vector<std::string>{"b"});
}

TEST(RemoteShell, OneCommandForAllHostsListsEachHostsPids) {
  RemoteTargets hosts;
  hosts.pids_by_host = {{"a", {1, 2}}, {"b", {3}}};
  auto reads = RemoteReaders("pdsh -w {hosts}", ReaderCommandWords({"/m", "/p.so", {}}), hosts);
  ASSERT_TRUE(reads.ok());
  ASSERT_EQ(reads->size(), 1u);
  EXPECT_EQ(CommandText((*reads)[0].command.argv),
            "pdsh -w a,b /m collect --framed --plugin /p.so --host-pids a=1,2 --host-pids b=3");
  EXPECT_EQ((*reads)[0].hosts, (std::vector<std::string>{"a", "b"}));
}

// Hydra's proxies (hydra_proxies.h): each host's reader finds the ranks by the job id
// their launch records name, as `--slurm` readers do.
TEST(RemoteShell, HostsOfAJobReadTheirRanksByItsId) {
  RemoteTargets job;
  job.job_id = "login1:40123/0";
  job.job_hosts = {"node2", "node1"};
  const std::vector<std::string> reader = ReaderCommandWords({"/m", "", {}});
  auto per_host = RemoteReaders(kDefaultRemoteShell, reader, job);
  ASSERT_TRUE(per_host.ok()) << per_host.status().message();
  ASSERT_EQ(per_host->size(), 2u);
  EXPECT_EQ(CommandText((*per_host)[0].command.argv),
            "ssh -o BatchMode=yes node2 /m collect --framed --job login1:40123/0");
  EXPECT_EQ((*per_host)[1].hosts, std::vector<std::string>{"node1"});
  auto all = RemoteReaders("clush -w {hosts}", reader, job);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ(CommandText((*all)[0].command.argv),
            "clush -w node2,node1 /m collect --framed --job login1:40123/0");
  EXPECT_EQ((*all)[0].hosts, (std::vector<std::string>{"node2", "node1"}));
}

TEST(RemoteShell, ATemplateNeedsExactlyOnePlaceholder) {
  RemoteTargets hosts;
  hosts.pids_by_host = {{"a", {1}}};
  const std::vector<std::string> reader = {"/m", "collect", "--framed"};
  EXPECT_FALSE(RemoteReaders("ssh", reader, hosts).ok());
  EXPECT_FALSE(RemoteReaders("x {host} {hosts}", reader, hosts).ok());
  EXPECT_FALSE(RemoteReaders("", reader, hosts).ok());
}

TEST(RemoteShell, ReadersAskForTheContentTheirCommandNeeds) {
  RemoteTargets hosts;
  hosts.pids_by_host = {{"a", {7}}};
  auto reads = RemoteReaders(
      kDefaultRemoteShell,
      ReaderCommandWords({"/m", "", {"--content", "monitor", "--which", "current"}}), hosts);
  ASSERT_TRUE(reads.ok());
  EXPECT_EQ(CommandText((*reads)[0].command.argv),
            "ssh -o BatchMode=yes a /m collect --framed --content monitor --which current "
            "--pids 7");
}

TEST(FanoutReaderWords, AnEmptyPathIsThisExecutable) {
  std::vector<std::string> words = ReaderCommandWords({"", "", {}});
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0], ThisExecutable());
  EXPECT_EQ(words[1], "collect");
}

}  // namespace
}  // namespace mpidbg::host
