// report_queries.h — what the analysis tests ask of a JobReport: a rank list literal,
// the wait of one rank, whether a hint was given, and every hint for a failure message.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "job/job_analysis.h"

namespace mpidbg::job::testing {

inline std::vector<int> Ranks(std::initializer_list<int> r) { return std::vector<int>(r); }

// The first wait requirement of rank `from`, nullptr when it has none.
inline const WaitRequirement* FindWait(const JobReport& report, int from) {
  for (const WaitRequirement& w : report.deadlock.waits) {
    if (w.from == from) return &w;
  }
  return nullptr;
}

inline bool HasHint(const JobReport& report, const std::string& hint) {
  return std::find(report.hints.begin(), report.hints.end(), hint) != report.hints.end();
}

inline std::string AllHints(const JobReport& report) {
  std::string all;
  for (const std::string& h : report.hints) all += "  " + h + "\n";
  return all;
}

}  // namespace mpidbg::job::testing
