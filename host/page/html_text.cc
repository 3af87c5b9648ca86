// html_text.cc — escaping for HTML text, attributes and script data; SVG made inline.
#include "page/html_text.h"

namespace mpidbg::page {

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\0': out += "\xEF\xBF\xBD"; break;  // U+FFFD: HTML has no NUL
      default: out += c;
    }
  }
  return out;
}

std::string ScriptData(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (std::size_t k = 0; k < json.size(); ++k) {
    if (json[k] == '<') {
      out += "\\u003c";  // only ever inside a JSON string, where it reads as '<'
    } else if (json.compare(k, 3, "\xE2\x80\xA8") == 0 || json.compare(k, 3, "\xE2\x80\xA9") == 0) {
      out += json[k + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      k += 2;
    } else {
      out += json[k];
    }
  }
  return out;
}

std::string InlineSvg(std::string_view svg) {
  const std::size_t start = svg.find("<svg");
  if (start == std::string_view::npos) return "";
  return std::string(svg.substr(start));
}

}  // namespace mpidbg::page
