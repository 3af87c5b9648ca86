// End-to-end monitoring and MPI-state sampling: the monitor_pattern application (4 ranks,
// known traffic, then rank 0 blocked in MPI_Recv) under `mpidbg run --monitor --profile`,
// read live and from gcore cores with `mpidbg matrix` / `mpidbg profile`; and
// monitor_finish (the same traffic, then MPI_Finalize), whose job files the runtime
// writes and `mpidbg matrix FILE` / `mpidbg profile FILE` read. The expected numbers
// come from the application's comment, not from anything mpidbg computes.
#include <dirent.h>
#include <signal.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "mpi_job.h"
#include "process_util.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

class MonitoringView : public ::testing::TestWithParam<std::string> {};

constexpr int kRanks = 4;
int RightOf(int r) { return (r + 1) % kRanks; }

// One matrix of a mpidbg.matrix/1 document: rows sending world rank, columns receiving.
const json& MatrixOf(const json& doc, const std::string& name) {
  static const json kNull;
  if (doc.contains("matrices") && doc["matrices"].contains(name)) return doc["matrices"][name];
  return doc.contains(name) ? doc[name] : kNull;
}

uint64_t Cell(const json& doc, const std::string& name, int from, int to) {
  const json& m = MatrixOf(doc, name);
  if (!m.is_array() || from >= static_cast<int>(m.size()) || !m[from].is_array() ||
      to >= static_cast<int>(m[from].size())) {
    ADD_FAILURE() << "no cell " << name << "[" << from << "][" << to << "] in " << doc.dump();
    return 0;
  }
  return m[from][to].get<uint64_t>();
}

// The traffic monitor_pattern makes, as every reader must report it.
void CheckMatrix(const json& doc) {
  ASSERT_EQ(doc.value("schema", ""), "mpidbg.matrix/1") << doc.dump();
  ASSERT_EQ(doc.value("world_size", 0), kRanks);
  for (int from = 0; from < kRanks; ++from) {
    SCOPED_TRACE("sender " + std::to_string(from));
    for (int to = 0; to < kRanks; ++to) {
      const bool right = to == RightOf(from);
      // 3 x 8 bytes (Sendrecv) + 1024 bytes (Isend) to the right neighbour only.
      EXPECT_EQ(Cell(doc, "p2p_messages", from, to), right ? 4u : 0u) << "to " << to;
      EXPECT_EQ(Cell(doc, "p2p_bytes", from, to), right ? 1048u : 0u) << "to " << to;
      // MPI_Put of 16 bytes into the right neighbour's window.
      EXPECT_EQ(Cell(doc, "put_messages", from, to), right ? 1u : 0u) << "to " << to;
      EXPECT_EQ(Cell(doc, "put_bytes", from, to), right ? 16u : 0u) << "to " << to;
      // Bcast of 400 bytes from rank 0 and Allreduce of 80 bytes, as direct messages.
      const uint64_t coll = from == to ? 0 : (from == 0 ? 480 : 80);
      EXPECT_EQ(Cell(doc, "coll_bytes", from, to), coll) << "to " << to;
    }
  }
}

// Blocked samples of `call` in one rank's entry.
uint64_t BlockedIn(const json& rank, const std::string& call) {
  for (const json& f : rank["functions"]) {
    if (f.value("call", "") == call) return f.value("blocked", uint64_t{0});
  }
  return 0;
}

// What sampling must show. Hung job: rank 0 waits in MPI_Recv (at least 2 s at 200 Hz
// before the read). Finished job: rank 0 was outside MPI for 0.3 s while the others
// waited for it in MPI_Barrier (about 60 samples each at 200 Hz; 20 leaves room for a
// loaded machine).
void CheckProfile(const json& doc, bool hung) {
  ASSERT_TRUE(doc.contains("ranks") && doc["ranks"].is_array()) << doc.dump();
  ASSERT_EQ(doc["ranks"].size(), static_cast<size_t>(kRanks)) << doc.dump();
  for (const json& rank : doc["ranks"]) {
    const int r = rank.value("rank", -1);
    SCOPED_TRACE("rank " + std::to_string(r));
    const json& samples = rank["samples"];
    if (hung) {
      if (r == 0) {
        EXPECT_GE(BlockedIn(rank, "MPI_Recv"), 20u) << rank.dump();
      }
    } else if (r == 0) {
      EXPECT_GE(samples.value("not_in_mpi", uint64_t{0}), 20u) << rank.dump();
    } else {
      EXPECT_GE(BlockedIn(rank, "MPI_Barrier"), 20u) << rank.dump();
    }
  }
}

