// monitor_output_test.cc — matrices from the 4-rank file (exact cells), the text for a
// small and a large job, the "mpidbg.matrix/1" document and the SVG heat map.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>

#include "host/matrix/monitor_file.h"
#include "host/matrix/monitor_json.h"
#include "host/matrix/monitor_svg.h"
#include "host/matrix/monitor_text.h"

namespace mpidbg::monitor {
namespace {

JobMonitor FourRanks() {
  auto job = LoadMonitorFile(std::string(MPIDBG_TEST_DATA) + "/monitor_4ranks.json");
  EXPECT_TRUE(job.ok()) << job.status().message();
  return job.ok() ? job.value() : JobMonitor();
}

// A job of `n` ranks: rank i sends (i + 1) messages of 100 bytes to i + 1 (a chain), and
// rank 0 sends one message of 1 MiB to every other rank.
JobMonitor Generated(int n) {
  JobMonitor job;
  job.world_size = n;
  job.ranks.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    RankMonitor& r = job.ranks[static_cast<size_t>(i)];
    r.rank = i;
    r.present = true;
    r.pid = 1000 + i;
    if (i + 1 < n) {
      PeerCounters& p = r.peers[i + 1];
      p.sent_messages = static_cast<uint64_t>(i + 1);
      p.sent_bytes = 100u * static_cast<uint64_t>(i + 1);
      p.histogram[7] = p.sent_messages;  // [64, 128)
    }
  }
  for (int j = 1; j < n; ++j) {
    PeerCounters& p = job.ranks[0].peers[j];
    p.sent_messages += 1;
    p.sent_bytes += 1 << 20;
    p.histogram[21] += 1;
  }
  return job;
}

std::vector<std::tuple<int, int, uint64_t>> Cells(const Matrix& m) {
  std::vector<std::tuple<int, int, uint64_t>> out;
  for (const Cell& c : m.cells) out.emplace_back(c.from, c.to, c.value);
  return out;
}

TEST(MonitorMatrix, ExactCellsOfEveryView) {
  JobMonitor job = FourRanks();
  using V = std::vector<std::tuple<int, int, uint64_t>>;
  EXPECT_EQ(Cells(BuildMatrix(job, View::kP2p, Metric::kMessages)),
            (V{{0, 1, 10}, {0, 3, 2}, {1, 0, 10}, {1, 2, 5}, {2, 3, 1}, {3, 0, 7}}));
  EXPECT_EQ(Cells(BuildMatrix(job, View::kP2p, Metric::kBytes)),
            (V{{0, 1, 80}, {0, 3, 2048}, {1, 0, 80}, {1, 2, 5000}, {3, 0, 7340032}}));
  EXPECT_EQ(Cells(BuildMatrix(job, View::kColl, Metric::kBytes)), (V{{0, 1, 64}, {0, 2, 64}}));
  EXPECT_EQ(Cells(BuildMatrix(job, View::kPut, Metric::kMessages)), (V{{0, 2, 1}}));
  EXPECT_EQ(Cells(BuildMatrix(job, View::kGet, Metric::kMessages)), V{});
  EXPECT_EQ(Cells(BuildMatrix(job, View::kAcc, Metric::kBytes)), (V{{0, 2, 32}}));
  EXPECT_EQ(Cells(BuildMatrix(job, View::kMpiT, Metric::kBytes)), (V{{0, 1, 144}}));
  Matrix m = BuildMatrix(job, View::kP2p, Metric::kMessages);
  EXPECT_EQ(m.size, 4);
  EXPECT_EQ(m.Total(), 35u);
  EXPECT_EQ(m.Max(), 10u);
  EXPECT_EQ(m.MinNonZero(), 1u);
}

TEST(MonitorMatrix, HistogramCollectivesFiles) {
  JobMonitor job = FourRanks();
  auto h = JobHistogram(job);
  EXPECT_EQ(h[0], 2u);
  EXPECT_EQ(h[4], 20u);
  EXPECT_EQ(h[10], 5u);
  EXPECT_EQ(h[12], 1u);
  EXPECT_EQ(h[21], 7u);
  auto c = JobCollectives(job);
  EXPECT_EQ(c[2].operations, 4u);
  EXPECT_EQ(c[2].bytes_sent, 96u);
  EXPECT_EQ(c[3].operations, 6u);
  auto files = JobFiles(job);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].counters.opens, 2u);
  EXPECT_EQ(files[0].counters.read_bytes, 100u);
  EXPECT_EQ(files[0].ranks, (std::vector<int>{0, 1}));
}

