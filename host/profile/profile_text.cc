// profile_text.cc — the text of `mpidbg profile`.
#include "host/profile/profile_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace mpidbg::profile {
namespace {

double Share(uint64_t part, uint64_t total) {
  return total == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(total);
}

void Totals(std::ostringstream& out, const StateCounts& c, int64_t period_ns,
            const char* indent) {
  uint64_t total = c.Total();
  const std::pair<const char*, uint64_t> rows[] = {
      {"not in MPI", c.not_in_mpi}, {"in MPI, working", c.in_mpi}, {"in MPI, blocked", c.blocked}};
  char buf[128];
  for (const auto& [label, samples] : rows) {
    std::snprintf(buf, sizeof buf, "%s%-17s %10.3f s  %5.1f%%  (%llu samples)\n", indent, label,
                  Seconds(samples, period_ns), Share(samples, total),
                  static_cast<unsigned long long>(samples));
    out << buf;
  }
}

void Functions(std::ostringstream& out, const std::vector<FunctionSamples>& functions,
               int64_t period_ns) {
  out << "\ntop MPI functions:\n";
  if (functions.empty()) out << "  none sampled\n";
  char buf[160];
  for (size_t i = 0; i < functions.size() && i < kTopFunctions; ++i) {
    const FunctionSamples& f = functions[i];
    std::snprintf(buf, sizeof buf, "  %-24s working %.3f s, blocked %.3f s\n", f.call.c_str(),
                  Seconds(f.working, period_ns), Seconds(f.blocked, period_ns));
    out << buf;
  }
  if (functions.size() > kTopFunctions) {
    out << "  (" << functions.size() - kTopFunctions << " more)\n";
  }
}

void Sites(std::ostringstream& out, const std::vector<SiteSamples>& sites, int64_t period_ns,
           bool show_ranks) {
  out << "\ntop call sites:\n";
  if (sites.empty()) out << "  none sampled\n";
  char buf[160];
  for (size_t i = 0; i < sites.size() && i < kTopSites; ++i) {
    const SiteSamples& s = sites[i];
    std::snprintf(buf, sizeof buf, "working %.3f s, blocked %.3f s", Seconds(s.working, period_ns),
                  Seconds(s.blocked, period_ns));
    out << "  " << s.site << "  " << s.symbol.value_or("?") << "  " << s.call << ": " << buf;
    if (show_ranks) out << ", " << s.ranks << (s.ranks == 1 ? " rank" : " ranks");
    out << "\n";
  }
  if (sites.size() > kTopSites) out << "  (" << sites.size() - kTopSites << " more)\n";
}

void RankLine(std::ostringstream& out, const RankProfile& r) {
  if (!r.present) {
    out << "  rank " << r.rank << ": no data\n";
    return;
  }
  uint64_t total = r.samples.Total();
  char buf[160];
  std::snprintf(buf, sizeof buf, "not in MPI %5.1f%%, working %5.1f%%, blocked %5.1f%%",
                Share(r.samples.not_in_mpi, total), Share(r.samples.in_mpi, total),
                Share(r.samples.blocked, total));
  out << "  rank " << r.rank << ": " << buf;
  if (!r.functions.empty()) out << "; most in " << r.functions.front().call;
  out << " (pid " << r.pid << (r.host.empty() ? "" : " on " + r.host) << ")\n";
}

}  // namespace

std::string ProfileToText(const JobProfile& job, int rank) {
  std::ostringstream out;
  char period[64];
  std::snprintf(period, sizeof period, "%.3g ms", static_cast<double>(job.period_ns) / 1e6);
  if (rank >= 0) {
    const RankProfile& r = job.ranks[static_cast<size_t>(rank)];
    out << "MPI-state profile of rank " << rank << " (" << job.source << "), every " << period
        << " of " << job.clock << " time\n";
    if (!r.present) {
      out << "  no data for this rank\n";
      return out.str();
    }
    out << "pid " << r.pid << (r.host.empty() ? "" : " on " + r.host) << ", " << r.threads
        << (r.threads == 1 ? " thread" : " threads") << " sampled";
    if (r.lost != 0) out << ", " << r.lost << " samples without a call site";
    out << "\n";
    Totals(out, r.samples, job.period_ns, "  ");
    Functions(out, r.functions, job.period_ns);
    Sites(out, r.sites, job.period_ns, false);
    return out.str();
  }
  int present = 0;
  for (const RankProfile& r : job.ranks) present += r.present ? 1 : 0;
  out << "MPI-state profile: " << job.world_size << " ranks";
  if (present != job.world_size) out << ", " << present << " with data";
  out << " (" << job.source << "), every " << period << " of " << job.clock << " time\n";
  Totals(out, job.samples, job.period_ns, "  ");
  Functions(out, job.functions, job.period_ns);
  Sites(out, job.sites, job.period_ns, true);
  out << "\nranks:\n";
  for (const RankProfile& r : job.ranks) RankLine(out, r);
  return out.str();
}

}  // namespace mpidbg::profile
