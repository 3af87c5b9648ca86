// page_style.cc — the page's inline style: readable on screen and on paper, no web fonts
// (the page is read offline).
#include "page/page_frame.h"

namespace mpidbg::page {

const char* PageStyle() {
  return R"CSS(body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 2em; color: #222; background: #fff; }
h1 { font-size: 1.3em; margin: 0.8em 0 0.4em; }
h2 { font-size: 1.1em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
header { position: sticky; top: 0; background: #fff; padding-bottom: 0.4em; z-index: 2; }
.verdict { border-left: 6px solid #b58900; background: #fdf6e3; padding: 0.4em 0.8em; }
.verdict.bad { border-color: #c0392b; background: #fdecea; }
.verdict.good { border-color: #2e7d32; background: #edf7ee; }
.verdict p { margin: 0.15em 0; }
.verdict .headline { font-size: 1.25em; font-weight: bold; }
nav { margin: 0.5em 0; } nav a { margin-right: 0.8em; } nav button { margin-left: 0.3em; }
#rank-lookup { margin: 0.3em 0; } #rank-query { width: 7em; }
#rank-detail { border: 1px solid #999; background: #f8f8f8; padding: 0.4em 0.8em; max-height: 45vh; overflow: auto; }
#rank-detail h3 button { margin-left: 1em; font-size: 0.8em; }
#hover-info { position: fixed; bottom: 0; left: 0; right: 0; background: #222; color: #fff; padding: 0.3em 1em; font-family: monospace; }
#script-errors { color: #c0392b; }
.note { color: #666; font-size: 0.9em; }
code, .call { font-family: ui-monospace, monospace; }
details { margin: 0.15em 0 0.15em 1.2em; } summary { cursor: pointer; }
details.class > summary { font-weight: 600; }
.ranks { color: #1a5fb4; cursor: pointer; text-decoration: underline dotted; }
.dead { color: #c0392b; font-weight: bold; }
.frames { margin: 0.2em 0 0.4em 1.5em; padding: 0; font-family: ui-monospace, monospace; font-size: 0.92em; }
table.data { border-collapse: collapse; margin: 0.4em 0; }
table.data th, table.data td { border: 1px solid #ddd; padding: 0.15em 0.6em; text-align: left; }
table.data td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.detail th { text-align: left; padding-right: 1em; vertical-align: top; }
.picture { overflow: auto; max-width: 100%; border: 1px solid #eee; }
.picture svg { max-width: 100%; height: auto; }
ul.hints li, ul.plain li { margin: 0.2em 0; }
.barrow { display: flex; align-items: center; margin: 2px 0; }
.barlabel { width: 16em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: ui-monospace, monospace; font-size: 0.9em; }
.barbox { flex: 1; max-width: 40em; display: flex; height: 14px; background: #f2f2f2; }
.barbox span { display: block; height: 100%; }
.barvalue { margin-left: 0.6em; font-size: 0.9em; font-variant-numeric: tabular-nums; }
.s-out { background: #9ecae1; } .s-work { background: #31a354; } .s-blocked { background: #de2d26; }
.key span { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 1em; vertical-align: middle; }
@media print { header { position: static; } #hover-info, nav button, #rank-lookup { display: none; } }
)CSS";
}

}  // namespace mpidbg::page
