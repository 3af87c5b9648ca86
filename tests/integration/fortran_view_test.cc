// End-to-end for Fortran programs: the ssend cycle of ssend_cycle.c written in Fortran
// (testapps/fortran_ssend_cycle.F90), with `include 'mpif.h'` and with `use mpi_f08`,
// runs under `mpidbg run` on each MPI flavour whose Fortran compiler wrapper is
// installed. `mpidbg job` and `mpidbg snapshot` must show what they show for the C
// program — every rank blocked in MPI_Ssend to the next, a deadlock of all four — live
// and from core files. Before the runtime wrapped the Fortran entry points, Open MPI
// (every binding) and MPICH's mpi_f08 (MPI_Init unseen) showed no MPI state at all.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "job_views.h"
#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

std::vector<std::string> FortranCases() {
  std::vector<std::string> out;
  std::stringstream ss(MPIDBG_FORTRAN_FLAVOURS);
  for (std::string f; std::getline(ss, f, ',');) {
    if (f.empty()) continue;
    out.push_back(f + "_mpifh");
    out.push_back(f + "_f08");
  }
  return out;
}

json Snapshot(const std::string& flag, const std::string& target) {
  MpidbgResult r = Mpidbg({"snapshot", flag, target, "--json"});
  EXPECT_EQ(r.exit_code, 0) << flag << " " << target << ": " << r.err;
  return r.json;
}

bool FourRankDeadlock(const json& job) {
  return job.is_object() && job["deadlock"]["detected"] == true &&
         job["deadlock"]["ranks"] == json::array({0, 1, 2, 3});
}

// The job and per-rank views of one source (live or core).
void CheckCycle(const std::string& source, const json& job, const std::vector<json>& snapshots) {
  SCOPED_TRACE(source + " view:\n" + job.dump(1));
  EXPECT_TRUE(FourRankDeadlock(job));
  ASSERT_EQ(job["ranks"].size(), 4u);
  for (const json& entry : job["ranks"]) {
    const int r = entry["rank"].get<int>();
    EXPECT_EQ(entry["state"], "blocked") << "rank " << r;
    EXPECT_EQ(entry["call"], "MPI_Ssend") << "rank " << r;
    EXPECT_EQ(entry["peer"], (r + 1) % 4) << "rank " << r;
    EXPECT_EQ(entry["tag"], 42) << "rank " << r;
    EXPECT_EQ(entry["comm_name"], "MPI_COMM_WORLD") << "rank " << r;
  }
  ASSERT_EQ(snapshots.size(), 4u);
  for (const json& s : snapshots) {
    json calling;
    for (const json& t : s["threads"])
      if (t["call"].is_string()) calling = t;
    ASSERT_TRUE(calling.is_object()) << s.dump(1);
    EXPECT_EQ(calling["call"], "MPI_Ssend");
    EXPECT_EQ(calling["operation"]["tag"], 42);
    EXPECT_EQ(calling["operation"]["count"], 16);
    EXPECT_EQ(calling["operation"]["bytes"], 64);  // 16 INTEGERs
    EXPECT_EQ(calling["operation"]["mode"], "synchronous");
  }
}

class FortranView : public ::testing::TestWithParam<std::string> {};

TEST_P(FortranView, CycleOfSynchronousSends) {
  const std::string param = GetParam();
  const std::string flavour = param.substr(0, param.rfind('_'));
  const std::string app = "fortran_ssend_cycle" + param.substr(param.rfind('_'));
  MpiJob job(flavour, app, 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;

  const json live = JobJsonWhen(job.PidList(), FourRankDeadlock);
  std::vector<json> live_snapshots;
  for (pid_t p : job.pids()) live_snapshots.push_back(Snapshot("--pid", std::to_string(p)));
  CheckCycle("live", live, live_snapshots);

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  std::vector<std::string> core_args = {"--cores"};
  core_args.insert(core_args.end(), cores.begin(), cores.end());
  std::vector<json> core_snapshots;
  for (const std::string& c : cores) core_snapshots.push_back(Snapshot("--core", c));
  CheckCycle("core", JobJson(core_args), core_snapshots);
}

INSTANTIATE_TEST_SUITE_P(Flavours, FortranView, ::testing::ValuesIn(FortranCases()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
