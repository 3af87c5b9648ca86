// profile_plugin.cc — reading the sampling counters through the plugin.
#include "host/profile/profile_plugin.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "host/util/json_fields.h"

namespace mpidbg::profile {
namespace {

// Bounds on counts the target reports (never used to size anything unchecked).
constexpr int kMaxFunctions = 4096;
constexpr int kMaxSites = 1 << 16;

using extensions::Bounded;
using extensions::Sized;

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

SiteSamples SiteAt(host::SymbolIndex& symbols, const mpidbg_profile_site_info& info) {
  SiteSamples s;
  s.call = Bounded(info.call_name, sizeof info.call_name);
  s.working = info.working;
  s.blocked = info.blocked;
  std::optional<host::CodeLocation> where = symbols.DescribeAddress(info.address);
  if (!where) {
    // Outside every module (JIT code, or a module the core does not name).
    s.offset = Hex(info.address);
    s.site = s.offset;
    return s;
  }
  s.module = where->module;
  s.offset = Hex(where->offset);
  s.symbol = where->symbol;
  s.site = SiteName(where->module, where->offset);
  // The site is the MPI call's return address: its call instruction ends one byte
  // before. Where the module has DWARF the site reads as the program's file:line.
  if (info.address > 0) {
    if (auto line = symbols.SourceLineAt(info.address - 1)) s.site = SourceSiteName(line->first, line->second);
  }
  return s;
}

}  // namespace

std::string SiteName(const std::string& module, uint64_t offset) {
  size_t slash = module.rfind('/');
  std::string base = slash == std::string::npos ? module : module.substr(slash + 1);
  return base + "+" + Hex(offset);
}

std::string SourceSiteName(const std::string& file, int line) {
  size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

host::Result<RankSampling> ReadRankProfile(extensions::ExtensionTarget& t) {
  const host::ExtensionFunctions& e = t.dll.extensions();
  if (!t.dll.has_profile_extension()) {
    return host::Status::NoSupport("the plugin " + t.dll.path() +
                                   " does not report MPI-state samples (no mpidbg_profile_read)");
  }
  mqs_process* proc = t.session.process();
  RankSampling out;
  RankProfile& r = out.rank;
  mpidbg_process_summary summary;
  if (extensions::ReadProcessSummary(t, &summary)) {
    r.rank = summary.world_rank;
    r.pid = summary.pid;
    r.host = Bounded(summary.hostname, sizeof summary.hostname);
    out.world_size = summary.world_size;
  }
  auto s = Sized<mpidbg_profile_summary>();
  int rc = e.profile_read(proc, &s);
  if (rc == mqs_no_information) {
    return host::Status::NoSupport(
        "MPI-state sampling never ran in this process (run the job with `mpidbg run --profile`)");
  }
  if (rc != mqs_ok) {
    return host::Status::Unreadable("cannot read the sampling counters: " + t.session.Explain(rc));
  }
  r.present = true;
  r.threads = s.threads;
  r.lost = s.lost;
  r.start_time_ns = s.start_time_ns;
  r.stop_time_ns = s.stop_time_ns;
  r.samples = {s.samples[MPIDBG_THREAD_NOT_IN_MPI], s.samples[MPIDBG_THREAD_IN_MPI],
               s.samples[MPIDBG_THREAD_BLOCKED]};
  out.period_ns = s.period_ns;
  out.clock = s.clock == MPIDBG_PROFILE_CPU ? "cpu" : "wall";
  out.signal = s.signal;
  int functions = std::clamp(s.function_count, 0, kMaxFunctions);
  for (int i = 0; i < functions; ++i) {
    auto info = Sized<mpidbg_profile_function_info>();
    if (e.profile_function_get(proc, i, &info) != mqs_ok) continue;
    if (info.working == 0 && info.blocked == 0) continue;
    r.functions.push_back({Bounded(info.call_name, sizeof info.call_name), info.working,
                           info.blocked});
  }
  SortFunctions(&r.functions);
  int sites = std::clamp(s.site_count, 0, kMaxSites);
  for (int i = 0; i < sites; ++i) {
    auto info = Sized<mpidbg_profile_site_info>();
    if (e.profile_site_get(proc, i, &info) != mqs_ok) continue;
    r.sites.push_back(SiteAt(t.target.symbols(), info));
  }
  SortSites(&r.sites);
  return out;
}

host::Result<RankSampling> ReadTargetProfile(const host::TargetSpec& spec) {
  host::Result<RankSampling> out = host::Status::Unreadable("not read");
  host::Status st = extensions::WithExtensionTarget(spec, [&](extensions::ExtensionTarget& t) {
    auto rank = ReadRankProfile(t);
    if (!rank.ok()) return rank.status();
    if (rank->rank.rank < 0 || rank->rank.rank >= rank->world_size) {
      return host::Status::Unreadable("the process names no world rank of its job");
    }
    out = std::move(rank.value());
    return host::Status::Ok();
  });
  if (!st.ok()) return st;
  return out;
}

host::Result<JobProfile> ReadJobProfile(const std::vector<host::TargetSpec>& targets) {
  JobProfile job;
  job.source = "live";
  std::vector<RankProfile> read;
  int world_size = 0;
  host::Status st = extensions::ReadEachTarget<RankSampling>(
      targets, &job.source, [](extensions::ExtensionTarget& t) { return ReadRankProfile(t); },
      [&](size_t i, RankSampling& rank) {
        if (rank.rank.rank < 0) rank.rank.rank = static_cast<int>(i);
        if (job.period_ns == 0) {
          job.period_ns = rank.period_ns;
          job.clock = rank.clock;
          job.signal = rank.signal;
        }
        world_size = std::max(world_size, rank.world_size);
        read.push_back(std::move(rank.rank));
      });
  if (!st.ok()) return st;
  // A rank beyond the summaries' world size (or without a summary) widens the job.
  for (const RankProfile& r : read) world_size = std::max(world_size, r.rank + 1);
  world_size = std::min(world_size, host::kMaxWorldSize);
  job.world_size = world_size;
  job.ranks.resize(static_cast<size_t>(world_size));
  for (int i = 0; i < world_size; ++i) job.ranks[static_cast<size_t>(i)].rank = i;
  for (RankProfile& r : read) {
    if (r.rank >= world_size || job.ranks[static_cast<size_t>(r.rank)].present) {
      std::fprintf(stderr, "mpidbg: rank %d was given twice or is out of range; left out\n",
                   r.rank);
      continue;
    }
    job.ranks[static_cast<size_t>(r.rank)] = std::move(r);
  }
  MergeRanks(&job);
  return job;
}

}  // namespace mpidbg::profile
