// profile_check.h — what the MPI-state sampling checks share: timed busy loops, the
// runtime's profile block, the job file parsed (nlohmann_json), and lookups in it.
#ifndef MPIDBG_TESTS_RUNTIME_PROFILE_CHECK_H
#define MPIDBG_TESTS_RUNTIME_PROFILE_CHECK_H

#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "mpidbg/call_ids.h"
#include "mpidbg/records.h"
#include "rt_check.h"

namespace profcheck {

using nlohmann::json;

inline double Now() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Computes (outside MPI) until `seconds` of wall time have passed.
inline void Busy(double seconds) {
  const double end = Now() + seconds;
  volatile uint64_t x = 0;
  while (Now() < end) {
    for (int i = 0; i < 1000; ++i) x = x + static_cast<uint64_t>(i);
  }
}

inline const mpidbg_profile* Block() {
  const mpidbg_root* root = rtcheck::Root();
  return root == nullptr ? nullptr : rtcheck::At<mpidbg_profile>(root->profile);
}

// Samples of one MPI function in the block, working + blocked.
inline const mpidbg_profile_function* BlockFunction(const mpidbg_profile* b, int32_t call) {
  if (b == nullptr || call <= 0 || static_cast<uint32_t>(call) >= b->function_count) return nullptr;
  return rtcheck::At<mpidbg_profile_function>(b->functions) + call;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// The parsed file (a discarded value when missing or not JSON).
inline json Load(const std::string& path) {
  return json::parse(ReadFile(path), nullptr, /*allow_exceptions=*/false);
}

inline std::string ExePath() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// A numeric member, or -1 when missing.
inline long long Num(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return -1;
  return j[key].get<long long>();
}

// The entry of `array` whose "call" is `call` (a null json when none).
inline json ByCall(const json& array, const char* call) {
  if (!array.is_array()) return json();
  for (const auto& e : array) {
    if (e.is_object() && e.value("call", "") == call) return e;
  }
  return json();
}

// Entries of a "sites" array with the given call.
inline std::vector<json> SitesOf(const json& sites, const char* call) {
  std::vector<json> out;
  if (!sites.is_array()) return out;
  for (const auto& s : sites) {
    if (s.is_object() && s.value("call", "") == call) out.push_back(s);
  }
  return out;
}

// The job's file name when MPIDBG_PROFILE_OUT is not set: "mpidbg-profile.<job>.json",
// the launch record's job id with bytes outside [A-Za-z0-9._-] made '_'.
inline std::string DefaultPath() {
  const mpidbg_root* root = rtcheck::Root();
  const auto* launch = root != nullptr ? rtcheck::At<mpidbg_launch_info>(root->launch) : nullptr;
  std::string job = launch != nullptr ? launch->job_id : "";
  for (char& c : job) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  if (job.empty()) job = "unknown";
  return "mpidbg-profile." + job + ".json";
}

// Checks that hold for every file: schema, the job's totals are the sums of the ranks'.
inline void CheckSums(const json& doc, int world_size) {
  RT_CHECK(doc.is_object());
  if (!doc.is_object()) return;
  RT_CHECK(doc.value("schema", "") == "mpidbg.profile/1");
  const json& job = doc["job"];
  const json& ranks = doc["ranks"];
  RT_CHECK_EQ(Num(job, "world_size"), world_size);
  RT_CHECK(ranks.is_array() && static_cast<int>(ranks.size()) == world_size);
  if (!ranks.is_array()) return;
  for (const char* state : {"not_in_mpi", "in_mpi", "blocked"}) {
    long long sum = 0;
    for (const auto& r : ranks) sum += Num(r["samples"], state);
    RT_CHECK_EQ(Num(job["samples"], state), sum);
  }
  for (const auto& f : job["functions"]) {
    long long working = 0, blocked = 0;
    for (const auto& r : ranks) {
      json rf = ByCall(r["functions"], f.value("call", "").c_str());
      if (rf.is_object()) working += Num(rf, "working"), blocked += Num(rf, "blocked");
    }
    RT_CHECK_EQ(Num(f, "working"), working);
    RT_CHECK_EQ(Num(f, "blocked"), blocked);
  }
  long long site_samples = 0, rank_site_samples = 0;
  for (const auto& s : job["sites"]) site_samples += Num(s, "working") + Num(s, "blocked");
  for (const auto& r : ranks) {
    for (const auto& s : r["sites"]) rank_site_samples += Num(s, "working") + Num(s, "blocked");
  }
  RT_CHECK_EQ(site_samples, rank_site_samples);
  for (int i = 0; i < world_size; ++i) RT_CHECK_EQ(Num(ranks[i], "rank"), i);
}

}  // namespace profcheck

#endif  // MPIDBG_TESTS_RUNTIME_PROFILE_CHECK_H
