// The monitoring file's text without MPI: one rank's entry built from a hand-made
// block (sparse lists, histogram keys, current vs accumulated, files, MPI_T part), the
// file's opening and closing around several entries, and string escaping, each parsed
// back with nlohmann::json.
#include <gtest/gtest.h>
#include <string.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mpidbg/runtime_api.h"
#include "rt/monitor/monitor_entry.h"
#include "rt/report/json_writer.h"

namespace mpidbg::rt {
namespace {

using nlohmann::json;

// A hand-made process: four world ranks, counters in accumulated and baseline arrays.
struct Fake {
  mpidbg_monitor block;
  std::vector<mpidbg_monitor_peer> accumulated, baseline;
  mpidbg_monitor_coll coll_acc[MPIDBG_COLL_KINDS], coll_base[MPIDBG_COLL_KINDS];
  std::vector<mpidbg_monitor_file> files_acc, files_base;
  std::vector<mpidbg_monitor_mpit_peer> mpit;
  int files_used = 0;
};
Fake* g_fake = nullptr;

template <typename T>
T Diff(const T& a, const T& b, int which) {
  if (which == MPIDBG_MONITOR_ACCUMULATED) return a;
  T out;
  const uint64_t* pa = reinterpret_cast<const uint64_t*>(&a);
  const uint64_t* pb = reinterpret_cast<const uint64_t*>(&b);
  uint64_t* po = reinterpret_cast<uint64_t*>(&out);
  for (size_t i = 0; i < sizeof(T) / 8; ++i) po[i] = pa[i] - pb[i];
  return out;
}

int ReadPeer(int r, int which, mpidbg_monitor_peer* out) {
  if (r < 0 || r >= static_cast<int>(g_fake->accumulated.size())) return -1;
  *out = Diff(g_fake->accumulated[r], g_fake->baseline[r], which);
  return 0;
}
int ReadColl(int k, int which, mpidbg_monitor_coll* out) {
  if (k < 0 || k >= MPIDBG_COLL_KINDS) return -1;
  *out = Diff(g_fake->coll_acc[k], g_fake->coll_base[k], which);
  return 0;
}
int ReadFile(int i, int which, mpidbg_monitor_file* out) {
  if (i < 0 || i >= g_fake->files_used) return -1;
  *out = g_fake->files_acc[i];
  if (which == MPIDBG_MONITOR_CURRENT) {
    const mpidbg_monitor_file& b = g_fake->files_base[i];
    out->opens -= b.opens;
    out->read_operations -= b.read_operations;
    out->read_bytes -= b.read_bytes;
    out->write_operations -= b.write_operations;
    out->write_bytes -= b.write_bytes;
  }
  return 0;
}

class MonitorEntryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    memset(&f_.block, 0, sizeof f_.block);
    f_.accumulated.assign(4, mpidbg_monitor_peer{});
    f_.baseline.assign(4, mpidbg_monitor_peer{});
    memset(f_.coll_acc, 0, sizeof f_.coll_acc);
    memset(f_.coll_base, 0, sizeof f_.coll_base);
    f_.files_acc.assign(4, mpidbg_monitor_file{});
    f_.files_base.assign(4, mpidbg_monitor_file{});
    f_.block.world_size = 4;
    f_.block.active = 1;
    f_.block.starts = 2;
    f_.block.stops = 1;
    f_.block.resets = 1;
    f_.block.first_start_time_ns = 1000;
    f_.block.reset_time_ns = 2000;
    f_.block.file_capacity = 4;
    f_.block.files_dropped = 3;
    // Peer 1: 10 messages of 8 bytes sent, 10 received; 4 of them before the reset.
    auto& p1 = f_.accumulated[1];
    p1.sent_messages = 10, p1.sent_bytes = 80, p1.received_messages = 10, p1.received_bytes = 80;
    p1.sent_histogram[4] = 10;  // [8, 16)
    auto& b1 = f_.baseline[1];
    b1.sent_messages = 4, b1.sent_bytes = 32, b1.received_messages = 4, b1.received_bytes = 32;
    b1.sent_histogram[4] = 4;
    // Peer 2: one empty message, collective data and a put, all before the reset.
    auto& p2 = f_.accumulated[2];
    p2.sent_messages = 1, p2.sent_histogram[0] = 1;
    p2.coll_messages = 2, p2.coll_bytes = 64;
    p2.put_messages = 1, p2.put_bytes = 8;
    f_.baseline[2] = p2;
    // Peer 3: a message of 2^63 bytes' bucket (the last one), after the reset.
    f_.accumulated[3].sent_messages = 1;
    f_.accumulated[3].sent_bytes = uint64_t{1} << 63;
    f_.accumulated[3].sent_histogram[64] = 1;
    f_.coll_acc[MPIDBG_COLL_ONE_TO_ALL] = {3, 72, 0, 0};
    f_.coll_base[MPIDBG_COLL_ONE_TO_ALL] = {1, 24, 0, 0};
    f_.coll_acc[MPIDBG_COLL_BARRIER] = {5, 0, 0, 0};
    // Files: one written after the reset, one untouched since, one being filled.
    f_.files_acc[0].state = MPIDBG_MONITOR_FILE_READY;
    strcpy(f_.files_acc[0].name, "out.dat");
    f_.files_acc[0].opens = 1, f_.files_acc[0].write_operations = 4,
    f_.files_acc[0].write_bytes = 4096;
    f_.files_acc[1].state = MPIDBG_MONITOR_FILE_READY;
    strcpy(f_.files_acc[1].name, "old \"quoted\".dat");
    f_.files_acc[1].opens = 1, f_.files_acc[1].read_operations = 2,
    f_.files_acc[1].read_bytes = 10;
    f_.files_base[1] = f_.files_acc[1];
    f_.files_acc[2].state = MPIDBG_MONITOR_FILE_CLAIMED;
    f_.files_used = 3;
    g_fake = &f_;
  }
  void TearDown() override { g_fake = nullptr; }

