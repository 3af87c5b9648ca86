// graphviz_svg.h — a DOT graph drawn as SVG by Graphviz's `dot`, for `job --svg` and
// for the picture inline in `job --html`. The renderers stay pure: they write DOT, and
// the command's pipeline hands it here.
#pragma once

#include <string>

#include "util/status.h"

namespace mpidbg::page {

// The SVG document `dot -Tsvg` makes of `dot_text`. Fails (kUsage, one sentence) when
// `dot` cannot be run or fails; the message says which.
host::Result<std::string> DotToSvg(const std::string& dot_text);

}  // namespace mpidbg::page
