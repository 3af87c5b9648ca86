// monitor_plugin_test.cc — the monitoring model read through a DLL's mpidbg_monitor_*
// functions (the fake DLL's fixed values) from a live child, and the refusals: a DLL
// without the functions, a process where monitoring never started.
#include <stdlib.h>

#include <gtest/gtest.h>

#include "host/matrix/monitor_json.h"
#include "host/matrix/monitor_plugin.h"
#include "child_target.h"

namespace mpidbg::monitor {
namespace {

using MonitorChild = test::ChildTarget;

TEST_F(MonitorChild, ReadsTheBlockIntoTheModel) {
  auto job = ReadJobMonitor({Spec(FAKE_DLL_PATH)}, MPIDBG_MONITOR_ACCUMULATED);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->source, "live");
  EXPECT_EQ(job->which, "accumulated");
  EXPECT_EQ(job->world_size, 2);
  ASSERT_EQ(job->ranks.size(), 2u);
  const RankMonitor& r = job->ranks[0];
  EXPECT_TRUE(r.present);
  EXPECT_FALSE(job->ranks[1].present);
  EXPECT_EQ(r.host, "fakehost");
  EXPECT_TRUE(r.active);
  EXPECT_EQ(r.starts, 1u);
  ASSERT_EQ(r.peers.size(), 1u);  // peer 0 has only zeros and is left out
  EXPECT_EQ(r.peers.at(1).sent_messages, 3u);
  EXPECT_EQ(r.peers.at(1).sent_bytes, 24u);
  EXPECT_EQ(r.peers.at(1).coll_bytes, 16u);
  EXPECT_EQ(r.peers.at(1).histogram[4], 3u);
  EXPECT_EQ(r.collectives[0].operations, 1u);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].name, "fake.dat");
  EXPECT_EQ(r.files[0].write_bytes, 512u);
  EXPECT_EQ(r.mpit_state, "unavailable");
  EXPECT_EQ(r.mpit_reason, "no pml_monitoring variables");
  // The same document shape as from a file.
  nlohmann::json doc = MonitorToJson(job.value());
  EXPECT_EQ(doc["source"], "live");
  EXPECT_EQ(doc["p2p_messages"], nlohmann::json::parse("[[0,3],[0,0]]"));
  EXPECT_EQ(doc["mpi_t"]["state"], "unavailable");
}

TEST_F(MonitorChild, CurrentCountersOnRequest) {
  auto job = ReadJobMonitor({Spec(FAKE_DLL_PATH)}, MPIDBG_MONITOR_CURRENT);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->which, "current");
  EXPECT_EQ(job->ranks[0].peers.at(1).sent_messages, 2u);
}

TEST_F(MonitorChild, ForeignDllDoesNotReportMonitoring) {
  auto job = ReadJobMonitor({Spec(FAKE_FOREIGN_DLL_PATH)}, MPIDBG_MONITOR_ACCUMULATED);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().exit_code(), 1);
  EXPECT_NE(job.status().message().find("does not report monitoring"), std::string::npos)
      << job.status().message();
}

TEST_F(MonitorChild, MonitoringNeverStarted) {
  setenv("MPIDBG_FAKE_DLL_MODE", "nomonitor", 1);
  auto job = ReadJobMonitor({Spec(FAKE_DLL_PATH)}, MPIDBG_MONITOR_ACCUMULATED);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().exit_code(), 1);
  EXPECT_NE(job.status().message().find("monitoring never started"), std::string::npos)
      << job.status().message();
}

TEST_F(MonitorChild, ProcessWithoutTheRuntimeIsRefused) {
  // No --plugin and no runtime in the child: no MPI debugging support at all.
  auto job = ReadJobMonitor({Spec("")}, MPIDBG_MONITOR_ACCUMULATED);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().exit_code(), 1);
}

}  // namespace
}  // namespace mpidbg::monitor
