// frame_demux_test.cc — the frames of several nodes interleaved in any order between
// nodes come back as each node's lines; a cut stream, garbage, a missing or repeated
// frame breaks that node alone.
#include "host/fanout/frame_demux.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "host/fanout/node_frames.h"

namespace mpidbg::host {
namespace {

std::vector<std::string> FramesOf(const std::string& tag, const std::vector<std::string>& lines,
                                  bool end = true) {
  std::vector<std::string> frames;
  FrameWriter w(tag, [&frames](const std::string& f) { frames.push_back(f); });
  for (const std::string& l : lines) w.RecordLine(l);
  if (end) w.End();
  return frames;
}

std::vector<std::string> LinesOf(const std::string& tag, int n) {
  std::vector<std::string> lines;
  for (int i = 0; i < n; ++i) lines.push_back(tag + " line " + std::to_string(i) + std::string(i * 300, 'y'));
  return lines;
}

struct Collected {
  std::map<std::string, std::vector<std::string>> lines;
  std::vector<std::string> broken;
};

FrameDemux MakeDemux(Collected* c, std::size_t max_line = 1 << 20) {
  return FrameDemux(
      [c](const std::string& tag, std::string&& line) { c->lines[tag].push_back(line); },
      [c](const std::string& tag) { c->broken.push_back(tag); }, max_line);
}

TEST(FrameDemux, InterleavedNodesInAnyOrderComeBackWhole) {
  std::vector<std::string> tags = {"node1", "node2", "node3", "node4"};
  std::map<std::string, std::vector<std::string>> want;
  std::vector<std::vector<std::string>> streams;
  for (const std::string& t : tags) {
    want[t] = LinesOf(t, 6);
    streams.push_back(FramesOf(t, want[t]));
  }
  for (unsigned seed = 0; seed < 20; ++seed) {
    // A random interleaving that keeps each node's own order, as srun delivers it.
    std::mt19937 rng(seed);
    std::vector<std::size_t> next(streams.size(), 0);
    Collected c;
    FrameDemux demux = MakeDemux(&c);
    demux.Feed("srun: some chatter of the transport");
    for (;;) {
      std::vector<std::size_t> open;
      for (std::size_t i = 0; i < streams.size(); ++i) {
        if (next[i] < streams[i].size()) open.push_back(i);
      }
      if (open.empty()) break;
      std::size_t i = open[rng() % open.size()];
      demux.Feed(streams[i][next[i]++]);
    }
    EXPECT_EQ(c.lines, want);
    EXPECT_TRUE(c.broken.empty());
    EXPECT_EQ(demux.chatter_lines(), 1u);
    for (const auto& [tag, node] : demux.nodes()) {
      EXPECT_TRUE(node.ended) << tag;
      EXPECT_TRUE(node.broken.ok()) << tag;
    }
  }
}

TEST(FrameDemux, AMissingFrameBreaksThatNodeOnly) {
  std::vector<std::string> a = FramesOf("a", LinesOf("a", 4));
  std::vector<std::string> b = FramesOf("b", LinesOf("b", 4));
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i != 2) demux.Feed(a[i]);
  }
  for (const std::string& f : b) demux.Feed(f);
  ASSERT_EQ(c.broken, std::vector<std::string>{"a"});
  EXPECT_NE(demux.nodes().at("a").broken.message().find("frame 2 is missing"), std::string::npos)
      << demux.nodes().at("a").broken.message();
  EXPECT_EQ(c.lines["b"], LinesOf("b", 4));
  EXPECT_TRUE(demux.nodes().at("b").ended);
}

TEST(FrameDemux, ARepeatedFrameBreaksTheNode) {
  std::vector<std::string> a = FramesOf("a", {"one", "two"});
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  demux.Feed(a[0]);
  demux.Feed(a[0]);
  EXPECT_NE(demux.nodes().at("a").broken.message().find("came twice or out of order"),
            std::string::npos);
  EXPECT_EQ(c.lines["a"], std::vector<std::string>{"one"});
}

TEST(FrameDemux, GarbageWithAKnownTagBreaksThatNode) {
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  for (const std::string& f : FramesOf("a", {"one"}, false)) demux.Feed(f);
  demux.Feed("@mpidbg.frame/1 a 1 . 6 bad%zz");
  demux.Feed("@mpidbg.frame/1 a 2 . 4 more");  // ignored: the stream is broken
  demux.Feed("@mpidbg.frame/1 ??? 0 . 1 x");    // no node to blame
  EXPECT_NE(demux.nodes().at("a").broken.message().find("garbage"), std::string::npos);
  EXPECT_EQ(c.lines["a"], std::vector<std::string>{"one"});
  EXPECT_EQ(demux.orphan_bad_frames(), 1u);
}

TEST(FrameDemux, AStreamCutInsideALineBreaksWhenClosed) {
  std::vector<std::string> a = FramesOf("a", {std::string(3000, 'z')}, false);
  ASSERT_GT(a.size(), 2u);
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  demux.Feed(a[0]);
  demux.Feed(a[1].substr(0, a[1].size() / 2));  // the frame itself cut
  EXPECT_TRUE(c.lines["a"].empty());
  demux.Close("a", Status::Unreadable("its reader exited with status 1"));
  EXPECT_FALSE(demux.nodes().at("a").broken.ok());
  EXPECT_TRUE(c.lines["a"].empty());
}

TEST(FrameDemux, ACutFrameGluedToAnotherNodesFrameBreaksOnlyTheCutNode) {
  // srun passes a task's unfinished last line on glued to another task's next line.
  std::vector<std::string> a = FramesOf("a", {std::string(2000, 'z')}, false);
  std::vector<std::string> b = FramesOf("b", {"one", "two"});
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  demux.Feed(a[0]);
  demux.Feed(a[1].substr(0, 40) + b[0]);
  for (std::size_t i = 1; i < b.size(); ++i) demux.Feed(b[i]);
  EXPECT_EQ(c.lines["b"], (std::vector<std::string>{"one", "two"}));
  EXPECT_TRUE(demux.nodes().at("b").ended);
  EXPECT_FALSE(demux.nodes().at("a").broken.ok());
}

TEST(FrameDemux, CloseNamesANodeThatNeverSpoke) {
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  demux.Close("silent", Status::Unreadable("no answer within 60 s"));
  EXPECT_EQ(demux.nodes().at("silent").broken.message(), "no answer within 60 s");
}

TEST(FrameDemux, ALineOverTheBoundBreaksTheNode) {
  Collected c;
  FrameDemux demux = MakeDemux(&c, 1000);
  for (const std::string& f : FramesOf("a", {std::string(5000, 'q')})) demux.Feed(f);
  EXPECT_NE(demux.nodes().at("a").broken.message().find("longer than"), std::string::npos);
  EXPECT_TRUE(c.lines["a"].empty());
}

TEST(FrameDemux, FramesAfterTheEndBreakTheNode) {
  Collected c;
  FrameDemux demux = MakeDemux(&c);
  std::vector<std::string> a = FramesOf("a", {"one"});
  for (const std::string& f : a) demux.Feed(f);
  demux.Feed("@mpidbg.frame/1 a 2 . 5 again");
  EXPECT_FALSE(demux.nodes().at("a").broken.ok());
}

}  // namespace
}  // namespace mpidbg::host
