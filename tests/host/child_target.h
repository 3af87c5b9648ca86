// child_target.h — a fixture giving each test a forked child (test_child.h) as a live
// target for a DLL.
#pragma once

#include <stdlib.h>

#include <gtest/gtest.h>

#include <string>

#include "host/target/opened_target.h"
#include "test_child.h"

namespace mpidbg::test {

class ChildTarget : public ::testing::Test {
 protected:
  void SetUp() override { child_ = StartChild(); }
  void TearDown() override {
    // A test may have switched the fake DLL's behaviour for its own reads.
    unsetenv("MPIDBG_FAKE_DLL_MODE");
    StopChild(child_);
  }
  // The child, read through `plugin`.
  host::TargetSpec Spec(const std::string& plugin) const {
    host::TargetSpec spec;
    spec.pid = child_;
    spec.plugin = plugin;
    return spec;
  }
  bool ChildRuns() const {
    const char c = ProcessState(child_);
    return c != 'T' && c != 't' && c != 0;
  }
  pid_t child_ = 0;
};

}  // namespace mpidbg::test
