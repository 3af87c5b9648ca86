// launch_env_test.cc — launcher detection and the launch record from environments as
// hydra 4.0.2, Open MPI 4.1 (orterun), Slurm and PRRTE set them (rt/process/launch_env.h).
#include "rt/process/launch_env.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

namespace mpidbg::rt {
namespace {

using Env = std::map<std::string, std::string>;

const char* Lookup(void* context, const char* name) {
  const Env& env = *static_cast<const Env*>(context);
  auto it = env.find(name);
  return it == env.end() ? nullptr : it->second.c_str();
}

mpidbg_launch_info Fill(const Env& env, const std::string& parent = "") {
  LaunchEnvironment e{Lookup, const_cast<Env*>(&env), parent.empty() ? nullptr : parent.data(),
                      parent.size()};
  mpidbg_launch_info info;
  LaunchInfoFromEnvironment(e, &info);
  return info;
}

// argv as /proc/<pid>/cmdline has it: every argument NUL-terminated.
std::string Cmdline(std::initializer_list<const char*> args) {
  std::string s;
  for (const char* a : args) {
    s += a;
    s += '\0';
  }
  return s;
}

const Env kHydra = {{"PMI_RANK", "1"},        {"PMI_SIZE", "2"},
                    {"PMI_FD", "8"},          {"MPI_LOCALRANKID", "1"},
                    {"MPI_LOCALNRANKS", "2"}, {"MPIR_CVAR_CH3_INTERFACE_HOSTNAME", "vm"}};

const std::string kHydraProxy =
    Cmdline({"/usr/bin/hydra_pmi_proxy", "--control-port", "vm:33385", "--rmk", "user",
             "--launcher", "ssh", "--demux", "poll", "--pgid", "0", "--retries", "10",
             "--usize", "-2", "--pmi-port", "0", "--gpus-per-proc", "-2", "--proxy-id", "0"});

const Env kOrte = {{"OMPI_COMM_WORLD_RANK", "1"},
                   {"OMPI_COMM_WORLD_SIZE", "2"},
                   {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                   {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                   {"OMPI_COMM_WORLD_NODE_RANK", "1"},
                   {"OMPI_UNIVERSE_SIZE", "2"},
                   {"OMPI_MCA_orte_app_num", "0"},
                   {"OMPI_MCA_ess_base_jobid", "1536098305"},
                   {"OMPI_MCA_orte_hnp_uri", "1536098304.0;tcp://192.0.2.2:37461"},
                   {"PMIX_RANK", "1"},
                   {"PMIX_NAMESPACE", "1536098305"},
                   {"PMIX_HOSTNAME", "vm"},
                   {"PMIX_SERVER_URI3", "1536098304.0;tcp4://127.0.0.1:36699"}};

const Env kSlurmStep = {{"SLURM_PROCID", "0"},      {"SLURM_STEP_ID", "4"},
                        {"SLURM_JOB_ID", "123"},    {"SLURM_NTASKS", "7"},
                        {"SLURM_LOCALID", "0"},     {"SLURM_NODEID", "3"},
                        {"SLURMD_NODENAME", "n03"}, {"SLURM_STEP_TASKS_PER_NODE", "2(x3),1"}};

Env Merge(Env a, const Env& b) {
  for (const auto& kv : b) a.insert(kv);
  return a;
}

TEST(LaunchEnv, HydraWithItsProxy) {
  mpidbg_launch_info l = Fill(kHydra, kHydraProxy);
  EXPECT_EQ(l.size, sizeof(mpidbg_launch_info));
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_HYDRA});
  EXPECT_STREQ(l.launcher_name, "hydra");
  EXPECT_EQ(l.sources, uint32_t{MPIDBG_LAUNCH_FROM_PMI});
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.world_size, 2);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_size, 2);
  EXPECT_EQ(l.node_rank, -1);
  EXPECT_EQ(l.appnum, -1);
  EXPECT_EQ(l.universe_size, -1);  // --usize -2: not given
  EXPECT_STREQ(l.job_id, "vm:33385/0");
  EXPECT_STREQ(l.host, "vm");
  EXPECT_STREQ(l.pmi_interface, "pmi");
  EXPECT_EQ(l.pid, -1);
  EXPECT_EQ(l.mpi_rank, -1);
}

