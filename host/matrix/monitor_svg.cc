// monitor_svg.cc — drawing the heat map. Zero cells are the white background (only
// non-zero cells are drawn, so a sparse 1024-rank matrix stays small); colours follow a
// logarithmic scale because communication volumes span orders of magnitude. Values are
// said in human units (KiB, MiB, 12.3k messages): in the cells when they are big enough
// to hold them, on the scale, and exactly in each cell's hover text.
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
constexpr int kLegendWidth = 170;
// Cells that print their value ("1023.9 KiB" at 9 px); used while the matrix stays
// within kValuePlotPixels, i.e. up to 24 ranks a side.
constexpr int kValueCell = 52;
constexpr int kValuePlotPixels = 24 * kValueCell;
constexpr int kScaleTicks = 5;    // labelled values along the colour scale

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

// Short, for a cell or the scale: "7.0 MiB", "80 B", "950", "12.3k".
std::string HumanValue(uint64_t v, Metric metric) {
  if (metric == Metric::kBytes) return FormatBytes(v);
  if (v < 10000) return std::to_string(v);
  static const char* const kSuffix[] = {"k", "M", "G", "T", "P", "E"};
  double x = static_cast<double>(v);
  int k = -1;
  while (x >= 1000 && k < 5) {
    x /= 1000;
    ++k;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%s", x, kSuffix[k]);
  return buf;
}

// Exact, for the hover text: "7340032 bytes (7.0 MiB)", "950 messages".
std::string ShowValue(uint64_t v, Metric metric) {
  if (metric == Metric::kBytes) {
    return std::to_string(v) + " bytes" + (v >= 1024 ? " (" + FormatBytes(v) + ")" : "");
  }
  return std::to_string(v) + (v == 1 ? " message" : " messages");
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
  l.values = l.grid * kValueCell <= kValuePlotPixels;
  l.cell = l.values ? kValueCell : std::clamp(kPlotPixels / l.grid, 2, kMaxCell);
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
  const int legend_height = std::clamp(plot, 120, 240);
  const int height = kTop + std::max(plot, legend_height + 40) + 40;

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
  if (l.values) {
    // Dark cells take white text. The text lets the pointer through to its cell.
    svg << "<g class=\"values\" text-anchor=\"middle\" font-size=\"9\" pointer-events=\"none\">\n";
    for (const auto& [where, value] : blocks) {
      svg << "<text x=\"" << kLeft + where.second * l.cell + l.cell / 2 << "\" y=\""
          << kTop + where.first * l.cell + l.cell / 2 + 3 << "\" fill=\""
          << (Scale(value, lo, hi) > 0.5 ? "#fff" : "#111") << "\">" << HumanValue(value, metric)
          << "</text>\n";
    }
    svg << "</g>\n";
  }

  // Legend: the colour scale with values in human units along it, low at the bottom.
  const int lx = kLeft + plot + 20;
  const int lh = legend_height;
  svg << "<g class=\"legend\">\n"
      << "<text x=\"" << lx << "\" y=\"" << kTop - 8 << "\">" << MetricName(metric)
      << " (log scale)</text>\n"
      << "<rect x=\"" << lx << "\" y=\"" << kTop << "\" width=\"16\" height=\"" << lh
      << "\" fill=\"url(#scale)\" stroke=\"#999\"/>\n";
  if (hi > 0) {
    const int ticks = hi > lo ? kScaleTicks : 1;
    for (int k = 0; k < ticks; ++k) {
      const double t = ticks == 1 ? 1.0 : static_cast<double>(k) / (ticks - 1);
      const uint64_t v = k == 0 ? lo : k == ticks - 1 ? hi
          : static_cast<uint64_t>(std::llround(static_cast<double>(lo) *
                                               std::pow(static_cast<double>(hi) / lo, t)));
      const int y = kTop + static_cast<int>(std::lround((1.0 - t) * lh));
      const char* word = ticks == 1 ? "all " : k == 0 ? "min " : k == ticks - 1 ? "max " : "";
      svg << "<line x1=\"" << lx + 16 << "\" y1=\"" << y << "\" x2=\"" << lx + 20 << "\" y2=\""
          << y << "\" stroke=\"#666\"/><text x=\"" << lx + 23 << "\" y=\"" << y + 3 << "\">"
          << word << HumanValue(v, metric) << "</text>\n";
    }
  }
  svg << "<text x=\"" << lx << "\" y=\"" << kTop + lh + 16 << "\">white: none</text>\n"
      << "<text x=\"" << lx << "\" y=\"" << kTop + lh + 30 << "\">hover a cell: exact value</text>\n"
      << "</g>\n</svg>\n";
  return svg.str();
}

}  // namespace mpidbg::monitor
