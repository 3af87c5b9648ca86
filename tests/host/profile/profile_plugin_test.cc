// profile_plugin_test.cc — the profile read through a DLL's mpidbg_profile_* functions
// from a live child; the call site's address is named with the child's own symbols.
#include <stdlib.h>

#include <gtest/gtest.h>

#include "host/profile/profile_json.h"
#include "host/profile/profile_plugin.h"
#include "child_target.h"

namespace mpidbg::profile {
namespace {

using ProfileChild = test::ChildTarget;

TEST_F(ProfileChild, ReadsSamplesAndNamesTheSite) {
  auto job = ReadJobProfile({Spec(FAKE_DLL_PATH)});
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->source, "live");
  EXPECT_EQ(job->world_size, 2);  // the process summary's
  EXPECT_EQ(job->period_ns, 10000000);
  EXPECT_EQ(job->clock, "wall");
  const RankProfile& r = job->ranks[0];
  ASSERT_TRUE(r.present);
  EXPECT_FALSE(job->ranks[1].present);
  EXPECT_EQ(r.samples.not_in_mpi, 5u);
  EXPECT_EQ(r.samples.in_mpi, 2u);
  EXPECT_EQ(r.samples.blocked, 3u);
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_EQ(r.functions[0].call, "MPI_Recv");
  ASSERT_EQ(r.sites.size(), 1u);
  const SiteSamples& s = r.sites[0];
  EXPECT_EQ(s.symbol, std::optional<std::string>("mpidbg_test_function+0x0")) << s.site;
  EXPECT_NE(s.module.find("mpidbg_host_monitor_tests"), std::string::npos) << s.module;
  // file:line where the test's DWARF covers the call (the site is taken as a return
  // address, looked up one byte before), the module and offset otherwise.
  EXPECT_TRUE(s.site.rfind("mpidbg_host_monitor_tests+0x", 0) == 0 ||
              s.site.find(".cc:") != std::string::npos || s.site.find(".h:") != std::string::npos)
      << s.site;
  EXPECT_EQ(s.call, "MPI_Recv");
  EXPECT_EQ(job->samples.blocked, 3u);  // merged
  EXPECT_EQ(job->sites.size(), 1u);
  nlohmann::json doc = ProfileToJson(job.value());
  EXPECT_EQ(doc["source"], "live");
  EXPECT_EQ(doc["job"]["sites"][0]["symbol"], "mpidbg_test_function+0x0");
}

TEST_F(ProfileChild, SamplingNeverRan) {
  setenv("MPIDBG_FAKE_DLL_MODE", "nomonitor", 1);
  auto job = ReadJobProfile({Spec(FAKE_DLL_PATH)});
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().exit_code(), 1);
  EXPECT_NE(job.status().message().find("sampling never ran"), std::string::npos)
      << job.status().message();
}

TEST_F(ProfileChild, ForeignDllDoesNotReportSamples) {
  auto job = ReadJobProfile({Spec(FAKE_FOREIGN_DLL_PATH)});
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().exit_code(), 1);
  EXPECT_NE(job.status().message().find("does not report MPI-state samples"), std::string::npos)
      << job.status().message();
}

TEST(ProfileSiteName, BaseNameAndOffset) {
  EXPECT_EQ(SiteName("/path/to/ring", 0x11a9), "ring+0x11a9");
  EXPECT_EQ(SiteName("ring", 0), "ring+0x0");
}

}  // namespace
}  // namespace mpidbg::profile

namespace mpidbg::profile {
namespace {

TEST(ProfileSiteName, SourceLineWhereDwarfCoversIt) {
  EXPECT_EQ(SourceSiteName("/src/ring.c", 12), "ring.c:12");
  EXPECT_EQ(SourceSiteName("ring.c", 3), "ring.c:3");
}

}  // namespace
}  // namespace mpidbg::profile