TEST(MonitorMatrix, BucketLabels) {
  EXPECT_EQ(BucketLabel(0), "0");
  EXPECT_EQ(BucketLabel(1), "1-1 B");
  EXPECT_EQ(BucketLabel(2), "2-3 B");
  EXPECT_EQ(BucketLabel(3), "4-7 B");
  EXPECT_EQ(BucketLabel(10), "512-1023 B");
  EXPECT_EQ(BucketLabel(11), "1-2 KiB");
  EXPECT_EQ(BucketLabel(20), "512-1024 KiB");
  EXPECT_EQ(BucketLabel(21), "1-2 MiB");
  EXPECT_EQ(BucketLabel(64), "8-16 EiB");
}

TEST(MonitorText, SmallJobShowsTheGrid) {
  std::string text = MonitorToText(FourRanks(), View::kP2p, Metric::kMessages);
  EXPECT_NE(text.find("communication matrix: p2p messages (accumulated), 4 ranks, from file\n"
                      "total: 35 messages in 6 pairs\n"),
            std::string::npos)
      << text;
  // Row of rank 1: 10 to rank 0, 5 to rank 2.
  EXPECT_TRUE(std::regex_search(text, std::regex("\n +1 +10 +\\. +5 +\\.\n"))) << text;
  EXPECT_NE(text.find("  rank 0: 12 / 17\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  1-2 MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("  barrier: 6 operations\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  out.dat: 2 opens, 2 reads (100 B), 4 writes (4.0 KiB), 2 ranks\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  pml: 14 messages in 1 pairs\n"), std::string::npos) << text;
  // What was read, from the first rank that read it.
  EXPECT_NE(text.find("):\n  pml_monitoring_messages_count\n  pml:"), std::string::npos) << text;
}

TEST(MonitorText, MpiTUnavailableSaysWhy) {
  JobMonitor job = FourRanks();
  for (RankMonitor& r : job.ranks) {
    r.mpit_state = "unavailable";
    r.mpit_reason = "no pml_monitoring_messages_count (run with --mca pml_monitoring_enable 1)";
  }
  std::string text = MonitorToText(job, View::kMpiT, Metric::kMessages);
  EXPECT_NE(text.find("  unavailable: no pml_monitoring_messages_count"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(no MPI_T monitoring was read: see below)"), std::string::npos) << text;
}

TEST(MonitorText, LargeJobListsTheLargestPairs) {
  JobMonitor job = Generated(100);
  std::string text = MonitorToText(job, View::kP2p, Metric::kBytes);
  // 99 chain pairs, 98 of them (0 -> 1 is shared) plus 99 from rank 0: 197 pairs.
  EXPECT_NE(text.find("  197 non-zero pairs of 100 x 100; the 50 largest:\n"), std::string::npos)
      << text.substr(0, 400);
  // The largest: 0 -> 1 (1 MiB + 100 B), then the 1 MiB sends in rank order.
  EXPECT_NE(text.find("  0 -> 1: 1.0 MiB\n  0 -> 2: 1.0 MiB\n"), std::string::npos);
  std::istringstream lines(text);
  std::string line;
  int pair_lines = 0, rank_lines = 0;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, std::regex("  [0-9]+ -> [0-9]+: .*"))) ++pair_lines;
    if (std::regex_match(line, std::regex("  rank [0-9]+: .*"))) ++rank_lines;
  }
  EXPECT_EQ(pair_lines, 50);
  // The 50 busiest ranks; rank 0 sent 99 MiB and comes first.
  EXPECT_EQ(rank_lines, 50);
  EXPECT_NE(text.find("per rank (sent / received), the busiest:\n  rank 0: 99.0 MiB / 0 B\n"),
            std::string::npos);
  EXPECT_EQ(text.find("\n     0     1     2"), std::string::npos);  // no grid
}

TEST(MonitorJson, EveryMatrixDense) {
  nlohmann::json doc = MonitorToJson(FourRanks());
  EXPECT_EQ(doc["schema"], "mpidbg.matrix/1");
  EXPECT_EQ(doc["source"], "file");
  EXPECT_EQ(doc["which"], "accumulated");
  EXPECT_EQ(doc["world_size"], 4);
  for (const char* key : {"p2p_messages", "p2p_bytes", "coll_messages", "coll_bytes",
                          "put_messages", "put_bytes", "get_messages", "get_bytes",
                          "acc_messages", "acc_bytes"}) {
    ASSERT_TRUE(doc[key].is_array()) << key;
    ASSERT_EQ(doc[key].size(), 4u) << key;
    for (const auto& row : doc[key]) EXPECT_EQ(row.size(), 4u) << key;
  }
  EXPECT_EQ(doc["p2p_messages"],
            nlohmann::json::parse("[[0,10,0,2],[10,0,5,0],[0,0,0,1],[7,0,0,0]]"));
  EXPECT_EQ(doc["p2p_bytes"][3][0], 7340032);
  ASSERT_EQ(doc["histogram"].size(), 4u);
  EXPECT_EQ(doc["histogram"][0].size(), 65u);
  EXPECT_EQ(doc["histogram"][0][4], 10);
  EXPECT_EQ(doc["histogram"][0][12], 1);
  EXPECT_EQ(doc["histogram_buckets"][2], "2-3 B");
  EXPECT_EQ(doc["collectives"]["all_to_all"]["operations"], 4);
  EXPECT_EQ(doc["files"][0]["name"], "out.dat");
  EXPECT_EQ(doc["files"][0]["ranks"], nlohmann::json::parse("[0,1]"));
  EXPECT_EQ(doc["ranks"][3]["sent_bytes"], 7340032);
  EXPECT_EQ(doc["mpi_t"]["state"], "read");
  EXPECT_EQ(doc["mpi_t"]["pml_messages"][0][1], 14);
  EXPECT_EQ(doc["mpi_t"]["coll_bytes"][0][1], 64);
  EXPECT_EQ(doc["mpi_t"]["collectives"]["one_to_all"]["bytes"], 24);
}

TEST(MonitorJson, LargeJobStreamsDenseRows) {
  JobMonitor job = Generated(300);
  std::ostringstream text;
  WriteMonitorJson(text, job);
  nlohmann::json doc = nlohmann::json::parse(text.str());
  ASSERT_EQ(doc["p2p_messages"].size(), 300u);
  EXPECT_EQ(doc["p2p_messages"][0].size(), 300u);
  EXPECT_EQ(doc["p2p_messages"][0][1], 2);    // chain 1 + the 1 MiB message
  EXPECT_EQ(doc["p2p_messages"][0][299], 1);
  EXPECT_EQ(doc["p2p_messages"][298][299], 299);
  EXPECT_EQ(doc["p2p_bytes"][5][6], 600);
  EXPECT_EQ(doc["p2p_messages"][299][0], 0);
  EXPECT_EQ(doc["histogram"][0][21], 299);
  EXPECT_FALSE(doc["mpi_t"].contains("pml_messages"));
  EXPECT_EQ(doc["mpi_t"]["state"], "not_read");
}

// A minimal well-formedness check: every tag closes in order, attributes are quoted.
bool WellFormed(const std::string& xml, std::string* why) {
  std::vector<std::string> open;
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string::npos) {
    size_t end = xml.find('>', pos);
    if (end == std::string::npos) return *why = "unclosed tag", false;
    std::string tag = xml.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag.empty()) return *why = "empty tag", false;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return *why = "quote in " + tag, false;
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return *why = "mismatched </" + name + ">", false;
      open.pop_back();
      continue;
    }
    if (tag.back() == '/') continue;
    open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
  }
  if (!open.empty()) return *why = "<" + open.back() + "> never closed", false;
  return true;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = 0; (pos = text.find(what, pos)) != std::string::npos; pos += what.size()) ++n;
  return n;
}

