// node_record_test.cc — the node record ("mpidbg.node/1") written from generated jobs and
// read back: the same snapshots and the same verdict; damaged records (cut short,
// garbage, another schema, inconsistent counts) end in a status, never a crash; and
// the record grows linearly with its ranks.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "host/collect/member_ranges.h"
#include "host/collect/node_record_parser.h"
#include "host/collect/node_record_writer.h"
#include "host/job/job_analysis.h"
#include "host/snapshot/snapshot_json.h"
#include "job_patterns.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

std::vector<model::ProcessSnapshot> Job(const std::string& pattern, int size, int first = 0,
                                        int count = -1) {
  std::vector<model::ProcessSnapshot> ranks;
  if (count < 0) count = size;
  for (int r = first; r < first + count; ++r) ranks.push_back(scale::MakeRankSnapshot(pattern, r, size));
  return ranks;
}

std::string Record(const std::vector<model::ProcessSnapshot>& ranks,
                   const std::vector<std::pair<int64_t, Status>>& failed = {}) {
  std::ostringstream out;
  NodeRecordWriter writer(out);
  writer.Header({"node0", "job.7", static_cast<int>(ranks.size() + failed.size()), "test"});
  for (const model::ProcessSnapshot& s : ranks) writer.Rank(s);
  for (const auto& [pid, why] : failed) writer.Failure(pid, "live", why);
  writer.Trailer(0.5);
  return out.str();
}

struct Read {
  NodeRecordSummary summary;
  std::vector<model::ProcessSnapshot> ranks;
};

Read Parse(const std::string& text) {
  Read r;
  std::istringstream in(text);
  r.summary = ReadNodeRecord(in, "test", [&r](model::ProcessSnapshot&& s) { r.ranks.push_back(std::move(s)); });
  return r;
}

json Comparable(const model::ProcessSnapshot& s) {
  json doc = SnapshotToJson(s);
  doc["metadata"].erase("mpi_t");  // the record leaves the MPI_T catalogue out
  return doc;
}

TEST(NodeRecord, RoundTripKeepsEverySnapshotAndTheVerdict) {
  for (const std::string& pattern : scale::PatternNames()) {
    SCOPED_TRACE(pattern);
    std::vector<model::ProcessSnapshot> job = Job(pattern, 16);
    Read back = Parse(Record(job));
    ASSERT_TRUE(back.summary.complete) << back.summary.status.message();
    EXPECT_EQ(back.summary.hostname, "node0");
    EXPECT_EQ(back.summary.job, "job.7");
    EXPECT_EQ(back.summary.ranks_announced, 16);
    ASSERT_EQ(back.ranks.size(), job.size());
    for (std::size_t i = 0; i < job.size(); ++i) EXPECT_EQ(Comparable(back.ranks[i]), Comparable(job[i]));
    EXPECT_EQ(job::ToJson(job::Analyze(back.ranks)), job::ToJson(job::Analyze(job)));
  }
}

TEST(NodeRecord, TwoNodesMergeIntoTheVerdictOfOne) {
  std::vector<model::ProcessSnapshot> whole = Job("ring", 8);
  Read a = Parse(Record(Job("ring", 8, 0, 3)));
  Read b = Parse(Record(Job("ring", 8, 3, 5)));
  ASSERT_TRUE(a.summary.complete && b.summary.complete);
  std::vector<model::ProcessSnapshot> merged = a.ranks;
  merged.insert(merged.end(), b.ranks.begin(), b.ranks.end());
  job::JobReport report = job::Analyze(merged);
  EXPECT_TRUE(report.deadlock.detected);
  EXPECT_EQ(job::ToJson(report), job::ToJson(job::Analyze(whole)));
}

TEST(NodeRecord, NodeWithoutRanksIsComplete) {
  Read back = Parse(Record({}));
  EXPECT_TRUE(back.summary.complete) << back.summary.status.message();
  EXPECT_EQ(back.summary.ranks_announced, 0);
  EXPECT_TRUE(back.ranks.empty());
}

TEST(NodeRecord, FailedRanksComeBackUnreadableWithWhy) {
  Read back = Parse(Record(Job("ring", 4, 0, 2), {{4242, Status::Unreadable("no such process")},
                                                  {4343, Status::NoSupport("no runtime")}}));
  ASSERT_TRUE(back.summary.complete) << back.summary.status.message();
  ASSERT_EQ(back.ranks.size(), 4u);
  EXPECT_EQ(back.summary.ranks_failed, 2);
  EXPECT_EQ(back.ranks[2].process.state, "unreadable");
  EXPECT_EQ(back.ranks[2].process.pid, 4242);
  EXPECT_EQ(back.ranks[2].process.error, "no such process");
  EXPECT_EQ(back.ranks[2].process.error_kind, 3);
  EXPECT_EQ(back.ranks[3].process.error_kind, 1);
}

TEST(NodeRecord, EveryCutIsIncompleteAndKeepsOnlyWholeRanks) {
  const std::string text = Record(Job("any-source", 4));
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    Read back = Parse(text.substr(0, cut));
    ASSERT_FALSE(back.summary.complete) << "cut at " << cut;
    ASSERT_FALSE(back.summary.status.message().empty());
    ASSERT_LE(back.ranks.size(), 4u);
  }
  EXPECT_NE(Parse(text.substr(0, text.size() - 1)).summary.status.message().find("truncated"),
            std::string::npos);
}

