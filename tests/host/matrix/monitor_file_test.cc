// monitor_file_test.cc — reading "mpidbg.monitor/1": a hand-written 4-rank file with
// known values, and bad files that must end in one clear sentence (exit status 3).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "host/matrix/monitor_file.h"

namespace mpidbg::monitor {
namespace {

using nlohmann::json;

const std::string kGood = std::string(MPIDBG_TEST_DATA) + "/monitor_4ranks.json";

json GoodDoc() {
  std::ifstream in(kGood);
  return json::parse(in);
}

TEST(MonitorFile, ReadsEveryPart) {
  auto job = LoadMonitorFile(kGood);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->source, "file");
  EXPECT_EQ(job->which, "accumulated");
  EXPECT_EQ(job->id, "4711.0");
  EXPECT_EQ(job->flavour, "openmpi");
  EXPECT_EQ(job->world_size, 4);
  ASSERT_EQ(job->ranks.size(), 4u);
  const RankMonitor& r0 = job->ranks[0];
  EXPECT_TRUE(r0.present);
  EXPECT_EQ(r0.pid, 100);
  EXPECT_EQ(r0.host, "node0");
  EXPECT_EQ(r0.starts, 1u);
  EXPECT_EQ(r0.stops, 1u);
  ASSERT_EQ(r0.peers.size(), 3u);  // 1 and 3 (p2p), 2 (collective and rma)
  EXPECT_EQ(r0.peers.at(1).sent_messages, 10u);
  EXPECT_EQ(r0.peers.at(1).sent_bytes, 80u);
  EXPECT_EQ(r0.peers.at(1).received_messages, 10u);
  EXPECT_EQ(r0.peers.at(1).histogram[4], 10u);   // "8": [8, 16)
  EXPECT_EQ(r0.peers.at(3).histogram[0], 1u);    // "0": empty messages
  EXPECT_EQ(r0.peers.at(3).histogram[12], 1u);   // "2048": [2048, 4096)
  EXPECT_EQ(r0.peers.at(1).coll_messages, 2u);
  EXPECT_EQ(r0.peers.at(2).coll_bytes, 64u);
  EXPECT_EQ(r0.peers.at(2).put_messages, 1u);
  EXPECT_EQ(r0.peers.at(2).acc_bytes, 32u);
  EXPECT_EQ(r0.collectives[0].operations, 1u);
  EXPECT_EQ(r0.collectives[2].bytes_received, 48u);
  EXPECT_EQ(r0.collectives[3].operations, 3u);
  ASSERT_EQ(r0.files.size(), 1u);
  EXPECT_EQ(r0.files[0].name, "out.dat");
  EXPECT_EQ(r0.files[0].write_bytes, 4096u);
  EXPECT_EQ(r0.mpit_state, "read");
  EXPECT_EQ(r0.mpit_peers.at(1).pml_messages, 14u);
  EXPECT_EQ(r0.mpit_collectives[2].bytes, 48u);
  // Optional keys missing: defaults.
  const RankMonitor& r2 = job->ranks[2];
  EXPECT_TRUE(r2.present);
  EXPECT_FALSE(r2.active);
  EXPECT_EQ(r2.collectives[3].operations, 0u);
  EXPECT_EQ(job->ranks[3].peers.at(0).histogram[21], 7u);  // "1048576" = 2^20
}

TEST(MonitorFile, MissingRanksHaveNoData) {
  json doc = GoodDoc();
  doc["ranks"].erase(1);
  auto job = MonitorFromJson(doc, "f.json");
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_FALSE(job->ranks[1].present);
  EXPECT_EQ(job->ranks[1].rank, 1);
  EXPECT_TRUE(job->ranks[2].present);
}

// One bad change to the good document, and the sentence it must give.
struct BadCase {
  const char* name;
  std::function<void(json&)> spoil;
  const char* expected;
};

TEST(MonitorFile, BadContentIsOneSentence) {
  const BadCase cases[] = {
      {"string counter", [](json& d) { d["ranks"][0]["p2p"][0]["sent_bytes"] = "80"; },
       "f.json: ranks[0].p2p[0].sent_bytes is a string, not an unsigned integer"},
      {"negative counter", [](json& d) { d["ranks"][1]["starts"] = -1; },
       "f.json: ranks[1].starts is a negative number, not an unsigned integer"},
      {"no schema", [](json& d) { d.erase("schema"); }, "f.json: schema is missing"},
      {"other schema", [](json& d) { d["schema"] = "mpidbg.profile/1"; },
       "f.json is a \"mpidbg.profile/1\" document, not mpidbg.monitor/1"},
      {"no world size", [](json& d) { d["job"].erase("world_size"); },
       "f.json: job.world_size is missing"},
      {"huge world size", [](json& d) { d["job"]["world_size"] = 1 << 30; },
       "f.json: job.world_size is 1073741824, not between 1 and 65536"},
      {"rank out of range", [](json& d) { d["ranks"][3]["rank"] = 4; },
       "f.json: ranks[3].rank is 4, not a rank of the 4-rank job"},
      {"peer out of range", [](json& d) { d["ranks"][0]["rma"][0]["peer"] = 9; },
       "f.json: ranks[0].rma[0].peer is 9, not a rank of the 4-rank job"},
      {"repeated rank", [](json& d) { d["ranks"][1]["rank"] = 0; },
       "f.json: ranks[1] repeats rank 0"},
      {"bad bucket", [](json& d) { d["ranks"][0]["p2p"][0]["histogram"]["12"] = 1; },
       "f.json: ranks[0].p2p[0].histogram.\"12\" is no bucket bound (\"0\" or a power of two)"},
      {"ranks not a list", [](json& d) { d["ranks"] = json::object(); },
       "f.json: ranks is an object, not an array"},
      {"bad mpi_t state", [](json& d) { d["ranks"][2]["mpi_t"]["state"] = "maybe"; },
       "f.json: ranks[2].mpi_t.state is \"maybe\", not \"read\", \"unavailable\" or \"not_read\""},
      {"bad which", [](json& d) { d["job"]["which"] = "both"; },
       "f.json: job.which is \"both\", not \"accumulated\" or \"current\""},
      {"rank entry not an object", [](json& d) { d["ranks"][0] = 5; },
       "f.json: ranks[0] is not an object"},
  };
  for (const BadCase& c : cases) {
    json doc = GoodDoc();
    c.spoil(doc);
    auto job = MonitorFromJson(doc, "f.json");
    ASSERT_FALSE(job.ok()) << c.name;
    EXPECT_EQ(job.status().kind(), host::ErrorKind::kUnreadable) << c.name;
    EXPECT_EQ(job.status().message(), c.expected) << c.name;
  }
}

TEST(MonitorFile, UnreadableFiles) {
  auto missing = LoadMonitorFile("/nonexistent/mpidbg-monitor.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().exit_code(), 3);
  EXPECT_NE(missing.status().message().find("cannot open /nonexistent/mpidbg-monitor.json"),
            std::string::npos);
  std::string path = testing::TempDir() + "/not_json.json";
  std::ofstream(path) << "{\"schema\": ";
  auto bad = LoadMonitorFile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().exit_code(), 3);
  EXPECT_EQ(bad.status().message(), path + " is not valid JSON");
}

}  // namespace
}  // namespace mpidbg::monitor
