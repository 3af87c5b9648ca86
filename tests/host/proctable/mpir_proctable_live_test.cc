// mpir_proctable_live_test.cc — `mpidbg job --launcher PID` against real launchers: Open
// MPI's orterun lists its ranks in MPIR_proctable; MPICH's Hydra exports no table, and
// its ranks are found below it; a process that is neither ends in exit status 1 and a
// sentence suggesting --pids.
#include <sys/types.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

bool HasFlavour(const std::string& flavour) {
  for (const std::string& f : BuiltFlavours()) {
    if (f == flavour) return true;
  }
  return false;
}

pid_t ParentOf(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  // "pid (comm) state ppid ..." — comm may hold spaces, so start after the last ')'.
  size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 1));
  char state = 0;
  pid_t ppid = -1;
  rest >> state >> ppid;
  return ppid;
}

std::string CommOf(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

// The nearest ancestor of `pid` whose name starts with "mpiexec" or is "orterun".
pid_t LauncherOf(pid_t pid) {
  for (pid_t p = ParentOf(pid); p > 1; p = ParentOf(p)) {
    const std::string name = CommOf(p);
    if (name.rfind("mpiexec", 0) == 0 || name == "orterun") return p;
  }
  return -1;
}

TEST(LauncherLive, OpenMpiLauncherTableGivesTheRanks) {
  if (!HasFlavour("openmpi")) GTEST_SKIP() << "the openmpi runtime is not built";
  MpiJob job("openmpi", "ssend_cycle", 3);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const pid_t launcher = LauncherOf(job.pids().at(0));
  ASSERT_GT(launcher, 0) << "no mpiexec above rank pid " << job.pids().at(0);

  MpidbgResult r = Mpidbg({"job", "--launcher", std::to_string(launcher), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(r.json.is_object()) << r.out;
  const nlohmann::json& ranks = r.json.at("ranks");
  ASSERT_EQ(ranks.size(), 3u);
  for (const nlohmann::json& rank : ranks) {
    const pid_t pid = rank.at("pid").get<pid_t>();
    bool known = false;
    for (pid_t p : job.pids()) known = known || p == pid;
    EXPECT_TRUE(known) << "pid " << pid << " is not a rank of the job";
  }
  EXPECT_TRUE(r.json.at("deadlock").at("detected").get<bool>());
  EXPECT_EQ(r.json.at("deadlock").at("ranks").size(), 3u);

  // A wrapper named instead (here what started mpiexec: `mpidbg run`, as `timeout` or a
  // batch script's shell would be): the table of the launcher below it.
  const pid_t wrapper = ParentOf(launcher);
  ASSERT_GT(wrapper, 1);
  MpidbgResult w = Mpidbg({"job", "--launcher", std::to_string(wrapper), "--json"});
  ASSERT_EQ(w.exit_code, 0) << CommOf(wrapper) << ": " << w.err;
  EXPECT_NE(w.err.find("keeps no MPIR process table; launcher " + std::to_string(launcher) +
                       " below it"),
            std::string::npos) << w.err;
  ASSERT_TRUE(w.json.is_object()) << w.out;
  EXPECT_EQ(w.json.at("ranks").size(), 3u);
  EXPECT_EQ(w.json.at("deadlock").at("ranks").size(), 3u);
  job.Kill();
}

// Hydra keeps no table: its ranks are the processes below it that name a rank
// (PMI_RANK), and the whole job is read, with one line saying how they were found.
TEST(LauncherLive, HydraLauncherRanksAreFoundBelowIt) {
  if (!HasFlavour("mpich")) GTEST_SKIP() << "the mpich runtime is not built";
  MpiJob job("mpich", "ssend_cycle", 3);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const pid_t launcher = LauncherOf(job.pids().at(0));
  ASSERT_GT(launcher, 0) << "no mpiexec above rank pid " << job.pids().at(0);

  MpidbgResult r = Mpidbg({"job", "--launcher", std::to_string(launcher), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("keeps no MPIR process table: its ranks are the 3 processes below it"),
            std::string::npos) << r.err;
  ASSERT_TRUE(r.json.is_object()) << r.out;
  const nlohmann::json& ranks = r.json.at("ranks");
  ASSERT_EQ(ranks.size(), 3u);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    EXPECT_EQ(ranks[i].at("rank"), static_cast<int>(i));
    const pid_t pid = ranks[i].at("pid").get<pid_t>();
    bool known = false;
    for (pid_t p : job.pids()) known = known || p == pid;
    EXPECT_TRUE(known) << "pid " << pid << " is not a rank of the job";
  }
  EXPECT_EQ(r.json.at("complete"), true);
  EXPECT_TRUE(r.json.at("deadlock").at("detected").get<bool>());
  EXPECT_EQ(r.json.at("deadlock").at("ranks").size(), 3u);
  job.Kill();
}

// A "launcher" with no table and no rank below it: exit 1, both reasons, --pids.
TEST(LauncherLive, NoTableAndNoRanksBelowIsExitOneSuggestingPids) {
  MpidbgResult r = Mpidbg({"job", "--launcher", std::to_string(getpid())});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("MPIR_proctable"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no process below it on this host names an MPI rank"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--pids"), std::string::npos) << r.err;
}

TEST(LauncherLive, LauncherOptionNeedsAPid) {
  MpidbgResult r = Mpidbg({"job", "--launcher", "x"});
  EXPECT_EQ(r.exit_code, 2);
  r = Mpidbg({"job", "--launcher", "1", "--pids", "2"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace mpidbg::itest