TEST(LaunchEnv, HydraUniverseSizeAndKvsName) {
  std::string proxy = Cmdline({"hydra_pmi_proxy", "--control-port", "h:1", "--usize", "8"});
  Env env = Merge({{"PMI_KVSNAME", "kvs_77_0"}}, kHydra);
  mpidbg_launch_info l = Fill(env, proxy);
  EXPECT_EQ(l.universe_size, 8);
  EXPECT_STREQ(l.job_id, "kvs_77_0");
}

TEST(LaunchEnv, HydraWithoutProxyArguments) {
  mpidbg_launch_info l = Fill(kHydra);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_HYDRA});
  EXPECT_STREQ(l.job_id, "");
}

TEST(LaunchEnv, HydraInsideASlurmStepIsStillHydra) {
  mpidbg_launch_info l = Fill(Merge(kHydra, kSlurmStep), kHydraProxy);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_HYDRA});
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.sources & MPIDBG_LAUNCH_FROM_SLURM, 0u);
}

TEST(LaunchEnv, OpenMpiOrterun) {
  mpidbg_launch_info l = Fill(kOrte);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_ORTE});
  EXPECT_STREQ(l.launcher_name, "orte");
  EXPECT_EQ(l.sources, uint32_t{MPIDBG_LAUNCH_FROM_OMPI | MPIDBG_LAUNCH_FROM_PMIX});
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.world_size, 2);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_size, 2);
  EXPECT_EQ(l.node_rank, 1);
  EXPECT_EQ(l.appnum, 0);
  EXPECT_EQ(l.universe_size, 2);
  EXPECT_STREQ(l.job_id, "1536098305");
  EXPECT_STREQ(l.host, "vm");
  EXPECT_STREQ(l.pmi_interface, "pmix");
}

TEST(LaunchEnv, OpenMpiInsideASlurmStepIsStillOrte) {
  mpidbg_launch_info l = Fill(Merge(kOrte, kSlurmStep));
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_ORTE});
  EXPECT_EQ(l.rank, 1);
}

TEST(LaunchEnv, OpenMpiWithoutPmixFallsBackToTheJobId) {
  Env env = kOrte;
  env.erase("PMIX_RANK");
  env.erase("PMIX_NAMESPACE");
  env.erase("PMIX_HOSTNAME");
  env.erase("PMIX_SERVER_URI3");
  mpidbg_launch_info l = Fill(env);
  EXPECT_STREQ(l.job_id, "1536098305");
  EXPECT_EQ(l.sources, uint32_t{MPIDBG_LAUNCH_FROM_OMPI});
  EXPECT_STREQ(l.pmi_interface, "");
}

TEST(LaunchEnv, SrunWithPmix) {
  Env env = Merge({{"PMIX_RANK", "0"}, {"PMIX_NAMESPACE", "slurm.pmix.123.4"}}, kSlurmStep);
  mpidbg_launch_info l = Fill(env);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_SLURM});
  EXPECT_STREQ(l.launcher_name, "slurm");
  EXPECT_EQ(l.rank, 0);
  EXPECT_EQ(l.world_size, 7);
  EXPECT_EQ(l.local_rank, 0);
  EXPECT_EQ(l.local_size, 1);  // node 3 of "2(x3),1"
  EXPECT_STREQ(l.job_id, "123.4");
  EXPECT_STREQ(l.host, "n03");
  EXPECT_STREQ(l.pmi_interface, "pmix");
  EXPECT_NE(l.sources & MPIDBG_LAUNCH_FROM_SLURM, 0u);
}

TEST(LaunchEnv, SrunWithPmi2) {
  Env env = Merge({{"PMI_FD", "5"}, {"PMI_RANK", "0"}, {"PMI_SIZE", "7"}}, kSlurmStep);
  mpidbg_launch_info l = Fill(env);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_SLURM});
  EXPECT_STREQ(l.pmi_interface, "pmi2");
}

TEST(LaunchEnv, SlurmBatchStepAloneIsASingleton) {
  // A program started directly in a batch script: SLURM_PROCID is there, no step id.
  mpidbg_launch_info l = Fill({{"SLURM_PROCID", "0"}, {"SLURM_JOB_ID", "123"}});
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_SINGLETON});
}

