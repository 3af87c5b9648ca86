// monitor_svg.cc — drawing the heat map. Zero cells are the white background (only
// non-zero cells are drawn, so a sparse 1024-rank matrix stays small); colours follow a
// logarithmic scale because communication volumes span orders of magnitude.
#include "host/matrix/monitor_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace mpidbg::monitor {
namespace {

constexpr int kPlotPixels = 768;  // the matrix area's side, at most
constexpr int kMaxCell = 24;
constexpr int kMaxLabels = 64;    // per axis
constexpr int kLeft = 70;
constexpr int kTop = 70;
constexpr int kLegendWidth = 150;

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Light blue (t = 0) to dark blue (t = 1).
std::string Colour(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const double lo[3] = {222, 235, 247};  // #deebf7
  const double hi[3] = {8, 48, 107};     // #08306b
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(lo[0] + (hi[0] - lo[0]) * t),
                static_cast<int>(lo[1] + (hi[1] - lo[1]) * t),
                static_cast<int>(lo[2] + (hi[2] - lo[2]) * t));
  return buf;
}

double Scale(uint64_t v, uint64_t lo, uint64_t hi) {
  if (hi <= lo) return 1.0;
  return std::log(static_cast<double>(v) / static_cast<double>(lo)) /
         std::log(static_cast<double>(hi) / static_cast<double>(lo));
}

std::string ShowValue(uint64_t v, Metric metric) {
  return metric == Metric::kBytes ? std::to_string(v) + " bytes" : std::to_string(v) + " messages";
}

std::string Ranks(int block_index, int block, int world_size) {
  int first = block_index * block;
  int last = std::min(first + block, world_size) - 1;
  return first == last ? "rank " + std::to_string(first)
                       : "ranks " + std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

SvgLayout LayoutFor(int world_size) {
  SvgLayout l;
  int n = std::max(world_size, 1);
  l.block = n <= kMaxSvgGrid ? 1 : (n + kMaxSvgGrid - 1) / kMaxSvgGrid;
  l.grid = (n + l.block - 1) / l.block;
  l.cell = std::clamp(kPlotPixels / l.grid, 2, kMaxCell);
  return l;
}

std::string MatrixToSvg(const Matrix& m, const std::string& title, Metric metric) {
  SvgLayout l = LayoutFor(m.size);
  // Cells summed per block (one block per cell when not aggregated).
  std::map<std::pair<int, int>, uint64_t> blocks;
  for (const Cell& c : m.cells) blocks[{c.from / l.block, c.to / l.block}] += c.value;
  uint64_t lo = 0, hi = 0;
  for (const auto& entry : blocks) {
    lo = (lo == 0 || entry.second < lo) ? entry.second : lo;
    hi = std::max(hi, entry.second);
  }
  const int plot = l.grid * l.cell;
  std::string full_title = title;
  if (l.block > 1) {
    full_title += " (aggregated: each cell is " + std::to_string(l.block) + " x " +
                  std::to_string(l.block) + " ranks)";
  }
  // Wide enough for the title (about 8 pixels a character at its size) on small jobs.
  const int width = std::max(kLeft + plot + kLegendWidth,
                             kLeft + 8 * static_cast<int>(full_title.size()) + 10);
  const int height = kTop + std::max(plot, 60) + 40;

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" font-family=\"sans-serif\" font-size=\"10\">\n"
      << "<title>" << Escape(full_title) << "</title>\n"
      << "<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
      << "<stop offset=\"0\" stop-color=\"" << Colour(0) << "\"/>"
      << "<stop offset=\"1\" stop-color=\"" << Colour(1) << "\"/></linearGradient></defs>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">"
      << Escape(full_title) << "</text>\n"
      << "<text x=\"" << kLeft << "\" y=\"34\">rows: sending rank, columns: receiving rank"
      << "</text>\n";

  // Axis labels, thinned out to at most kMaxLabels per axis.
  int step = std::max(1, (l.grid + kMaxLabels - 1) / kMaxLabels);
  svg << "<g class=\"labels\" fill=\"#333\">\n";
  for (int i = 0; i < l.grid; i += step) {
    int rank = i * l.block;
    int centre = i * l.cell + l.cell / 2;
    svg << "<text x=\"" << kLeft - 4 << "\" y=\"" << kTop + centre + 3
        << "\" text-anchor=\"end\">" << rank << "</text>";
    svg << "<text transform=\"translate(" << kLeft + centre + 3 << "," << kTop - 4
        << ") rotate(-90)\">" << rank << "</text>\n";
  }
  svg << "</g>\n";

  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot << "\" height=\""
      << plot << "\" fill=\"white\" stroke=\"#999\"/>\n";
  svg << "<g class=\"cells\">\n";
  for (const auto& [where, value] : blocks) {
    std::string tip = Ranks(where.first, l.block, m.size) + " to " +
                      Ranks(where.second, l.block, m.size) + ": " + ShowValue(value, metric);
    svg << "<rect class=\"cell\" x=\"" << kLeft + where.second * l.cell << "\" y=\""
        << kTop + where.first * l.cell << "\" width=\"" << l.cell << "\" height=\"" << l.cell
        << "\" fill=\"" << Colour(Scale(value, lo, hi)) << "\"><title>" << Escape(tip)
        << "</title></rect>\n";
  }
  svg << "</g>\n";

  // Legend: the scale's ends with their exact values.
  int lx = kLeft + plot + 20;
  int lh = std::min(plot, 200);
  svg << "<g class=\"legend\">\n"
      << "<rect x=\"" << lx << "\" y=\"" << kTop << "\" width=\"16\" height=\"" << lh
      << "\" fill=\"url(#scale)\" stroke=\"#999\"/>\n"
      << "<text x=\"" << lx + 22 << "\" y=\"" << kTop + 8 << "\">max " << hi << "</text>\n"
      << "<text x=\"" << lx + 22 << "\" y=\"" << kTop + lh << "\">min " << lo << "</text>\n"
      << "<text x=\"" << lx << "\" y=\"" << kTop + lh + 16 << "\">" << MetricName(metric)
      << ", log scale</text>\n"
      << "<text x=\"" << lx << "\" y=\"" << kTop + lh + 30 << "\">white: none</text>\n"
      << "</g>\n</svg>\n";
  return svg.str();
}

}  // namespace mpidbg::monitor
