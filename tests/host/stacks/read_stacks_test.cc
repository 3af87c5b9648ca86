// Stacks of a forked child's threads, live (stopped by our ptrace) and from a gcore
// core: the child's loop and its threads' lambda appear with this tree's file and line.
#include <gtest/gtest.h>

#include <string>

#include "core_fixture.h"
#include "host/stacks/read_stacks.h"
#include "host/stacks/unwind.h"
#include "host/target/opened_target.h"
#include "test_child.h"

namespace mpidbg::host {
namespace {

bool HasFrameIn(const ThreadStack& stack, const std::string& file_suffix) {
  for (const model::Frame& f : stack.frames) {
    if (f.file && f.line && *f.line > 0 && f.file->size() >= file_suffix.size() &&
        f.file->compare(f.file->size() - file_suffix.size(), file_suffix.size(), file_suffix) ==
            0) {
      return true;
    }
  }
  return false;
}

std::string Dump(const ThreadStack& stack) {
  std::string out = stack.error.value_or("") + "\n";
  for (const model::Frame& f : stack.frames) {
    out += f.function.value_or("?") + " " + f.file.value_or("-") + ":" +
           std::to_string(f.line.value_or(0)) + " " + f.module + "\n";
  }
  return out;
}

void ExpectChildStacks(OpenedTarget& target) {
  const std::vector<int64_t> tids = target.tids();
  ASSERT_EQ(tids.size(), 3u);
  StackReadCost cost;
  std::map<int64_t, ThreadStack> stacks = ReadStacks(target, tids, &cost);
  EXPECT_EQ(cost.threads, 3);
  ASSERT_EQ(stacks.size(), 3u);
  for (int64_t tid : tids) {
    const ThreadStack& stack = stacks[tid];
    SCOPED_TRACE(Dump(stack));
    EXPECT_FALSE(stack.error.has_value());
    ASSERT_GE(stack.frames.size(), 1u);
    EXPECT_LE(stack.frames.size(), kMaxFrames);
    EXPECT_NE(stack.frames[0].pc, 0u);
    // The main thread sleeps in usleep called from test_child.cc's loop (the other
    // threads may still be starting when a live child is read).
    if (tid == target.pid()) {
      EXPECT_TRUE(HasFrameIn(stack, "test_child.cc"));
    }
  }
}

TEST(ReadStacks, LiveChildThreads) {
  pid_t child = test::StartChild({2, nullptr});
  TargetSpec spec;
  spec.pid = child;
  auto target = OpenedTarget::Open(spec);
  ASSERT_TRUE(target.ok()) << target.status().message();
  ExpectChildStacks(*target.value());
  ASSERT_TRUE(target.value()->Close().ok());
  // Left running as found: libdwfl neither attached nor detached on its own.
  EXPECT_NE(test::ProcessState(child), 't');
  test::StopChild(child);
}

TEST(ReadStacks, CoreThreads) {
  const std::string& core = test::SharedCore();
  if (core.empty()) GTEST_SKIP() << "no gcore";
  TargetSpec spec;
  spec.core = core;
  auto target = OpenedTarget::Open(spec);
  ASSERT_TRUE(target.ok()) << target.status().message();
  ExpectChildStacks(*target.value());
}

TEST(ReadStacks, AttachStacksJoinsByTid) {
  std::map<int64_t, ThreadStack> stacks;
  stacks[7].frames.push_back(model::Frame{std::string("main"), std::nullopt, std::nullopt, "a", 1});
  stacks[8].error = "no CFI";
  std::vector<model::Thread> threads(3);
  threads[0].tid = 7;
  threads[1].tid = 8;
  threads[2].tid = 9;
  AttachStacks(std::move(stacks), &threads);
  ASSERT_EQ(threads[0].frames.size(), 1u);
  EXPECT_EQ(threads[1].stack_error, "no CFI");
  EXPECT_TRUE(threads[2].frames.empty());
  EXPECT_FALSE(threads[2].stack_error.has_value());
}

}  // namespace
}  // namespace mpidbg::host
