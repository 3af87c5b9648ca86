// profile_html.cc — the profile page, from the same model as the text and JSON (each
// rank's detail is its mpidbg.profile/1 rank object).
#include "host/profile/profile_html.h"

#include <algorithm>
#include <cstdio>

#include "host/profile/profile_json.h"
#include "page/html_text.h"
#include "page/page_frame.h"

namespace mpidbg::profile {
namespace {

using page::Escape;

std::string Percent(uint64_t part, uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole == 0 ? 0.0 : 100.0 * part / whole);
  return buf;
}

std::string SecondsText(uint64_t samples, int64_t period_ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", Seconds(samples, period_ns));
  return buf;
}

std::string Width(uint64_t part, uint64_t scale) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", scale == 0 ? 0.0 : 100.0 * part / scale);
  return buf;
}

// One bar of the three states, its length relative to `scale` samples.
std::string StateBar(const std::string& label, const std::string& rank_attr,
                     const StateCounts& s, uint64_t scale, int64_t period_ns) {
  const uint64_t total = s.Total();
  const std::string hover = label + ": outside MPI " + SecondsText(s.not_in_mpi, period_ns) +
                            " (" + Percent(s.not_in_mpi, total) + "), in MPI working " +
                            SecondsText(s.in_mpi, period_ns) + " (" + Percent(s.in_mpi, total) +
                            "), blocked " + SecondsText(s.blocked, period_ns) + " (" +
                            Percent(s.blocked, total) + ")";
  return "<div class=\"barrow\" data-hover=\"" + Escape(hover) + "\"" + rank_attr +
         "><span class=\"barlabel\">" + Escape(label) + "</span><span class=\"barbox\">"
         "<span class=\"s-out\" style=\"width:" + Width(s.not_in_mpi, scale) + "\"></span>"
         "<span class=\"s-work\" style=\"width:" + Width(s.in_mpi, scale) + "\"></span>"
         "<span class=\"s-blocked\" style=\"width:" + Width(s.blocked, scale) + "\"></span>"
         "</span><span class=\"barvalue\">blocked " + Percent(s.blocked, total) + "</span></div>\n";
}

const char* kKey =
    "<p class=\"key\"><span class=\"s-out\"></span>outside MPI<span class=\"s-work\"></span>in "
    "MPI, working<span class=\"s-blocked\"></span>in MPI, blocked (waiting for other "
    "processes)</p>\n";

// Rank bars shown at most; the lookup has every rank.
constexpr std::size_t kRankBars = 512;

std::string Ranks(const JobProfile& job) {
  uint64_t longest = 0;
  for (const RankProfile& r : job.ranks) longest = std::max(longest, r.samples.Total());
  std::string out = kKey;
  std::size_t shown = 0;
  for (const RankProfile& r : job.ranks) {
    if (shown++ == kRankBars) {
      out += "<p class=\"note\">The first " + std::to_string(kRankBars) + " of " +
             std::to_string(job.ranks.size()) + " ranks; look any rank up above.</p>\n";
      break;
    }
    const std::string attr = " data-rank=\"" + std::to_string(r.rank) + "\"";
    if (!r.present) {
      out += "<div class=\"barrow\"" + attr + "><span class=\"barlabel\">rank " +
             std::to_string(r.rank) + "</span><span class=\"note\">not read</span></div>\n";
      continue;
    }
    out += StateBar("rank " + std::to_string(r.rank), attr, r.samples, longest, job.period_ns);
  }
  return out;
}

// Functions and call sites: working and blocked time, longest first.
template <typename T>
std::string CallBars(const std::vector<T>& items, const std::string& (*name)(const T&),
                     int64_t period_ns) {
  constexpr std::size_t kShown = 30;
  uint64_t longest = 0;
  for (const T& t : items) longest = std::max(longest, t.working + t.blocked);
  std::string out;
  for (std::size_t k = 0; k < items.size() && k < kShown; ++k) {
    StateCounts s;
    s.in_mpi = items[k].working;
    s.blocked = items[k].blocked;
    out += StateBar(name(items[k]), "", s, longest, period_ns);
  }
  if (items.empty()) out = "<p class=\"note\">No samples in MPI.</p>\n";
  return out;
}

const std::string& FunctionName(const FunctionSamples& f) { return f.call; }
const std::string& SiteName(const SiteSamples& s) { return s.site; }

std::string Data(const JobProfile& job) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankProfile& r : job.ranks) {
    if (r.present) ranks.push_back(ProfileRankObject(r, job.period_ns));
  }
  return nlohmann::json{{"ranks", std::move(ranks)}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string ProfileToHtml(const JobProfile& job) {
  page::Page p;
  const StateCounts& s = job.samples;
  const uint64_t total = s.Total();
  p.title = "mpidbg profile: " + std::to_string(job.world_size) + " ranks";
  std::size_t missing = 0;
  for (const RankProfile& r : job.ranks) missing += !r.present;
  if (missing > 0) {
    p.verdict.push_back("INCOMPLETE: " + std::to_string(missing) + " of " +
                        std::to_string(job.ranks.size()) + " ranks not read");
  }
  p.verdict.push_back("in MPI, blocked: " + Percent(s.blocked, total) + " of the time sampled (" +
                      SecondsText(s.blocked, job.period_ns) + ")");
  p.verdict.push_back("outside MPI " + Percent(s.not_in_mpi, total) + ", in MPI working " +
                      Percent(s.in_mpi, total) + "; " + std::to_string(total) + " samples, " +
                      SecondsText(total, job.period_ns) + " over all ranks");
  p.tone = missing > 0 ? page::Tone::kOpen : page::Tone::kGood;
  p.sections.push_back({"job", "the job",
                        std::string(kKey) + StateBar("all ranks", "", s, total, job.period_ns)});
  p.sections.push_back({"ranks", "ranks", Ranks(job)});
  p.sections.push_back({"functions", "MPI functions (working and blocked)",
                        CallBars<FunctionSamples>(job.functions, FunctionName, job.period_ns)});
  p.sections.push_back({"sites", "call sites (working and blocked)",
                        CallBars<SiteSamples>(job.sites, SiteName, job.period_ns)});
  p.data_json = Data(job);
  return page::RenderPage(p);
}

}  // namespace mpidbg::profile
