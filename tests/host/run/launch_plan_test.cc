// Tests of `mpidbg run`'s launch planning over a fake file system.
#include "host/run/launch_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace mpidbg::launch {
namespace {

// A fake machine: executables by command word, their MPI flavours, installed runtimes.
struct FakeMachine {
  std::map<std::string, std::string> on_path;  // word -> resolved path
  std::map<std::string, Flavour> flavours;     // resolved path -> flavour
  std::map<Flavour, std::string> runtimes;
  std::string ld_preload;
  std::map<std::string, std::string> environment;  // other variables

  LaunchProbe Probe() const {
    LaunchProbe p;
    p.resolve_executable = [this](const std::string& w) {
      auto it = on_path.find(w);
      return it == on_path.end() ? std::string() : it->second;
    };
    p.flavour_of_program = [this](const std::string& path) {
      auto it = flavours.find(path);
      return it == flavours.end() ? Flavour::kUnknown : it->second;
    };
    p.runtime_library = [this](Flavour f) {
      auto it = runtimes.find(f);
      return it == runtimes.end() ? std::string() : it->second;
    };
    p.getenv = [this](const std::string& name) {
      if (name == "LD_PRELOAD") return ld_preload;
      auto it = environment.find(name);
      return it == environment.end() ? std::string() : it->second;
    };
    return p;
  }
};

FakeMachine Machine() {
  FakeMachine m;
  m.on_path["mpiexec.mpich"] = "/usr/bin/mpiexec.hydra";
  m.on_path["mpiexec.openmpi"] = "/usr/bin/orterun";
  m.on_path["mpiexec"] = "/usr/bin/orterun";
  m.on_path["./app_m"] = "/w/app_m";
  m.on_path["./app_o"] = "/w/app_o";
  m.on_path["4"] = "";
  m.flavours["/w/app_m"] = Flavour::kMpich;
  m.flavours["/w/app_o"] = Flavour::kOpenMpi;
  m.runtimes[Flavour::kMpich] = "/lib/libmpidbg_rt_mpich.so";
  m.runtimes[Flavour::kOpenMpi] = "/lib/libmpidbg_rt_openmpi.so";
  return m;
}

TEST(LaunchPlan, HydraGetsGenvPreloadAndKeepsArguments) {
  FakeMachine m = Machine();
  LaunchRequest r;
  r.command = {"mpiexec.mpich", "-n", "4", "./app_m", "--steps", "3"};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.flavour, Flavour::kMpich);
  EXPECT_EQ(p.launcher, LauncherKind::kHydra);
  EXPECT_EQ(p.program, "/w/app_m");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"mpiexec.mpich", "-genv", "LD_PRELOAD",
                                              "/lib/libmpidbg_rt_mpich.so", "-n", "4", "./app_m",
                                              "--steps", "3"}));
  EXPECT_TRUE(p.env.empty());
}

TEST(LaunchPlan, OpenMpiGetsDashXAndChainsUserPreload) {
  FakeMachine m = Machine();
  m.ld_preload = "/opt/libuser.so";
  LaunchRequest r;
  r.command = {"mpiexec", "--allow-run-as-root", "-n", "4", "./app_o"};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.flavour, Flavour::kOpenMpi);
  EXPECT_EQ(p.argv[1], "-x");
  EXPECT_EQ(p.argv[2], "LD_PRELOAD=/lib/libmpidbg_rt_openmpi.so:/opt/libuser.so");
  EXPECT_EQ(p.argv.back(), "./app_o");
}

TEST(LaunchPlan, ProgramFlavourWinsOverLauncherGuess) {
  // An MPICH program started by Open MPI's launcher is a user error we do not fix,
  // but the runtime must match the program's library, not the launcher's.
  FakeMachine m = Machine();
  LaunchRequest r;
  r.command = {"mpiexec.openmpi", "-n", "2", "./app_m"};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.flavour, Flavour::kMpich);
  EXPECT_EQ(p.runtime, "/lib/libmpidbg_rt_mpich.so");
}

TEST(LaunchPlan, SingletonGetsEnvironmentPreload) {
  FakeMachine m = Machine();
  LaunchRequest r;
  r.command = {"./app_o"};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.launcher, LauncherKind::kDirect);
  ASSERT_EQ(p.env.size(), 1u);
  EXPECT_EQ(p.env[0].first, "LD_PRELOAD");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"./app_o"}));
}

TEST(LaunchPlan, ForcedFlavourAndErrors) {
  FakeMachine m = Machine();
  LaunchRequest r;
  r.command = {"nosuchlauncher", "-n", "2"};
  EXPECT_FALSE(PlanLaunch(r, m.Probe()).ok);

  m.on_path["./script"] = "/w/script";  // not linked against MPI, direct start
  r.command = {"./script"};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("--flavour"), std::string::npos);
  r.forced = Flavour::kOpenMpi;
  EXPECT_TRUE(PlanLaunch(r, m.Probe()).ok);

  m.runtimes.erase(Flavour::kOpenMpi);
  p = PlanLaunch(r, m.Probe());
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("libmpidbg_rt_openmpi.so"), std::string::npos);
}

