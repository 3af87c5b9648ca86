// hydra_proxies_test.cc — a Hydra launcher's proxies on other hosts (hydra_proxies.h):
// the bootstrap's arguments as MPICH 4.0's mpiexec writes them, and a process tree that
// stands in for mpiexec with one proxy here and two remote shells.
#include "host/proctable/hydra_proxies.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "host/proctable/launcher_descendants.h"
#include "host/proctable/launcher_ranks.h"
#include "tests/host/fixtures/script_group.h"

namespace mpidbg::host {
namespace {

// The words after the host, as mpiexec.hydra 4.0.2 passes them to its launcher.
std::vector<std::string> ProxyWords(const std::string& path, const std::string& pgid,
                                    const std::string& id) {
  return {path, "--control-port", "login1:40123", "--rmk", "user", "--launcher", "ssh",
          "--demux", "poll", "--pgid", pgid, "--retries", "10", "--usize", "-2",
          "--pmi-port", "0", "--gpus-per-proc", "-2", "--proxy-id", id};
}

std::vector<std::string> Cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(HydraBootstrap, SshsArgumentsNameTheHostAndTheJob) {
  auto b = ParseHydraBootstrap(
      Cat({"/usr/bin/ssh", "-x", "node2"}, ProxyWords("\"/usr/bin/hydra_pmi_proxy\"", "0", "1")));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->host, "node2");
  EXPECT_EQ(b->proxy.control_port, "login1:40123");
  EXPECT_EQ(b->proxy.pgid, "0");
  EXPECT_EQ(b->proxy.proxy_id, 1);
  EXPECT_EQ(b->proxy.job_id(), "login1:40123/0");
  // rsh and any other shell whose last word before the command is the host; the path
  // unquoted, or the proxy found on the remote PATH.
  auto rsh = ParseHydraBootstrap(Cat({"rsh", "node3"}, ProxyWords("hydra_pmi_proxy", "2", "4")));
  ASSERT_TRUE(rsh.has_value());
  EXPECT_EQ(rsh->host, "node3");
  EXPECT_EQ(rsh->proxy.job_id(), "login1:40123/2");
  EXPECT_EQ(rsh->proxy.proxy_id, 4);
}

// Inside a Slurm allocation mpiexec starts its proxies with srun, whose last word
// before the proxy is no host.
TEST(HydraBootstrap, ProxiesStartedThroughSlurmNameNoHost) {
  std::vector<std::string> words = ProxyWords("/usr/bin/hydra_pmi_proxy", "0", "-1");
  words[6] = "slurm";  // --launcher slurm
  auto b = ParseHydraBootstrap(Cat({"/usr/bin/srun", "-N", "2", "-n", "2", "--input", "none"}, words));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->host, "");
  EXPECT_EQ(b->proxy.launcher, "slurm");
  EXPECT_FALSE(b->proxy.remote_shell());
  EXPECT_EQ(b->proxy.job_id(), "login1:40123/0");
}

TEST(HydraBootstrap, AnythingElseIsNone) {
  // The proxy itself, run on this host.
  EXPECT_FALSE(ParseHydraBootstrap(ProxyWords("/usr/bin/hydra_pmi_proxy", "0", "0")).has_value());
  // An option where the host should be, a look-alike name, no control port, nothing.
  EXPECT_FALSE(ParseHydraBootstrap(Cat({"ssh", "-x"}, ProxyWords("hydra_pmi_proxy", "0", "1")))
                   .has_value());
  EXPECT_FALSE(ParseHydraBootstrap(Cat({"ssh", "n"}, ProxyWords("/x/hydra_pmi_proxy2", "0", "1")))
                   .has_value());
  EXPECT_FALSE(ParseHydraBootstrap({"ssh", "n", "hydra_pmi_proxy", "--pgid", "0"}).has_value());
  EXPECT_FALSE(ParseHydraBootstrap({"ssh", "n", "hydra_pmi_proxy", "--control-port"}).has_value());
  EXPECT_FALSE(ParseHydraBootstrap({}).has_value());
  // A proxy id that is no number leaves it unknown.
  auto b = ParseHydraBootstrap(Cat({"ssh", "n"}, ProxyWords("hydra_pmi_proxy", "0", "x")));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->proxy.proxy_id, -1);
}

