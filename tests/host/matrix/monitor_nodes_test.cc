// monitor_nodes_test.cc — communication counters across nodes: a job's ranks written
// into node records of monitor content (`collect --content monitor`), read back through
// the sinks `matrix --slurm` uses, give the job the file gives; records that disagree
// or hold another content end in a sentence, never in wrong counts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/collect/node_record_schema.h"
#include "host/collect/node_record_writer.h"
#include "host/matrix/monitor_document.h"
#include "host/matrix/monitor_file.h"
#include "host/matrix/monitor_json.h"
#include "host/matrix/monitor_nodes.h"

namespace mpidbg::monitor {
namespace {

using nlohmann::json;

const std::string kGood = std::string(MPIDBG_TEST_DATA) + "/monitor_4ranks.json";

// The node record of `ranks` of `job`, as a node reader writes it.
std::string Record(const JobMonitor& job, const std::string& host, std::vector<int> ranks) {
  std::ostringstream out;
  host::NodeRecordWriter writer(out);
  writer.Header({host, "4711.0", static_cast<int>(ranks.size()), "test"},
                host::kNodeContentMonitor, MonitorJobObject(job));
  for (int r : ranks) writer.Section(MonitorRankObject(job.ranks[static_cast<size_t>(r)]));
  writer.Trailer(0.1);
  return out.str();
}

// Feeds `text` line by line as the fan-out does; the node's summary.
host::NodeRecordSummary Feed(const std::string& text, JobMonitor* into) {
  host::NodeRecordLines lines("test", MonitorRecordSinks(into));
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.Line(line);
  return lines.Finish();
}

TEST(MonitorNodes, TwoNodesGiveTheJobTheFileGives) {
  auto file = LoadMonitorFile(kGood);
  ASSERT_TRUE(file.ok()) << file.status().message();
  JobMonitor merged;
  host::NodeRecordSummary a = Feed(Record(*file, "n1", {0, 2}), &merged);
  host::NodeRecordSummary b = Feed(Record(*file, "n2", {1, 3}), &merged);
  ASSERT_TRUE(a.complete) << a.status.message();
  ASSERT_TRUE(b.complete) << b.status.message();
  EXPECT_EQ(a.ranks_read, 2);
  merged.source = file->source;
  merged.written_time_ns = file->written_time_ns;
  EXPECT_EQ(MonitorToJson(merged).dump(1), MonitorToJson(*file).dump(1));
}

TEST(MonitorNodes, ANodeNotReadLeavesItsRanksWithoutData) {
  auto file = LoadMonitorFile(kGood);
  ASSERT_TRUE(file.ok());
  JobMonitor merged;
  ASSERT_TRUE(Feed(Record(*file, "n1", {0, 1}), &merged).complete);
  ASSERT_EQ(merged.ranks.size(), 4u);
  EXPECT_TRUE(merged.ranks[1].present);
  EXPECT_FALSE(merged.ranks[2].present);
  EXPECT_EQ(merged.ranks[2].rank, 2);
}

TEST(MonitorNodes, ARankTwiceEndsTheSecondRecord) {
  auto file = LoadMonitorFile(kGood);
  ASSERT_TRUE(file.ok());
  JobMonitor merged;
  ASSERT_TRUE(Feed(Record(*file, "n1", {0, 1}), &merged).complete);
  host::NodeRecordSummary again = Feed(Record(*file, "n2", {1}), &merged);
  EXPECT_FALSE(again.complete);
  EXPECT_NE(again.status.message().find("repeats rank 1"), std::string::npos)
      << again.status.message();
}

TEST(MonitorNodes, CountersOfAnotherKindAreRefused) {
  auto file = LoadMonitorFile(kGood);
  ASSERT_TRUE(file.ok());
  JobMonitor merged;
  ASSERT_TRUE(Feed(Record(*file, "n1", {0}), &merged).complete);
  JobMonitor current = *file;
  current.which = "current";
  host::NodeRecordSummary s = Feed(Record(current, "n2", {1}), &merged);
  EXPECT_FALSE(s.complete);
  EXPECT_NE(s.status.message().find("current counters"), std::string::npos) << s.status.message();
}

TEST(MonitorNodes, ASnapshotRecordIsNotMonitorContent) {
  std::ostringstream out;
  host::NodeRecordWriter writer(out);
  writer.Header({"n1", "7", 0, "test"});
  writer.Trailer(0.1);
  JobMonitor merged;
  host::NodeRecordSummary s = Feed(out.str(), &merged);
  EXPECT_FALSE(s.complete);
  EXPECT_EQ(s.status.message(), "the record holds snapshot ranks, monitor ranks are wanted");
}

TEST(MonitorNodes, ABadEntryNamesItsKeyAndLeavesNoPartialRank) {
  auto file = LoadMonitorFile(kGood);
  ASSERT_TRUE(file.ok());
  std::string text = Record(*file, "n1", {0});
  std::string key = "\"sent_bytes\":80";
  std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, key.size(), "\"sent_bytes\":\"80\"");
  JobMonitor merged;
  host::NodeRecordSummary s = Feed(text, &merged);
  EXPECT_FALSE(s.complete);
  EXPECT_NE(s.status.message().find("sent_bytes"), std::string::npos) << s.status.message();
  ASSERT_FALSE(merged.ranks.empty());
  EXPECT_FALSE(merged.ranks[0].present);
}

}  // namespace
}  // namespace mpidbg::monitor
