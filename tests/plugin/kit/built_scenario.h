// built_scenario.h — a test fixture over the main scenario that lets each test add to
// the image (traffic, metadata, ...) before the debugger session starts.
#ifndef MPIDBG_TESTS_PLUGIN_BUILT_SCENARIO_H
#define MPIDBG_TESTS_PLUGIN_BUILT_SCENARIO_H

#include <memory>

#include <gtest/gtest.h>

#include "scenario.h"
#include "session.h"
#include "test_kinds.h"

namespace mpidbg::test {

class BuiltScenario : public testing::TestWithParam<KindAndHandles> {
 protected:
  // The main scenario of this target kind plus what `fill` adds, committed, with a
  // session set up on it.
  template <typename Fill>
  void Start(Fill fill) {
    scenario_ = build_main_scenario(GetParam().kind, GetParam().handle_size);
    fill(*scenario_.builder);
    scenario_.builder->commit();
    session_ = std::make_unique<Session>(scenario_.target.get());
    ASSERT_EQ(session_->start(), mqs_ok) << session_->process_message;
  }
  const PluginApi& p() { return plugin(); }
  mqs_process* proc() { return session_->process(); }

  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_BUILT_SCENARIO_H
