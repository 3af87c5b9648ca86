// progress_line_test.cc — the progress line with a made-up terminal and clock: drawn
// only when enabled, at most ten times a second, always at the end, and erased.
#include "host/util/progress_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpidbg::host {
namespace {

struct FakeTerminal {
  double now = 0.0;
  std::vector<std::string> writes;

  ProgressOutput Output(bool enabled) {
    ProgressOutput out;
    out.enabled = enabled;
    out.seconds = [this] { return now; };
    out.write = [this](const std::string& s) { writes.push_back(s); };
    return out;
  }
};

const std::string kErase = "\r\033[K";

TEST(ProgressLine, WritesNothingWhenDisabled) {
  FakeTerminal t;
  {
    ProgressLine line("reading cores", 3, t.Output(false));
    for (std::size_t i = 1; i <= 3; ++i) line.Update(i);
    line.Clear();
  }
  EXPECT_TRUE(t.writes.empty());
}

TEST(ProgressLine, DrawsAtStartAndAtTheLastItemThenErases) {
  FakeTerminal t;
  {
    ProgressLine line("reading cores", 256, t.Output(true));
    line.Update(37);   // same instant as the start: skipped
    line.Update(256);  // the last item is always drawn
  }
  ASSERT_EQ(t.writes.size(), 3u);
  EXPECT_EQ(t.writes[0], kErase + "reading cores 0/256 ...");
  EXPECT_EQ(t.writes[1], kErase + "reading cores 256/256 ...");
  EXPECT_EQ(t.writes[2], kErase);
}

TEST(ProgressLine, AtMostTenRedrawsASecond) {
  FakeTerminal t;
  ProgressLine line("reading processes", 1000, t.Output(true));
  for (std::size_t i = 1; i < 1000; ++i) {
    t.now += 0.001;  // 1000 items in one second
    line.Update(i);
  }
  line.Finish();
  // The first draw, about one per 0.1 s, and the final erase.
  EXPECT_GE(t.writes.size(), 10u);
  EXPECT_LE(t.writes.size(), 13u);
  EXPECT_EQ(t.writes.back(), kErase);
}

TEST(ProgressLine, ClearMakesRoomForAMessageAndTheNextUpdateRedraws) {
  FakeTerminal t;
  ProgressLine line("reading ranks", 4, t.Output(true));
  line.Clear();
  line.Update(1);  // redrawn at once, although no time passed
  ASSERT_EQ(t.writes.size(), 3u);
  EXPECT_EQ(t.writes[1], kErase);
  EXPECT_EQ(t.writes[2], kErase + "reading ranks 1/4 ...");
  line.Finish();
  line.Finish();  // erased once
  line.Update(2);  // nothing after the end
  EXPECT_EQ(t.writes.size(), 4u);
}

TEST(ProgressWanted, EnvironmentOverridesTheTerminal) {
  EXPECT_TRUE(ProgressWanted(nullptr, true));
  EXPECT_FALSE(ProgressWanted(nullptr, false));
  EXPECT_FALSE(ProgressWanted("0", true));
  EXPECT_TRUE(ProgressWanted("1", false));
  EXPECT_TRUE(ProgressWanted("", true));
  EXPECT_FALSE(ProgressWanted("yes", false));
}

}  // namespace
}  // namespace mpidbg::host
