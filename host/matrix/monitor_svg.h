// monitor_svg.h — a heat map of one matrix as a self-contained SVG.
#pragma once

#include <string>

#include "host/matrix/monitor_model.h"

namespace mpidbg::monitor {

// Above this many ranks per side, ranks are drawn in aggregated blocks (at most this
// many blocks per side) and the title says so: the file stays a few MB at most.
constexpr int kMaxSvgGrid = 256;

struct SvgLayout {
  int block = 1;  // ranks per drawn cell and side
  int grid = 0;   // cells per side
  int cell = 0;   // pixels per cell
  bool values = false;  // cells big enough to print their value in (small jobs)
};
SvgLayout LayoutFor(int world_size);

// One <rect class="cell"> with a <title> tooltip (the exact value, and in human units) per
// non-zero (sender, receiver) cell (or block), its value printed in it when the cells
// are big enough; log colour scale from light to dark blue, labelled in human units.
std::string MatrixToSvg(const Matrix& m, const std::string& title, Metric metric);

}  // namespace mpidbg::monitor