TEST(LaunchPlan, FlavourFromNeededLibraries) {
  EXPECT_EQ(FlavourFromNeeded({"libmpich.so.12", "libc.so.6"}), Flavour::kMpich);
  EXPECT_EQ(FlavourFromNeeded({"libmpi.so.40", "libc.so.6"}), Flavour::kOpenMpi);
  EXPECT_EQ(FlavourFromNeeded({"libc.so.6"}), Flavour::kUnknown);
  EXPECT_EQ(LauncherKindOf("/usr/bin/mpiexec.hydra"), LauncherKind::kHydra);
  EXPECT_EQ(LauncherKindOf("/usr/bin/orterun"), LauncherKind::kOpenMpi);
  EXPECT_EQ(LauncherKindOf("/usr/bin/srun"), LauncherKind::kDirect);
}

// `mpidbg run --monitor --profile`: the variables reach every rank the way LD_PRELOAD
// does, and Open MPI's own monitoring is switched on unless the user chose a level.
LaunchRequest MonitoredRequest(std::vector<std::string> command) {
  LaunchRequest r;
  r.command = std::move(command);
  r.rank_env = {{"MPIDBG_MONITOR", "1"}, {"MPIDBG_PROFILE", "250"}};
  r.monitor = true;
  return r;
}

TEST(LaunchPlan, MonitorAndProfileWithHydra) {
  FakeMachine m = Machine();
  LaunchPlan p = PlanLaunch(MonitoredRequest({"mpiexec.mpich", "-n", "4", "./app_m"}), m.Probe());
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.argv, (std::vector<std::string>{"mpiexec.mpich", "-genv", "LD_PRELOAD",
                                              "/lib/libmpidbg_rt_mpich.so", "-genv",
                                              "MPIDBG_MONITOR", "1", "-genv", "MPIDBG_PROFILE",
                                              "250", "-n", "4", "./app_m"}));
  EXPECT_TRUE(p.env.empty());
}

TEST(LaunchPlan, MonitorWithOpenMpiEnablesItsMonitoring) {
  FakeMachine m = Machine();
  LaunchPlan p = PlanLaunch(MonitoredRequest({"mpiexec", "-n", "4", "./app_o"}), m.Probe());
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.argv, (std::vector<std::string>{"mpiexec", "-x",
                                              "LD_PRELOAD=/lib/libmpidbg_rt_openmpi.so", "-x",
                                              "MPIDBG_MONITOR=1", "-x", "MPIDBG_PROFILE=250",
                                              "--mca", "pml_monitoring_enable", "1", "-n", "4",
                                              "./app_o"}));
  // A file name for the monitoring file passes as given.
  LaunchRequest r = MonitoredRequest({"mpiexec", "-n", "2", "./app_o"});
  r.rank_env = {{"MPIDBG_MONITOR", "out/m.json"}};
  p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.argv[4], "MPIDBG_MONITOR=out/m.json");
}

TEST(LaunchPlan, UsersOwnMonitoringLevelIsKept) {
  FakeMachine m = Machine();
  LaunchPlan p = PlanLaunch(
      MonitoredRequest({"mpiexec", "--mca", "pml_monitoring_enable", "2", "-n", "2", "./app_o"}),
      m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "pml_monitoring_enable"), 1);
  EXPECT_EQ(p.argv[p.argv.size() - 5], "pml_monitoring_enable");
  EXPECT_EQ(p.argv[p.argv.size() - 4], "2");

  m.environment["OMPI_MCA_pml_monitoring_enable"] = "2";
  p = PlanLaunch(MonitoredRequest({"mpiexec", "-n", "2", "./app_o"}), m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "pml_monitoring_enable"), 0);
}

TEST(LaunchPlan, ProfileAloneAddsNoMcaFlag) {
  FakeMachine m = Machine();
  LaunchRequest r;
  r.command = {"mpiexec", "-n", "2", "./app_o"};
  r.rank_env = {{"MPIDBG_PROFILE", "1"}};
  LaunchPlan p = PlanLaunch(r, m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(std::count(p.argv.begin(), p.argv.end(), "--mca"), 0);
  EXPECT_EQ(p.argv[4], "MPIDBG_PROFILE=1");
}

TEST(LaunchPlan, MonitoredSingletonGetsEnvironment) {
  FakeMachine m = Machine();
  LaunchPlan p = PlanLaunch(MonitoredRequest({"./app_o"}), m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.argv, (std::vector<std::string>{"./app_o"}));
  using Env = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(p.env, (Env{{"LD_PRELOAD", "/lib/libmpidbg_rt_openmpi.so"},
                        {"MPIDBG_MONITOR", "1"},
                        {"MPIDBG_PROFILE", "250"},
                        {"OMPI_MCA_pml_monitoring_enable", "1"}}));
  // An MPICH singleton has no such component.
  p = PlanLaunch(MonitoredRequest({"./app_m"}), m.Probe());
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.env.size(), 3u);
}

}  // namespace
}  // namespace mpidbg::launch
