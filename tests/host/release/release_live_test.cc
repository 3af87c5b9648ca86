// release_live_test.cc — `mpidbg release` against real ranks of each MPI whose every
// application thread is blocked in MPI_Recv (freed_then_blocked): the orphans the runtime
// kept are released by its clock thread on the request written into its memory, with
// nothing called in the process, and the ranks are unharmed (still blocked, still
// readable). A second request finds nothing left; a process without the runtime is
// refused with exit status 1.
#include <signal.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

class ReleaseLive : public ::testing::TestWithParam<std::string> {};

// The orphan counters `mpidbg snapshot` reports for `pid`.
json Orphans(pid_t pid) {
  MpidbgResult r = Mpidbg({"snapshot", "--pid", std::to_string(pid), "--json"});
  if (!r.json.is_object()) return json();
  const json& orphans = r.json["metadata"]["orphans"];
  if (!orphans.is_object()) return json();
  return json{{"kept", orphans.value("count", -1)}, {"released", orphans.value("releases", -1)}};
}

TEST_P(ReleaseLive, RanksBlockedInMpiReleaseTheirOrphans) {
  const std::string flavour = GetParam();
  bool built = false;
  for (const std::string& f : BuiltFlavours()) built = built || f == flavour;
  if (!built) GTEST_SKIP() << "the " << flavour << " runtime is not built";
  MpiJob job(flavour, "freed_then_blocked", 2);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const pid_t pid = job.pids()[0];

  const json before = Orphans(pid);
  ASSERT_TRUE(before.is_object()) << "snapshot unreadable";
  ASSERT_GE(before["kept"].get<int>(), 2) << before.dump();

  MpidbgResult r = Mpidbg({"release", "--pid", std::to_string(pid), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(r.json.is_object()) << r.out;
  const json& p = r.json["processes"][0];
  EXPECT_EQ(p["state"], "released") << r.json.dump();
  EXPECT_EQ(p["released"], before["kept"]) << r.json.dump();

  const json after = Orphans(pid);
  EXPECT_EQ(after["kept"], 0) << after.dump();
  EXPECT_EQ(after["released"].get<int>(), before["released"].get<int>() + before["kept"].get<int>());

  // The rank still sits in MPI_Recv, unharmed.
  MpidbgResult threads = Mpidbg({"threads", "--pid", std::to_string(pid), "--json"});
  ASSERT_EQ(threads.exit_code, 0) << threads.err;
  EXPECT_NE(threads.out.find("MPI_Recv"), std::string::npos) << threads.out;
  EXPECT_EQ(kill(pid, 0), 0);

  // Asked again: nothing left to release.
  MpidbgResult again = Mpidbg({"release", "--pid", std::to_string(pid)});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("released 0 orphan(s)"), std::string::npos) << again.out;
}

TEST(ReleaseWithoutRuntime, IsNoSupport) {
  // This test program carries no mpidbg runtime.
  MpidbgResult r = Mpidbg({"release", "--pid", std::to_string(getpid())});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("no mpidbg runtime"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Flavours, ReleaseLive, ::testing::Values("mpich", "openmpi"));

}  // namespace
}  // namespace mpidbg::itest
