// job_html.h — the job as one self-contained HTML page (`job --html`), rendered from the
// same report as the text, JSON and DOT: the verdict first, the rank classes as a
// collapsible tree (call, arguments, source lines), the call tree, the waits drawn
// between classes, unmatched messages, hints, and every rank's JSON entry for the
// page's per-rank detail.
#pragma once

#include <string>

#include "job/job_analysis.h"

namespace mpidbg::job {

// The wait picture is the SVG `dot` made of ToDot(report) (the pipeline runs dot; this
// stays pure); when it is empty, `no_picture` says why on the page instead.
struct WaitPicture {
  std::string svg;
  std::string no_picture;
};

std::string ToHtml(const JobReport& report, const WaitPicture& picture);

}  // namespace mpidbg::job
