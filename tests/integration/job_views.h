// job_views.h — what the integration tests ask `mpidbg job` (gtest-side helpers over
// mpi_job.h's Mpidbg; mpi_job.cc itself stays free of gtest for the benchmarks).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "mpi_job.h"

namespace mpidbg::itest {

// `mpidbg job TARGET_ARGS --json`; a non-zero exit status fails the test.
inline nlohmann::json JobJson(const std::vector<std::string>& target_args) {
  std::vector<std::string> args = {"job"};
  args.insert(args.end(), target_args.begin(), target_args.end());
  args.push_back("--json");
  MpidbgResult r = Mpidbg(args);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  return r.json;
}

// JobJson of running processes (`--pids pid_list`), asked every 250 ms until `settled`
// holds or `seconds` pass: the last answer either way.
inline nlohmann::json JobJsonWhen(const std::string& pid_list,
                                  const std::function<bool(const nlohmann::json&)>& settled,
                                  int seconds = 30) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  nlohmann::json view;
  for (;;) {
    view = JobJson({"--pids", pid_list});
    if ((view.is_object() && settled(view)) || std::chrono::steady_clock::now() > deadline) {
      return view;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

inline bool DeadlockDetected(const nlohmann::json& job) {
  return job["deadlock"]["detected"] == true;
}

}  // namespace mpidbg::itest
