// html_text.h — text made safe for an HTML page. Everything a page shows may come from
// target memory (communicator names, function names, file names, host names), so every
// piece of text goes through one of these before it is written.
#pragma once

#include <string>
#include <string_view>

namespace mpidbg::page {

// For element text and attribute values (double- or single-quoted): & < > " '.
std::string Escape(std::string_view text);

// A JSON document inside <script type="application/json">: every '<' (only ever inside
// a JSON string) becomes "\u003c", which JSON reads as the same string, so nothing in
// it can end the element or open a comment; U+2028/U+2029 are written as escapes for
// older script engines.
std::string ScriptData(std::string_view json);

// An SVG document for inline use in HTML: the XML prolog, DOCTYPE and comments before
// the <svg> element dropped. "" when the text holds no <svg> element.
std::string InlineSvg(std::string_view svg);

}  // namespace mpidbg::page
