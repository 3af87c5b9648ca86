// page_frame.cc — the page skeleton: head with the inline style, the verdict, the rank
// lookup, the sections, the data block and the inline script last (it runs once the
// document above it exists).
#include "page/page_frame.h"

#include "page/html_text.h"

namespace mpidbg::page {
namespace {

const char* ToneClass(Tone tone) {
  switch (tone) {
    case Tone::kBad: return "verdict bad";
    case Tone::kGood: return "verdict good";
    case Tone::kOpen: break;
  }
  return "verdict open";
}

}  // namespace

std::string RenderPage(const Page& page) {
  std::string out;
  out.reserve(4096 + page.data_json.size());
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  out += Escape(page.title);
  out += "</title>\n<style>\n";
  out += PageStyle();
  out += "</style>\n<script>\n";
  out += PageErrorHook();
  out += "</script>\n</head>\n<body>\n<header>\n<h1>";
  out += Escape(page.title);
  out += "</h1>\n<div id=\"verdict\" class=\"";
  out += ToneClass(page.tone);
  out += "\">\n";
  for (std::size_t k = 0; k < page.verdict.size(); ++k) {
    out += k == 0 ? "<p class=\"headline\">" : "<p>";
    out += Escape(page.verdict[k]);
    out += "</p>\n";
  }
  out += "</div>\n<pre id=\"script-errors\" hidden></pre>\n<nav>";
  for (const Section& s : page.sections) {
    out += "<a href=\"#" + Escape(s.id) + "\">" + Escape(s.heading) + "</a> ";
  }
  out += "<button type=\"button\" id=\"expand-all\">expand all</button>"
         "<button type=\"button\" id=\"collapse-all\">collapse all</button></nav>\n";
  if (!page.data_json.empty()) {
    out += "<form id=\"rank-lookup\"><label>rank <input id=\"rank-query\" type=\"number\" "
           "min=\"0\" step=\"1\"></label> <button type=\"submit\">show</button> "
           "<span class=\"note\">or click a rank</span></form>\n"
           "<div id=\"rank-detail\" hidden></div>\n";
  }
  out += "</header>\n<main>\n";
  for (const Section& s : page.sections) {
    out += "<section id=\"" + Escape(s.id) + "\">\n<h2>" + Escape(s.heading) + "</h2>\n";
    out += s.html;
    out += "</section>\n";
  }
  out += "</main>\n<div id=\"hover-info\" hidden></div>\n";
  if (!page.data_json.empty()) {
    out += "<script type=\"application/json\" id=\"page-data\">";
    out += ScriptData(page.data_json);
    out += "</script>\n";
  }
  out += "<script>\n";
  out += PageScript();
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace mpidbg::page