TEST_P(MonitoringView, LiveAndFromCores) {
  MpiJob job(GetParam(), "monitor_pattern", kRanks);
  job.set_run_options({"--monitor", "--profile=200"});
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  // Let rank 0 sit in MPI_Recv for a while: about 400 samples at 200 Hz.
  std::this_thread::sleep_for(std::chrono::seconds(2));

  MpidbgResult live = Mpidbg({"matrix", "--pids", job.PidList(), "--json"});
  ASSERT_EQ(live.exit_code, 0) << live.err << live.out;
  CheckMatrix(live.json);
  MpidbgResult text = Mpidbg({"matrix", "--pids", job.PidList(), "--metric", "bytes"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("1048"), std::string::npos) << text.out;

  MpidbgResult prof = Mpidbg({"profile", "--pids", job.PidList(), "--json"});
  ASSERT_EQ(prof.exit_code, 0) << prof.err << prof.out;
  CheckProfile(prof.json, /*hung=*/true);
  {
    // A process that is no MPI rank among the pids (the launcher, found by `pgrep -f`):
    // left out as `job` and `leaks` leave it out, the counts the same.
    ScopedProcess stray({"/bin/sleep", "60"}, ::testing::TempDir() + "monitoring_view_stray.log");
    ASSERT_GT(stray.pid(), 0);
    const std::string pids = job.PidList() + "," + std::to_string(stray.pid());
    for (const char* command : {"matrix", "profile"}) {
      MpidbgResult with_stray = Mpidbg({command, "--pids", pids, "--json"});
      ASSERT_EQ(with_stray.exit_code, 0) << command << ": " << with_stray.err;
      EXPECT_NE(with_stray.err.find("(sleep) is not an MPI process: it loads no MPI library"),
                std::string::npos) << command << ": " << with_stray.err;
      EXPECT_NE(with_stray.err.find("; left out"), std::string::npos) << with_stray.err;
      EXPECT_EQ(with_stray.err.find("looked for"), std::string::npos) << with_stray.err;
      if (std::string(command) == "matrix") CheckMatrix(with_stray.json);
    }
  }

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), static_cast<size_t>(kRanks)) << why;
  std::vector<std::string> args = {"matrix", "--cores"};
  args.insert(args.end(), cores.begin(), cores.end());
  args.push_back("--json");
  MpidbgResult from_cores = Mpidbg(args);
  ASSERT_EQ(from_cores.exit_code, 0) << from_cores.err << from_cores.out;
  CheckMatrix(from_cores.json);
  // Reading many cores draws a progress line when asked (no terminal here: none above).
  EXPECT_EQ(from_cores.err.find("reading cores"), std::string::npos) << from_cores.err;
  args[0] = "profile";
  setenv("MPIDBG_PROGRESS", "1", 1);
  MpidbgResult prof_cores = Mpidbg(args);
  unsetenv("MPIDBG_PROGRESS");
  EXPECT_NE(prof_cores.err.find("reading cores 0/"), std::string::npos) << prof_cores.err;
  ASSERT_EQ(prof_cores.exit_code, 0) << prof_cores.err << prof_cores.out;
  CheckProfile(prof_cores.json, /*hung=*/true);
}

// Files in `dir` whose names start with `prefix`.
std::vector<std::string> FilesStartingWith(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind(prefix, 0) == 0) out.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  return out;
}

TEST_P(MonitoringView, JobFilesAtFinalize) {
  char tmpl[] = "/tmp/mpidbg-monitor-itest-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  // The marker finds every process of the job afterwards, to kill any left behind.
  const std::string marker = "MPIDBG_ITEST_JOB=" + dir;
  std::vector<std::string> argv = {"timeout", "-s", "KILL", "120", "env", "-C", dir, marker,
                                   MpidbgExe(), "run", "--monitor", "--profile=200", "--"};
  if (GetParam() == "mpich") {
    argv.insert(argv.end(), {"mpiexec.mpich", "-n", "4"});
  } else {
    argv.insert(argv.end(), {"mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", "4"});
  }
  argv.push_back(TestAppPath(GetParam(), "monitor_finish"));
  const CommandResult run = RunCommand(argv, 150);
  for (pid_t left : FindMarkedProcesses(marker, "")) kill(left, SIGKILL);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;

  const std::vector<std::string> monitor = FilesStartingWith(dir, "mpidbg-monitor.");
  const std::vector<std::string> profile = FilesStartingWith(dir, "mpidbg-profile.");
  ASSERT_EQ(monitor.size(), 1u) << "one monitoring file per job in " << dir;
  ASSERT_EQ(profile.size(), 1u) << "one profile file per job in " << dir;

  MpidbgResult m = Mpidbg({"matrix", monitor[0], "--json"});
  ASSERT_EQ(m.exit_code, 0) << m.err << m.out;
  CheckMatrix(m.json);
  MpidbgResult svg = Mpidbg({"matrix", monitor[0], "--svg", dir + "/heat.svg"});
  EXPECT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_EQ(access((dir + "/heat.svg").c_str(), R_OK), 0);

  MpidbgResult p = Mpidbg({"profile", profile[0], "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err << p.out;
  CheckProfile(p.json, /*hung=*/false);

  RunCommand({"rm", "-rf", dir}, 30);
}

INSTANTIATE_TEST_SUITE_P(Flavours, MonitoringView, ::testing::ValuesIn(BuiltFlavours()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
