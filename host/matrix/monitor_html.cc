// monitor_html.cc — the matrix page, from the same model as the text and the SVG; the
// heat maps are monitor_svg's own, made inline.
#include "host/matrix/monitor_html.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "host/matrix/monitor_svg.h"
#include "page/html_text.h"
#include "page/page_frame.h"

namespace mpidbg::monitor {
namespace {

using page::Escape;

struct RankTotals {
  uint64_t sent_messages = 0, sent_bytes = 0, received_messages = 0, received_bytes = 0;
  std::size_t peers = 0;
};

RankTotals TotalsOf(const RankMonitor& r) {
  RankTotals t;
  for (const auto& [peer, c] : r.peers) {
    t.sent_messages += c.sent_messages;
    t.sent_bytes += c.sent_bytes;
    t.received_messages += c.received_messages;
    t.received_bytes += c.received_bytes;
    t.peers += c.sent_messages + c.received_messages > 0;
  }
  return t;
}

std::string Bytes(uint64_t v) {
  return "<td class=\"num\" title=\"" + std::to_string(v) + " bytes\">" + Escape(FormatBytes(v)) +
         "</td>";
}
std::string Count(uint64_t v) { return "<td class=\"num\">" + std::to_string(v) + "</td>"; }

std::string RankCell(int rank) {
  return "<td><span class=\"ranks\" data-rank=\"" + std::to_string(rank) + "\">" +
         std::to_string(rank) + "</span></td>";
}

// The table lists this many ranks at most; the lookup has every one.
constexpr int kRanksListed = 256;

std::string RanksTable(const JobMonitor& job) {
  std::string out = "<table class=\"data\"><tr><th>rank</th><th>host</th><th>pid</th>"
                    "<th>sent messages</th><th>sent</th><th>received messages</th>"
                    "<th>received</th><th>peers</th></tr>\n";
  int listed = 0;
  for (const RankMonitor& r : job.ranks) {
    if (listed++ == kRanksListed) break;
    if (!r.present) {
      out += "<tr>" + RankCell(r.rank) + "<td colspan=\"7\">not read</td></tr>\n";
      continue;
    }
    const RankTotals t = TotalsOf(r);
    out += "<tr>" + RankCell(r.rank) + "<td>" + Escape(r.host) + "</td>" + Count(r.pid) +
           Count(t.sent_messages) + Bytes(t.sent_bytes) + Count(t.received_messages) +
           Bytes(t.received_bytes) + Count(t.peers) + "</tr>\n";
  }
  out += "</table>\n";
  if (static_cast<int>(job.ranks.size()) > kRanksListed) {
    out += "<p class=\"note\">The first " + std::to_string(kRanksListed) + " of " +
           std::to_string(job.ranks.size()) + " ranks; look any rank up above.</p>\n";
  }
  return out;
}

std::string Bar(const std::string& label, double fraction, const std::string& value,
                const std::string& hover) {
  char width[32];
  std::snprintf(width, sizeof width, "%.2f%%", 100.0 * std::clamp(fraction, 0.0, 1.0));
  return "<div class=\"barrow\" data-hover=\"" + Escape(hover) + "\"><span class=\"barlabel\">" +
         Escape(label) + "</span><span class=\"barbox\"><span class=\"s-out\" style=\"width:" +
         width + "\"></span></span><span class=\"barvalue\">" + Escape(value) + "</span></div>\n";
}

std::string Sizes(const JobMonitor& job) {
  const auto h = JobHistogram(job);
  uint64_t most = 0, all = 0;
  for (uint64_t n : h) {
    most = std::max(most, n);
    all += n;
  }
  if (all == 0) return "<p class=\"note\">No point-to-point messages.</p>\n";
  std::string out;
  for (int b = 0; b < kBuckets; ++b) {
    if (h[b] == 0) continue;
    const std::string label = BucketLabel(b);
    out += Bar(label, static_cast<double>(h[b]) / most, std::to_string(h[b]),
               label + ": " + std::to_string(h[b]) + " messages sent");
  }
  return out;
}

std::string Collectives(const JobMonitor& job) {
  const auto sum = JobCollectives(job);
  std::string out = "<table class=\"data\"><tr><th>kind</th><th>operations</th><th>sent</th>"
                    "<th>received</th></tr>\n";
  for (int k = 0; k < kCollKinds; ++k) {
    out += "<tr><td>" + Escape(kCollKindNames[k]) + "</td>" + Count(sum[k].operations) +
           Bytes(sum[k].bytes_sent) + Bytes(sum[k].bytes_received) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string HeatMap(const JobMonitor& job, View view, Metric metric) {
  const Matrix m = BuildMatrix(job, view, metric);
  const std::string title = std::string(ViewName(view)) + " " + MetricName(metric) + " (" +
                            job.which + "), " + std::to_string(job.world_size) + " ranks";
  return "<div class=\"picture\">" + page::InlineSvg(MatrixToSvg(m, title, metric)) + "</div>\n";
}

std::string Data(const JobMonitor& job) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankMonitor& r : job.ranks) {
    const RankTotals t = TotalsOf(r);
    ranks.push_back({{"rank", r.rank},
                     {"read", r.present},
                     {"host", r.host},
                     {"pid", r.pid},
                     {"sent_messages", t.sent_messages},
                     {"sent", FormatBytes(t.sent_bytes)},
                     {"sent_bytes", t.sent_bytes},
                     {"received_messages", t.received_messages},
                     {"received", FormatBytes(t.received_bytes)},
                     {"received_bytes", t.received_bytes},
                     {"peers", t.peers}});
  }
  return nlohmann::json{{"ranks", std::move(ranks)}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string MonitorToHtml(const JobMonitor& job, View view) {
  page::Page p;
  p.title = "mpidbg matrix: " + std::to_string(job.world_size) + " ranks, " + ViewName(view) +
            " (" + job.which + ")";
  const Matrix bytes = BuildMatrix(job, view, Metric::kBytes);
  const Matrix messages = BuildMatrix(job, view, Metric::kMessages);
  std::size_t missing = 0;
  for (const RankMonitor& r : job.ranks) missing += !r.present;
  if (missing > 0) {
    p.verdict.push_back("INCOMPLETE: " + std::to_string(missing) + " of " +
                        std::to_string(job.ranks.size()) + " ranks not read");
  }
  p.verdict.push_back(std::string(ViewName(view)) + ": " + FormatBytes(bytes.Total()) + " in " +
                      std::to_string(messages.Total()) + " messages between " +
                      std::to_string(std::max(bytes.cells.size(), messages.cells.size())) +
                      " pairs of ranks");
  const Cell* top = nullptr;
  for (const Cell& c : bytes.cells) {
    if (top == nullptr || c.value > top->value) top = &c;
  }
  if (top != nullptr) {
    p.verdict.push_back("most: rank " + std::to_string(top->from) + " to rank " +
                        std::to_string(top->to) + ", " + FormatBytes(top->value));
  }
  p.tone = missing > 0 ? page::Tone::kOpen : page::Tone::kGood;
  p.sections.push_back({"bytes", "bytes sent, sender x receiver",
                        HeatMap(job, view, Metric::kBytes)});
  p.sections.push_back({"messages", "messages sent, sender x receiver",
                        HeatMap(job, view, Metric::kMessages)});
  p.sections.push_back({"ranks", "ranks", RanksTable(job)});
  p.sections.push_back({"sizes", "point-to-point message sizes", Sizes(job)});
  p.sections.push_back({"collectives", "collectives", Collectives(job)});
  p.data_json = Data(job);
  return page::RenderPage(p);
}

}  // namespace mpidbg::monitor