TEST(LaunchEnv, Prrte) {
  mpidbg_launch_info l =
      Fill({{"PMIX_RANK", "3"}, {"PMIX_NAMESPACE", "prterun-h-1@1"}, {"PMIX_HOSTNAME", "h"}});
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_PRRTE});
  EXPECT_STREQ(l.launcher_name, "prrte");
  EXPECT_EQ(l.rank, 3);
  EXPECT_EQ(l.world_size, -1);
  EXPECT_STREQ(l.job_id, "prterun-h-1@1");
  EXPECT_STREQ(l.pmi_interface, "pmix");
  EXPECT_EQ(l.sources, uint32_t{MPIDBG_LAUNCH_FROM_PMIX});
}

TEST(LaunchEnv, SomeOtherPmiServer) {
  mpidbg_launch_info l = Fill({{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}, {"PMI_PORT", "h:5"}});
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_UNKNOWN});
  EXPECT_STREQ(l.launcher_name, "unknown");
  EXPECT_EQ(l.rank, 2);
  EXPECT_EQ(l.world_size, 4);
  EXPECT_STREQ(l.pmi_interface, "pmi");
}

TEST(LaunchEnv, Singleton) {
  mpidbg_launch_info l = Fill({});
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_SINGLETON});
  EXPECT_STREQ(l.launcher_name, "singleton");
  EXPECT_EQ(l.sources, 0u);
  EXPECT_EQ(l.rank, 0);
  EXPECT_EQ(l.world_size, 1);
  EXPECT_EQ(l.local_rank, 0);
  EXPECT_EQ(l.local_size, 1);
  EXPECT_STREQ(l.job_id, "");
}

TEST(LaunchEnv, MalformedNumbersAreUnknown) {
  Env env = kHydra;
  env["PMI_RANK"] = "1x";
  env["PMI_SIZE"] = "99999999999";
  env["MPI_LOCALRANKID"] = "";
  mpidbg_launch_info l = Fill(env, kHydraProxy);
  EXPECT_EQ(l.rank, -1);
  EXPECT_EQ(l.world_size, -1);
  EXPECT_EQ(l.local_rank, -1);
}

TEST(LaunchEnv, CutParentCommandLine) {
  // The value of --control-port is missing its terminator: it is not used.
  std::string proxy = Cmdline({"hydra_pmi_proxy", "--control-port"}) + "vm:12";
  mpidbg_launch_info l = Fill(kHydra, proxy);
  EXPECT_EQ(l.launcher, uint32_t{MPIDBG_LAUNCHER_HYDRA});
  EXPECT_STREQ(l.job_id, "");
}

TEST(LaunchEnv, LongValuesAreCut) {
  Env env = kOrte;
  env["PMIX_NAMESPACE"] = std::string(500, 'n');
  mpidbg_launch_info l = Fill(env);
  EXPECT_EQ(strlen(l.job_id), sizeof l.job_id - 1);
}

TEST(SlurmTasksPerNode, Syntax) {
  EXPECT_EQ(TasksOnSlurmNode("4", 0), 4);
  EXPECT_EQ(TasksOnSlurmNode("4", 1), -1);
  EXPECT_EQ(TasksOnSlurmNode("2(x3),1", 0), 2);
  EXPECT_EQ(TasksOnSlurmNode("2(x3),1", 2), 2);
  EXPECT_EQ(TasksOnSlurmNode("2(x3),1", 3), 1);
  EXPECT_EQ(TasksOnSlurmNode("2(x3),1", 4), -1);
  EXPECT_EQ(TasksOnSlurmNode("1,16(x2)", 2), 16);
  EXPECT_EQ(TasksOnSlurmNode("2(3)", 0), -1);
  EXPECT_EQ(TasksOnSlurmNode("2(x3", 0), -1);
  EXPECT_EQ(TasksOnSlurmNode("", 0), -1);
  EXPECT_EQ(TasksOnSlurmNode(nullptr, 0), -1);
  EXPECT_EQ(TasksOnSlurmNode("2,", 1), -1);
  EXPECT_EQ(TasksOnSlurmNode("2", -1), -1);
}

}  // namespace
}  // namespace mpidbg::rt