  json Entry(int which, int rank = 0, const char* host = "node1") {
    MonitorSource source{&f_.block, 4, ReadPeer, ReadColl, ReadFile};
    JsonWriter text(JsonLayout::kCompact);
    EXPECT_TRUE(AppendRankEntry(source, RankIdentity{rank, 4242, host}, which, &text));
    return json::parse(std::string(text.Data(), text.Size()));
  }

  Fake f_;
};

TEST_F(MonitorEntryTest, AccumulatedListsOnlyNonZeroPeers) {
  json e = Entry(MPIDBG_MONITOR_ACCUMULATED);
  EXPECT_EQ(e["rank"], 0);
  EXPECT_EQ(e["pid"], 4242);
  EXPECT_EQ(e["host"], "node1");
  EXPECT_EQ(e["active"], true);
  EXPECT_EQ(e["first_start_time_ns"], 1000);
  EXPECT_EQ(e["reset_time_ns"], 2000);
  EXPECT_EQ(e["starts"], 2);
  EXPECT_EQ(e["stops"], 1);
  EXPECT_EQ(e["resets"], 1);
  ASSERT_EQ(e["p2p"].size(), 3u);
  EXPECT_EQ(e["p2p"][0], json::parse(R"({"peer":1,"sent_messages":10,"sent_bytes":80,
      "received_messages":10,"received_bytes":80,"histogram":{"8":10}})"));
  EXPECT_EQ(e["p2p"][1]["peer"], 2);
  EXPECT_EQ(e["p2p"][1]["histogram"], json::parse(R"({"0":1})"));
  EXPECT_EQ(e["p2p"][2]["sent_bytes"].get<uint64_t>(), uint64_t{1} << 63);
  EXPECT_EQ(e["p2p"][2]["histogram"], json::parse(R"({"9223372036854775808":1})"));
  EXPECT_EQ(e["collective_peers"], json::parse(R"([{"peer":2,"messages":2,"bytes":64}])"));
  EXPECT_EQ(e["rma"], json::parse(R"([{"peer":2,"put_messages":1,"put_bytes":8,
      "get_messages":0,"get_bytes":0,"acc_messages":0,"acc_bytes":0}])"));
  EXPECT_EQ(e["collectives"]["one_to_all"],
            json::parse(R"({"operations":3,"bytes_sent":72,"bytes_received":0})"));
  EXPECT_EQ(e["collectives"]["barrier"]["operations"], 5);
  EXPECT_EQ(e["collectives"]["all_to_one"]["operations"], 0);
  EXPECT_EQ(e["collectives"]["all_to_all"]["operations"], 0);
  ASSERT_EQ(e["files"].size(), 2u);  // the entry being filled is skipped
  EXPECT_EQ(e["files"][0], json::parse(R"({"name":"out.dat","opens":1,"read_operations":0,
      "read_bytes":0,"write_operations":4,"write_bytes":4096})"));
  EXPECT_EQ(e["files"][1]["name"], "old \"quoted\".dat");
  EXPECT_EQ(e["files_dropped"], 3);
  EXPECT_EQ(e["mpi_t"]["state"], "not_read");
  EXPECT_FALSE(e["mpi_t"].contains("peers"));
}