TEST(NodeRecord, DamagedRecordsSayWhy) {
  const std::string good = Record(Job("ring", 4));
  const std::string header = good.substr(0, good.find('\n') + 1);
  struct Case {
    const char* name;
    std::string text;
    const char* why;
  };
  std::string wrong_schema = header;
  wrong_schema.replace(wrong_schema.find("mpidbg.node/1"), 13, "mpidbg.node/9");
  std::string snapshot_doc = SnapshotToJson(Job("ring", 4)[0]).dump(1) + "\n";
  std::string flat_snapshot = SnapshotToJson(Job("ring", 4)[0]).dump() + "\n";
  const std::vector<Case> cases = {
      {"empty", "", "empty"},
      {"garbage", std::string("\x7f" "ELF\x01\x02\n\x00\xff", 9) + "\n", "not a node record"},
      {"pretty snapshot document", snapshot_doc, "not a node record"},
      {"one-line snapshot document", flat_snapshot, "not a node record"},
      {"other schema", wrong_schema, "mpidbg.node/9"},
      {"header only", header, "truncated"},
      {"after the trailer", good + "{}\n", "follows the trailer"},
      {"unknown line", header + "{\"record\":\"nope\"}\n", "no known kind"},
      {"not an object", header + "[1,2]\n", "not a JSON object"},
      {"rank before its comm", header + "{\"record\":\"rank\",\"snapshot\":{\"communicators\":[{\"id\":\"0x9\"}]}}\n",
       "no communicator line"},
      {"rank of wrong type", header + "{\"record\":\"rank\",\"snapshot\":{\"process\":{\"pid\":\"x\"}}}\n",
       "rank line 1"},
      {"descending run", header + "{\"record\":\"comm\",\"id\":\"0x2\",\"members\":\"3-1\"}\n", "ascend"},
      {"rank too large", header + "{\"record\":\"comm\",\"id\":\"0x2\",\"members\":\"99999999999\"}\n",
       "too large"},
      {"comm twice", header + "{\"record\":\"comm\",\"id\":\"0x2\",\"members\":\"0\"}\n"
                              "{\"record\":\"comm\",\"id\":\"0x2\",\"members\":\"0\"}\n", "twice"},
      {"bad rank count", "{\"record\":\"header\",\"schema\":\"mpidbg.node/1\",\"ranks\":-4}\n", "rank count"},
      {"too many ranks", "{\"record\":\"header\",\"schema\":\"mpidbg.node/1\",\"ranks\":0}\n" +
                             good.substr(good.find('\n') + 1), "more rank lines"},
      {"trailer miscounts", header + "{\"record\":\"trailer\",\"ranks_read\":3,\"failed\":[]}\n", "counts 3"},
      {"trailer without failed", header + "{\"record\":\"trailer\",\"ranks_read\":0}\n", "lacks"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Read back = Parse(c.text);
    EXPECT_FALSE(back.summary.complete);
    EXPECT_NE(back.summary.status.message().find(c.why), std::string::npos)
        << back.summary.status.message();
  }
}

TEST(NodeRecord, AnInconsistentMembershipStaysInline) {
  std::vector<model::ProcessSnapshot> job = Job("ring", 4);
  job[2].communicators[0].world_ranks = {3, 2, 1, 0};  // same id, other members
  Read back = Parse(Record(job));
  ASSERT_TRUE(back.summary.complete) << back.summary.status.message();
  for (std::size_t i = 0; i < job.size(); ++i) {
    EXPECT_EQ(back.ranks[i].communicators[0].world_ranks, job[i].communicators[0].world_ranks);
  }
}

TEST(MemberRanges, ReadsWhatTheWriterFolds) {
  EXPECT_EQ(ParseMemberRanges("0-3,8-11", 100).value(), (std::vector<int>{0, 1, 2, 3, 8, 9, 10, 11}));
  EXPECT_EQ(ParseMemberRanges("5,2,7-8", 100).value(), (std::vector<int>{5, 2, 7, 8}));
  EXPECT_TRUE(ParseMemberRanges("", 100).value().empty());
  for (const char* bad : {"1,", ",1", "1--2", "a", "1-", "-1", "2-1", "1 ,2", "0-65536"}) {
    EXPECT_FALSE(ParseMemberRanges(bad, 1 << 20).ok()) << bad;
  }
  EXPECT_FALSE(ParseMemberRanges("0-9", 5).ok());
}

// A world communicator written per rank would make the record quadratic; held once per
// node as "0-N" it adds a constant. Bytes per rank must not grow with the job.
TEST(NodeRecord, SizeIsLinearInRanks) {
  auto per_rank = [](int n) {
    std::string text = Record(Job("barrier-but-one", n));
    return static_cast<double>(text.size()) / n;
  };
  const double at_512 = per_rank(512), at_1024 = per_rank(1024), at_4096 = per_rank(4096);
  EXPECT_LT(at_1024, at_512 * 1.05);
  EXPECT_LT(at_4096, at_512 * 1.05);
  for (const std::string& pattern : scale::PatternNames()) {
    std::size_t record = 0, documents = 0;
    std::vector<model::ProcessSnapshot> job = Job(pattern, 4096);
    record = Record(job).size();
    for (const model::ProcessSnapshot& s : job) documents += SnapshotToJson(s).dump(1).size() + 1;
    std::printf("pattern=%s ranks=4096 node_record_bytes=%zu snapshot_json_bytes=%zu\n",
                pattern.c_str(), record, documents);
  }
}

}  // namespace
}  // namespace mpidbg::host
