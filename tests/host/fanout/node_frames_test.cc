// node_frames_test.cc — frames: what the writer cuts, the reader puts back; every way a
// frame line can be damaged is told apart from a frame and from a transport's chatter.
#include "host/fanout/node_frames.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace mpidbg::host {
namespace {

std::vector<std::string> FramesOf(const std::vector<std::string>& lines, const std::string& tag) {
  std::vector<std::string> frames;
  FrameWriter w(tag, [&frames](const std::string& f) { frames.push_back(f); });
  for (const std::string& l : lines) w.RecordLine(l);
  w.End();
  return frames;
}

TEST(NodeFrames, LinesComeBackWhateverTheyHold) {
  std::string binary;
  for (int c = 0; c < 256; ++c) binary.push_back(static_cast<char>(c));
  std::vector<std::string> lines = {"{\"record\": \"header\"}", "", std::string(5000, 'x'),
                                    "100% of  spaces\tand tabs ", binary};
  std::vector<std::string> frames = FramesOf(lines, "node-1.cluster");
  std::vector<std::string> back(1);
  uint64_t seq = 0;
  bool ended = false;
  for (const std::string& f : frames) {
    EXPECT_LT(f.size(), 700u) << "a frame stays short";
    for (char c : f) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "a frame is printable ASCII";
    ParsedFrame p = ParseFrame(f);
    ASSERT_EQ(p.kind, ParsedFrame::kFrame) << p.why << ": " << f;
    EXPECT_EQ(p.frame.tag, "node-1.cluster");
    EXPECT_EQ(p.frame.seq, seq++);
    if (p.frame.flag == FrameFlag::kStreamEnd) {
      ended = true;
      continue;
    }
    back.back() += p.frame.chunk;
    if (p.frame.flag == FrameFlag::kLineEnd) back.emplace_back();
  }
  back.pop_back();
  EXPECT_TRUE(ended);
  EXPECT_EQ(back, lines);
}

TEST(NodeFrames, FramedOutputFramesWhatIsWrittenAndEndsOnClose) {
  std::ostringstream out;
  {
    FramedOutput framed(out, "n1");
    framed.stream() << "{\"a\": 1}\n{\"b\": 2}\nhalf a li";
    framed.stream().flush();
  }
  std::istringstream in(out.str());
  std::vector<ParsedFrame> got;
  for (std::string l; std::getline(in, l);) got.push_back(ParseFrame(l));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].frame.chunk, "{\"a\": 1}");
  EXPECT_EQ(got[0].frame.flag, FrameFlag::kLineEnd);
  EXPECT_EQ(got[2].frame.chunk, "half a li");
  EXPECT_EQ(got[2].frame.flag, FrameFlag::kContinues);
  EXPECT_EQ(got[3].frame.flag, FrameFlag::kStreamEnd);
}

TEST(NodeFrames, APrefixBeforeTheMarkerIsSkipped) {
  ParsedFrame p = ParseFrame("node7: @mpidbg.frame/1 node7 3 . 3 abc\r");
  ASSERT_EQ(p.kind, ParsedFrame::kFrame) << p.why;
  EXPECT_EQ(p.frame.tag, "node7");
  EXPECT_EQ(p.frame.seq, 3u);
  EXPECT_EQ(p.frame.chunk, "abc");
}

TEST(NodeFrames, LinesWithoutTheMarkerAreNoFrames) {
  EXPECT_EQ(ParseFrame("srun: error: node3: task 2: Exited with exit code 1").kind,
            ParsedFrame::kNoFrame);
  EXPECT_EQ(ParseFrame("").kind, ParsedFrame::kNoFrame);
}

TEST(NodeFrames, DamagedFramesSayWhyAndKeepTheirTagWhenTheyCan) {
  struct Case {
    const char* line;
    const char* tag;
  } cases[] = {
      {"@mpidbg.frame/1 n1 x . 3 abc", "n1"},          // sequence not a number
      {"@mpidbg.frame/1 n1 -1 . 3 abc", "n1"},         // negative
      {"@mpidbg.frame/1 n1 0 ? 3 abc", "n1"},          // unknown flag
      {"@mpidbg.frame/1 n1 0 . 5 a%zzb", "n1"},        // bad escape
      {"@mpidbg.frame/1 n1 0 . 5 abc%4", "n1"},        // escape cut short (length agrees)
      {"@mpidbg.frame/1 n1 0 . 9 abc", "n1"},          // cut short: length disagrees
      {"@mpidbg.frame/1 n1 0 . x abc", "n1"},          // length not a number
      {"@mpidbg.frame/1 n1 0 . 3 a b", "n1"},          // a space inside the chunk
      {"@mpidbg.frame/1 n1 0 $ 3 abc", "n1"},          // an end frame with text
      {"@mpidbg.frame/1 n1 0 .", "n1"},                // too few fields
      {"@mpidbg.frame/1 n/1 0 . 3 abc", ""},           // not a host name
      {"@mpidbg.frame/1 n1 99999999999999999999 . 1 a", "n1"},
      {"@mpidbg.frame/12 n1 0 . 3 abc", ""},           // another version
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    ParsedFrame p = ParseFrame(c.line);
    EXPECT_EQ(p.kind, ParsedFrame::kBadFrame);
    EXPECT_FALSE(p.why.empty());
    EXPECT_EQ(p.frame.tag, c.tag);
  }
  std::string long_frame = "@mpidbg.frame/1 n1 0 . " + std::to_string(kMaxFrameChunkChars + 1) +
                           " " + std::string(kMaxFrameChunkChars + 1, 'a');
  EXPECT_EQ(ParseFrame(long_frame).kind, ParsedFrame::kBadFrame);
}

TEST(NodeFrames, AnUnusableTagIsReplaced) {
  std::vector<std::string> frames = FramesOf({"x"}, "bad tag/with slash");
  EXPECT_EQ(ParseFrame(frames[0]).frame.tag, "unnamed");
}

}  // namespace
}  // namespace mpidbg::host