TEST(MonitorSvg, OneCellPerNonZeroPairWithTooltips) {
  Matrix m = BuildMatrix(FourRanks(), View::kP2p, Metric::kBytes);
  std::string svg = MatrixToSvg(m, "p2p bytes", Metric::kBytes);
  std::string why;
  EXPECT_TRUE(WellFormed(svg, &why)) << why;
  EXPECT_EQ(Count(svg, "<rect class=\"cell\""), 5u);
  // Exact in the hover text, human units in the cells and along the scale.
  EXPECT_NE(svg.find("<title>rank 3 to rank 0: 7340032 bytes (7.0 MiB)</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>rank 0 to rank 1: 80 bytes</title>"), std::string::npos);
  EXPECT_NE(svg.find(">7.0 MiB</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">max 7.0 MiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">min 80 B</text>"), std::string::npos);
  EXPECT_EQ(Count(svg, "<g class=\"values\""), 1u);
  // Readable: cells of 52 pixels, the picture well beyond the old 336 x 206.
  EXPECT_EQ(LayoutFor(4).cell, 52);
  EXPECT_NE(svg.find("width=\"448\" height=\"358\""), std::string::npos) << svg.substr(0, 300);
  // The largest value is the darkest colour, the smallest the lightest.
  EXPECT_NE(svg.find("fill=\"#08306b\"><title>rank 3 to rank 0"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#deebf7\"><title>rank 0 to rank 1"), std::string::npos);
  EXPECT_EQ(svg.find("aggregated"), std::string::npos);
}

TEST(MonitorSvg, LargeJobsAreAggregatedAndStaySmall) {
  JobMonitor job = Generated(1024);
  Matrix m = BuildMatrix(job, View::kP2p, Metric::kMessages);
  SvgLayout l = LayoutFor(1024);
  EXPECT_EQ(l.block, 4);
  EXPECT_EQ(l.grid, 256);
  EXPECT_GE(l.cell, 2);
  std::string svg = MatrixToSvg(m, "p2p messages", Metric::kMessages);
  std::string why;
  EXPECT_TRUE(WellFormed(svg, &why)) << why;
  EXPECT_NE(svg.find("(aggregated: each cell is 4 x 4 ranks)"), std::string::npos);
  // Blocks: rank 0's row (256, its own block included); in block rows 1..255 the chain
  // stays in its block for i = 4b..4b+2 (255 diagonal blocks) and leaves it for
  // i = 4b+3 (b -> b+1 for b = 1..254).
  EXPECT_EQ(Count(svg, "<rect class=\"cell\""), 256u + 255u + 254u);
  EXPECT_LT(svg.size(), 1u << 20);
  // Labels are thinned out: at most 64 per axis (two texts per label).
  EXPECT_LE(Count(svg, "rotate(-90)"), 64u);
  // Big jobs print no values in their cells (hover has them); small ones do.
  EXPECT_EQ(svg.find("class=\"values\""), std::string::npos);
  EXPECT_FALSE(l.values);
  EXPECT_TRUE(LayoutFor(4).values);
  EXPECT_TRUE(LayoutFor(24).values);
  EXPECT_FALSE(LayoutFor(25).values);
  EXPECT_EQ(LayoutFor(100).block, 1);
}

}  // namespace
}  // namespace mpidbg::monitor