TEST_F(MonitorEntryTest, CurrentSubtractsTheBaseline) {
  json e = Entry(MPIDBG_MONITOR_CURRENT);
  ASSERT_EQ(e["p2p"].size(), 2u);  // peer 2's traffic was all before the reset
  EXPECT_EQ(e["p2p"][0], json::parse(R"({"peer":1,"sent_messages":6,"sent_bytes":48,
      "received_messages":6,"received_bytes":48,"histogram":{"8":6}})"));
  EXPECT_EQ(e["p2p"][1]["peer"], 3);
  EXPECT_TRUE(e["collective_peers"].empty());
  EXPECT_TRUE(e["rma"].empty());
  EXPECT_EQ(e["collectives"]["one_to_all"]["operations"], 2);
  EXPECT_EQ(e["collectives"]["one_to_all"]["bytes_sent"], 48);
  ASSERT_EQ(e["files"].size(), 1u);  // the file untouched since the reset is left out
  EXPECT_EQ(e["files"][0]["name"], "out.dat");
}

TEST_F(MonitorEntryTest, MpitPartWhenRead) {
  f_.mpit.assign(4, mpidbg_monitor_mpit_peer{});
  f_.mpit[1].coll_messages = 29;
  f_.mpit[1].coll_bytes = 4372;
  f_.mpit[3].osc_sent_messages = 1;
  f_.mpit[3].osc_sent_bytes = 4;
  f_.block.mpit_state = MPIDBG_MONITOR_MPIT_READ;
  f_.block.mpit_peer_count = 4;
  f_.block.mpit_peers = reinterpret_cast<uintptr_t>(f_.mpit.data());
  f_.block.mpit_time_ns = 77;
  f_.block.mpit_coll[MPIDBG_COLL_ONE_TO_ALL].operations = 1;
  f_.block.mpit_coll[MPIDBG_COLL_ONE_TO_ALL].bytes_sent = 80;
  strcpy(f_.block.mpit_reason, "read osc coll");
  json m = Entry(MPIDBG_MONITOR_CURRENT)["mpi_t"];
  EXPECT_EQ(m["state"], "read");
  EXPECT_EQ(m["reason"], "read osc coll");
  EXPECT_EQ(m["time_ns"], 77);
  ASSERT_EQ(m["peers"].size(), 2u);
  EXPECT_EQ(m["peers"][0], json::parse(R"({"peer":1,"pml_messages":0,"pml_bytes":0,
      "osc_sent_messages":0,"osc_sent_bytes":0,"osc_received_messages":0,
      "osc_received_bytes":0,"coll_messages":29,"coll_bytes":4372})"));
  EXPECT_EQ(m["peers"][1]["peer"], 3);
  EXPECT_EQ(m["collectives"]["one_to_all"], json::parse(R"({"operations":1,"bytes":80})"));
  EXPECT_EQ(m["collectives"].size(), 3u);  // no barrier kind in Open MPI's counters
}

TEST_F(MonitorEntryTest, MpitPeerCountIsBoundedByTheWorld) {
  f_.mpit.assign(8, mpidbg_monitor_mpit_peer{});
  for (auto& p : f_.mpit) p.pml_messages = 1;
  f_.block.mpit_state = MPIDBG_MONITOR_MPIT_READ;
  f_.block.mpit_peer_count = 1000;  // more than the world: only world_size are read
  f_.block.mpit_peers = reinterpret_cast<uintptr_t>(f_.mpit.data());
  EXPECT_EQ(Entry(MPIDBG_MONITOR_ACCUMULATED)["mpi_t"]["peers"].size(), 4u);
}

