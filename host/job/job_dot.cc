// job_dot.cc — the wait-for graph as Graphviz, drawn between rank classes
// (class_graph.h): one box per class (deadlocked ones red), solid edges for waits on all
// of a set, dotted ones for "any of" (an ANY_SOURCE receive, MPI_Waitany), dashed gray
// ones for messages nobody receives, and one orange mark per collective mismatch tied
// to the classes that sit in its different calls. The legend lists only what the graph
// draws, each entry drawn with the very attributes of its edges.
#include <sstream>

#include "job/class_graph.h"
#include "job/job_analysis.h"

namespace mpidbg::job {
namespace {

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Node(std::size_t k) { return "c" + std::to_string(k); }

// A Wait-class summary lists its requests; one per line keeps boxes narrow.
std::string Wrap(std::string summary) {
  auto break_after = [&summary](const std::string& mark) {
    for (std::size_t at = summary.find(mark); at != std::string::npos;
         at = summary.find(mark, at + mark.size())) {
      summary[at + mark.size() - 1] = '\n';  // the mark ends with a space
    }
  };
  break_after("requests: ");
  break_after("), ");
  return summary;
}

// The few innermost callers of a class's call: where the ranks are, without the whole
// stack (the page and the text have it).
constexpr std::size_t kCallersShown = 2;

// Scattered ranks ("0,2,4,...") make a ranges phrase as long as the ranks are many; a
// box keeps its first ranges and says how many ranks it holds.
constexpr std::size_t kRanksLabelChars = 60;

std::string RanksLabel(const std::vector<int>& ranks) {
  std::string phrase = RanksPhrase(ranks);
  if (phrase.size() <= kRanksLabelChars) return phrase;
  const std::size_t cut = phrase.rfind(',', kRanksLabelChars);
  return phrase.substr(0, cut == std::string::npos ? kRanksLabelChars : cut) + ",... (" +
         std::to_string(ranks.size()) + " ranks)";
}

std::string ClassLabel(const ClassNode& c) {
  std::string label = RanksLabel(c.ranks);
  if (c.deadlocked > 0 && c.deadlocked < c.ranks.size()) {
    label += " (" + std::to_string(c.deadlocked) + " deadlocked)";
  }
  label += "\n" + Wrap(c.call);
  // The innermost element is the call itself when the path comes from a stack.
  std::size_t shown = 0;
  for (std::size_t k = c.path.size(); k-- > 0 && c.path.size() > 1;) {
    if (k + 1 == c.path.size()) continue;
    if (shown++ == kCallersShown) {
      label += "\n\u2190 ...";
      break;
    }
    label += "\n\u2190 " + c.path[k];
  }
  return label;
}

const char* kDeadlockedBox = "color=red, fontcolor=red, penwidth=2";
const char* kMismatchMark = "shape=octagon, color=darkorange, fontcolor=darkorange, penwidth=2";

// How a line is drawn: the one source of an edge's attributes and of its legend sample.
struct LineLook {
  const char* style;  // "solid" | "dotted" | "dashed"
  const char* color;
  bool bold;
  const char* words;
};

LineLook WaitLook(WaitKind kind, bool deadlocked) {
  if (kind == WaitKind::kOr) {
    return {"dotted", deadlocked ? "red" : "black", false,
            deadlocked ? "waits for any (or), deadlocked" : "waits for any (or)"};
  }
  return {"solid", deadlocked ? "red" : "black", false,
          deadlocked ? "waits for all (and), deadlocked" : "waits for all (and)"};
}
const LineLook kUnmatchedLook = {"dashed", "gray50", false, "message nobody receives"};
const LineLook kMismatchLook = {"solid", "darkorange", true, "ranks in another collective"};

std::string EdgeAttributes(const LineLook& look) {
  return std::string("style=") + (look.bold ? "bold" : look.style) + ", color=" + look.color +
         ", fontcolor=" + look.color;
}

void Nodes(const ClassGraph& graph, std::ostringstream& out) {
  for (std::size_t k = 0; k < graph.nodes.size(); ++k) {
    const ClassNode& c = graph.nodes[k];
    out << "  " << Node(k) << " [label=" << Quote(ClassLabel(c));
    if (c.deadlocked > 0) out << ", " << kDeadlockedBox;
    out << "];\n";
  }
}

std::string EdgeLabel(const char* what, std::size_t count, const char* unit) {
  std::string label = what;
  if (count > 1) label += " (" + std::to_string(count) + " " + unit + ")";
  return label;
}

void Edges(const ClassGraph& graph, std::ostringstream& out) {
  for (const ClassEdge& e : graph.edges) {
    out << "  " << Node(e.from) << " -> " << Node(e.to) << " ["
        << EdgeAttributes(WaitLook(e.kind, e.deadlocked))
        << ", label=" << Quote(EdgeLabel(WaitKindName(e.kind), e.waits, "waits"))
        << ", tooltip=" << Quote(e.reason) << "];\n";
  }
  for (const ClassUnmatched& u : graph.unmatched) {
    out << "  " << Node(u.from) << " -> " << Node(u.to) << " [" << EdgeAttributes(kUnmatchedLook)
        << ", label=" << Quote(u.messages > 1 ? u.first + " (" + std::to_string(u.messages) +
                                                    " messages)"
                                              : u.first)
        << ", tooltip=" << Quote("sent, never received") << "];\n";
  }
  for (std::size_t k = 0; k < graph.mismatches.size(); ++k) {
    const ClassMismatch& m = graph.mismatches[k];
    out << "  mismatch" << k << " [" << kMismatchMark
        << ", label=" << Quote("collective mismatch\non " + m.comm_name) << "];\n";
    for (const ClassMismatch::Side& side : m.sides) {
      out << "  mismatch" << k << " -> " << Node(side.node) << " [dir=none, " << EdgeAttributes(kMismatchLook)
          << ", label=" << Quote(side.call) << "];\n";
    }
  }
}

// Only what the graph draws, one row each: a sample of the line drawn with the edges'
// own style and colour (a table cell's bottom border), then its words. A table sized by
// its text, not edges laid out on the graph's ranks (which stretched it across them).
void Legend(const ClassGraph& graph, std::ostringstream& out) {
  std::vector<LineLook> rows;
  for (WaitKind kind : {WaitKind::kAnd, WaitKind::kOr}) {
    for (bool dead : {false, true}) {
      for (const ClassEdge& e : graph.edges) {
        if (e.kind == kind && e.deadlocked == dead) {
          rows.push_back(WaitLook(kind, dead));
          break;
        }
      }
    }
  }
  if (!graph.unmatched.empty()) rows.push_back(kUnmatchedLook);
  if (!graph.mismatches.empty()) rows.push_back(kMismatchLook);
  bool dead = false;
  for (const ClassNode& c : graph.nodes) dead = dead || c.deadlocked > 0;
  if (rows.empty() && !dead) return;
  out << "  legend [shape=plaintext, fontsize=10, label=<<TABLE BORDER=\"1\" STYLE=\"dashed\" "
         "COLOR=\"gray60\" CELLBORDER=\"0\" CELLSPACING=\"3\" CELLPADDING=\"2\">"
         "<TR><TD COLSPAN=\"2\">legend</TD></TR>";
  for (const LineLook& look : rows) {
    out << "<TR><TD SIDES=\"B\" BORDER=\"" << (look.bold ? 2 : 1) << "\"";
    if (std::string(look.style) != "solid") out << " STYLE=\"" << look.style << "\"";
    out << " COLOR=\"" << look.color << "\" WIDTH=\"36\"> </TD><TD ALIGN=\"LEFT\">"
        << look.words << "</TD></TR>";
  }
  if (dead) {
    out << "<TR><TD BORDER=\"2\" STYLE=\"rounded\" COLOR=\"red\" COLSPAN=\"2\">"
           "<FONT COLOR=\"red\">deadlocked ranks</FONT></TD></TR>";
  }
  out << "</TABLE>>];\n";
}

}  // namespace

std::string ToDot(const JobReport& report) {
  // As in the text: what was not read first; no "no deadlock" without it.
  const bool incomplete = report.Incomplete();
  std::string label = incomplete ? "INCOMPLETE: not every rank was read; " : "";
  if (report.deadlock.detected) {
    label += "DEADLOCK: ranks " + FormatRankRanges(report.deadlock.ranks);
  } else {
    label += incomplete ? "no deadlock among the ranks read" : "no deadlock detected";
  }
  const ClassGraph graph = BuildClassGraph(report, kMaxPictureClasses);
  std::ostringstream out;
  out << "digraph mpidbg_job {\n"
      << "  rankdir=LR;\n"
      << "  labelloc=t;\n"
      << "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=10];\n"
      << "  label=" << Quote(label) << ";\n";
  Nodes(graph, out);
  Edges(graph, out);
  Legend(graph, out);
  out << "}\n";
  return out.str();
}

}  // namespace mpidbg::job
