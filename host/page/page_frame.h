// page_frame.h — one self-contained HTML page: the verdict first, then sections, with
// its style and its one small script inline, so the file opens on a machine with no
// network and needs nothing beside it.
//
// The script (page_script.cc) does four things and marks the page when it has run:
// per-rank detail on demand (a rank typed, or any element with data-rank clicked, shown
// from the page's data block; page.html#rank-3 opens rank 3's), hover text for
// heat-map cells and bars, expand/collapse of every tree, and errors recorded in the
// page (<html data-script-errors>, #script-errors).
// On success <html data-page-ready="yes">: a headless browser's DOM dump tells a page
// whose script ran from one whose script failed.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::page {

enum class Tone { kBad, kGood, kOpen };  // the verdict's colour: red, green, amber

struct Section {
  std::string id;       // the element id (letters, digits, '-')
  std::string heading;  // plain text
  std::string html;     // already escaped
};

struct Page {
  std::string title;               // plain text
  std::vector<std::string> verdict;  // plain text lines, the first in large type
  Tone tone = Tone::kOpen;
  std::vector<Section> sections;
  // A JSON document (not escaped) the script reads per-rank detail from: an object with
  // "ranks": [{"rank": N, ...}, ...]; "" for none (no rank lookup then).
  std::string data_json;
};

std::string RenderPage(const Page& page);

// The page's inline scripts and style (page_script.cc, page_style.cc). The error hook
// goes first, in the head, so it also sees a main script that fails to parse.
const char* PageErrorHook();
const char* PageScript();
const char* PageStyle();

}  // namespace mpidbg::page