TEST_F(MonitorEntryTest, UnavailableHasAReasonAndNoValues) {
  f_.block.mpit_state = MPIDBG_MONITOR_MPIT_UNAVAILABLE;
  strcpy(f_.block.mpit_reason, "MPICH publishes no per-peer monitoring variables");
  json m = Entry(MPIDBG_MONITOR_ACCUMULATED)["mpi_t"];
  EXPECT_EQ(m["state"], "unavailable");
  EXPECT_EQ(m["reason"], "MPICH publishes no per-peer monitoring variables");
  EXPECT_FALSE(m.contains("peers"));
  EXPECT_FALSE(m.contains("collectives"));
}

TEST_F(MonitorEntryTest, NoBlockGivesAnEmptyEntry) {
  MonitorSource source{nullptr, 4, ReadPeer, ReadColl, ReadFile};
  JsonWriter text(JsonLayout::kCompact);
  ASSERT_TRUE(AppendRankEntry(source, RankIdentity{2, 7, nullptr}, MPIDBG_MONITOR_CURRENT, &text));
  json e = json::parse(std::string(text.Data(), text.Size()));
  EXPECT_EQ(e["rank"], 2);
  EXPECT_EQ(e["host"], "");
  EXPECT_EQ(e["active"], false);
  EXPECT_EQ(e["starts"], 0);
  EXPECT_TRUE(e["p2p"].empty());
  EXPECT_EQ(e["mpi_t"]["state"], "not_read");
}

TEST_F(MonitorEntryTest, WholeFileParses) {
  JsonWriter file(JsonLayout::kCompact);
  JobIdentity job{"job \"7\"", 4, "openmpi", "Open MPI v4.1.4\n", 123, MPIDBG_MONITOR_CURRENT};
  ASSERT_TRUE(AppendFileOpening(job, &file));
  MonitorSource source{&f_.block, 4, ReadPeer, ReadColl, ReadFile};
  for (int r = 0; r < 4; ++r) {
    if (r > 0) file.Verbatim(MonitorEntrySeparator());
    ASSERT_TRUE(AppendRankEntry(source, RankIdentity{r, 100 + r, "h"}, MPIDBG_MONITOR_CURRENT,
                                &file));
  }
  file.Verbatim(MonitorFileClosing());
  json doc = json::parse(std::string(file.Data(), file.Size()));
  EXPECT_EQ(doc["schema"], "mpidbg.monitor/1");
  EXPECT_EQ(doc["job"], json::parse(R"({"id":"job \"7\"","world_size":4,"flavour":"openmpi",
      "mpi_library":"Open MPI v4.1.4\n","written_time_ns":123,"which":"current"})"));
  ASSERT_EQ(doc["ranks"].size(), 4u);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(doc["ranks"][r]["rank"], r);
}

TEST(JsonWriterCompact, EscapesAndRepairsStrings) {
  JsonWriter t(JsonLayout::kCompact);
  const char raw[] = "a\"b\\c\n\t\x01\x1f é \xff\xc3 \xe2\x82\xac \xed\xa0\x80 end";
  t.BoundedString(raw, sizeof raw);
  std::string text(t.Data(), t.Size());
  EXPECT_EQ(text, "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f é \\ufffd\\ufffd € \\ufffd\\ufffd\\ufffd end\"");
  EXPECT_EQ(json::parse(text).get<std::string>(),
            "a\"b\\c\n\t\x01\x1f é \xef\xbf\xbd\xef\xbf\xbd € "
            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd end");
}

TEST(JsonWriterCompact, StringStopsAtTheBound) {
  JsonWriter t(JsonLayout::kCompact);
  char field[4] = {'a', 'b', 'c', 'd'};  // not NUL-terminated, as a truncated name can be
  t.BoundedString(field, sizeof field);
  EXPECT_EQ(std::string(t.Data(), t.Size()), "\"abcd\"");
}

TEST(JsonWriterCompact, NumbersAndNesting) {
  JsonWriter t(JsonLayout::kCompact);
  t.BeginObject();
  t.Key("n");
  t.BeginArray();
  t.Uint(0);
  t.Uint(UINT64_MAX);
  t.Int(INT64_MIN);
  t.Int(-5);
  t.EndArray();
  t.Key("b");
  t.Bool(true);
  t.EndObject();
  EXPECT_TRUE(t.ok());
  EXPECT_EQ(std::string(t.Data(), t.Size()),
            "{\"n\":[0,18446744073709551615,-9223372036854775808,-5],\"b\":true}");
}

}  // namespace
}  // namespace mpidbg::rt