// A shell standing in for mpiexec: a proxy shell here with rank 0 below it, and two
// "remote shells" (a shell sleeping, its arguments those of ssh starting a proxy) for
// node3 (proxy 2) and node2 (proxy 1).
std::string FakeHydraScript() {
  std::string remote;
  for (const auto& [host, id] : {std::pair{"node3", "2"}, std::pair{"node2", "1"}}) {
    remote += "bash -c 'sleep 60; true' -x " + std::string(host) +
              " '\"/usr/bin/hydra_pmi_proxy\"' --control-port login1:40123 --pgid 0 "
              "--proxy-id " + id + " & ";
  }
  return remote + "sh -c 'PMI_RANK=0 PMI_SIZE=3 sleep 60 & wait' & wait; true";
}

class FakeHydra : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(group_.pid(), 0);
    // Until the shells have become what they run (or 10 s, and the test fails).
    ScriptGroup::WaitUntil([this] {
      auto p = FindHydraRemoteProxies(launcher_);
      return p.ok() && p->hosts.size() == 2 && DescendantRanks(launcher_).ok();
    });
  }
  ScriptGroup group_{FakeHydraScript()};
  const pid_t launcher_ = group_.pid();
};

TEST_F(FakeHydra, ProxiesOnOtherHostsInProxyOrderBesideTheRankHere) {
  auto proxies = FindHydraRemoteProxies(launcher_);
  ASSERT_TRUE(proxies.ok()) << proxies.status().message();
  EXPECT_EQ(proxies->job_id, "login1:40123/0");
  EXPECT_EQ(proxies->hosts, (std::vector<std::string>{"node2", "node3"}));
  // What --launcher gives every command: the rank here, and the job on the two hosts.
  auto job = ReadLauncherRanks(launcher_);
  ASSERT_TRUE(job.ok()) << job.status().message();
  ASSERT_EQ(job->ranks.size(), 1u);
  EXPECT_EQ(job->remote_job_id, "login1:40123/0");
  EXPECT_EQ(job->remote_hosts, (std::vector<std::string>{"node2", "node3"}));
  auto local = LauncherLocalRankPids(launcher_);
  ASSERT_TRUE(local.ok()) << local.status().message();
  EXPECT_EQ(*local, std::vector<int64_t>{job->ranks[0].pid});
}

// mpiexec inside `salloc`: its proxies run under srun, so --launcher points to --slurm.
TEST(HydraProxies, ProxiesUnderSlurmPointToTheAllocation) {
  Result<HydraRemoteProxies> proxies = Status::Unreadable("not read");
  Result<std::vector<int64_t>> local = Status::Unreadable("not read");
  {
    ScriptGroup launcher(
        "SLURM_JOB_ID=4242 bash -c 'bash -c \"sleep 60; true\" srun -N 2 --input none "
        "/usr/bin/hydra_pmi_proxy --control-port node1:39243 --rmk slurm --launcher slurm "
        "--pgid 0 --proxy-id -1 & wait'");
    ASSERT_GT(launcher.pid(), 0);
    ScriptGroup::WaitUntil([&] {
      proxies = FindHydraRemoteProxies(launcher.pid());
      return proxies.status().message().find("through") != std::string::npos;
    });
    local = LauncherLocalRankPids(launcher.pid());
  }
  ASSERT_FALSE(proxies.ok());
  EXPECT_EQ(proxies.status().kind(), ErrorKind::kNoSupport);
  EXPECT_NE(proxies.status().message().find("starts its Hydra proxies through slurm, not a "
                                            "remote shell: read the job with --slurm 4242"),
            std::string::npos) << proxies.status().message();
  ASSERT_FALSE(local.ok());
  EXPECT_NE(local.status().message().find("--slurm 4242"), std::string::npos)
      << local.status().message();
}

TEST(HydraProxies, ALauncherWithoutProxiesElsewhereHasNone) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
    _exit(127);
  }
  auto proxies = FindHydraRemoteProxies(child);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_FALSE(proxies.ok());
  EXPECT_EQ(proxies.status().kind(), ErrorKind::kNoSupport);
}

}  // namespace
}  // namespace mpidbg::host
