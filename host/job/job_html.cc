// job_html.cc — the job page. Every string shown may come from target memory and goes
// through page::Escape; the per-rank detail is the JSON document's own rank entries.
#include "job/job_html.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "job/class_graph.h"
#include "job/stacks_view.h"
#include "page/html_text.h"
#include "page/page_frame.h"

namespace mpidbg::job {
namespace {

using page::Escape;

// The verdict block of the text rendering (up to its first blank line): one wording of
// the verdict for every output.
std::vector<std::string> VerdictLines(const JobReport& report) {
  std::vector<std::string> lines;
  std::istringstream text(ToText(report));
  for (std::string line; std::getline(text, line) && !line.empty();) lines.push_back(line);
  const std::vector<CollectiveMismatch::Side>& sides = report.stacks.collectives;
  if (report.view == "stacks" && !sides.empty() && report.collective_mismatches.empty()) {
    // As the text says it in its own section; here with the verdict, where it is seen.
    std::string line = "the stacks show ranks in different collectives:";
    const char* sep = " ";
    for (const CollectiveMismatch::Side& side : sides) {
      line += sep + RanksPhrase(side.ranks) + " in " + side.call;
      sep = ", ";
    }
    lines.push_back(line + " (a collective mismatch if these calls are on one communicator)");
  }
  if (report.view != "stacks") {
    for (const CollectiveMismatch& m : report.collective_mismatches) {
      std::string line = "COLLECTIVE MISMATCH on " + m.comm_name + ":";
      const char* sep = " ";
      for (const CollectiveMismatch::Side& side : m.sides) {
        line += sep + RanksPhrase(side.ranks) + " in " + side.call;
        if (side.root) line += " (root " + std::to_string(*side.root) + ")";
        sep = ", ";
      }
      lines.push_back(line);
    }
  }
  return lines;
}

page::Tone ToneOf(const JobReport& report) {
  if (report.deadlock.detected || (report.view == "stacks" && StacksHung(report))) {
    return page::Tone::kBad;
  }
  if (report.Incomplete() || report.view == "stacks" || !report.collective_mismatches.empty()) {
    return page::Tone::kOpen;
  }
  return page::Tone::kGood;
}

// A rank range that opens the first rank's detail when clicked.
std::string RanksLink(const std::vector<int>& ranks) {
  if (ranks.empty()) return "";
  return "<span class=\"ranks\" data-rank=\"" + std::to_string(ranks.front()) + "\">" +
         Escape(RanksPhrase(ranks)) + "</span>";
}

// The ranks of one class split by what exactly they call (their summaries): the
// arguments, which the class (a call path) does not tell apart. By lowest rank.
std::vector<std::pair<std::string, std::vector<int>>> CallsOf(
    const RankClass& c, const std::unordered_map<int, const RankReport*>& by_rank) {
  std::map<std::string, std::vector<int>> calls;
  for (int r : c.ranks) {
    auto found = by_rank.find(r);
    if (found != by_rank.end()) calls[found->second->summary].push_back(r);
  }
  std::vector<std::pair<std::string, std::vector<int>>> ordered(calls.begin(), calls.end());
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.second.front() < b.second.front(); });
  return ordered;
}

// Distinct calls listed under a class, at most; a class of 4096 ranks each receiving
// from its neighbour has 4096, and the per-rank detail has every one.
constexpr std::size_t kCallsShown = 12;

void Classes(const JobReport& report, const ClassGraph& graph, std::string& out) {
  std::unordered_map<int, const RankReport*> by_rank;
  for (const RankReport& r : report.ranks) by_rank.emplace(r.rank, &r);
  out += "<p class=\"note\">Ranks whose state and call path agree form a class. Open a class "
         "for where its ranks are (outermost call first) and what they call.</p>\n";
  for (std::size_t k = 0; k < report.classes.classes.size(); ++k) {
    const RankClass& c = report.classes.classes[k];
    const ClassNode& node = graph.nodes[k];
    out += "<details class=\"class\"" + std::string(k < 20 ? " open" : "") + "><summary>" +
           RanksLink(c.ranks) + " (" + std::to_string(c.ranks.size()) + ") <span class=\"call\">" +
           Escape(node.call) + "</span>";
    if (node.deadlocked > 0) {
      out += " <span class=\"dead\">" +
             (node.deadlocked == c.ranks.size() ? std::string("deadlocked")
                                                : std::to_string(node.deadlocked) + " deadlocked") +
             "</span>";
    }
    out += "</summary>\n<ol class=\"frames\">";
    for (const std::string& element : c.path) out += "<li>" + Escape(element) + "</li>";
    out += "</ol>\n";
    const auto calls = CallsOf(c, by_rank);
    if (calls.size() > 1) {
      out += "<ul class=\"plain\">";
      std::size_t shown = 0;
      for (const auto& [summary, ranks] : calls) {
        if (shown++ == kCallsShown) {
          out += "<li class=\"note\">" + std::to_string(calls.size() - kCallsShown) +
                 " more calls: see each rank's detail</li>";
          break;
        }
        out += "<li>" + RanksLink(ranks) + ": <span class=\"call\">" + Escape(summary) +
               "</span></li>";
      }
      out += "</ul>\n";
    }
    out += "</details>\n";
  }
}

// STAT's view: the prefix tree of call paths, each node with the ranks through it.
void TreeNode(const CallTreeNode& node, std::size_t depth, std::string& out) {
  for (const CallTreeNode& child : node.children) {
    const std::string label = "<span class=\"call\">" + Escape(child.name) + "</span> " +
                              RanksLink(child.ranks);
    if (child.children.empty()) {
      out += "<div class=\"leaf\" style=\"margin-left:1.2em\">" + label + "</div>\n";
      continue;
    }
    out += std::string("<details") + (depth < 8 ? " open" : "") + "><summary>" + label +
           "</summary>\n";
    TreeNode(child, depth + 1, out);
    out += "</details>\n";
  }
}

std::string Picture(const WaitPicture& picture) {
  std::string svg = page::InlineSvg(picture.svg);
  if (svg.empty()) {
    return "<p class=\"note\">No picture: " +
           Escape(picture.no_picture.empty() ? "nothing to draw" : picture.no_picture) + "</p>\n";
  }
  return "<p class=\"note\">One box per class; an edge stands for every wait from ranks of one "
         "class on ranks of another (hover an edge for the call).</p>\n<div class=\"picture\">" +
         svg + "</div>\n";
}

std::string Unmatched(const JobReport& report) {
  std::string out = "<table class=\"data\"><tr><th>from</th><th>to</th><th>call</th><th>tag</th>"
                    "<th>bytes</th><th>communicator</th><th>seen as</th></tr>\n";
  for (const UnmatchedMessage& m : report.unmatched) {
    out += "<tr><td>" + RanksLink({m.from}) + "</td><td>" + RanksLink({m.to}) + "</td><td>" +
           Escape(m.call) + "</td><td class=\"num\">" +
           Escape(m.tag.any ? std::string("ANY_TAG") : std::to_string(m.tag.value)) +
           "</td><td class=\"num\">" + std::to_string(m.bytes) + "</td><td>" +
           Escape(m.comm_name.empty() ? m.comm : m.comm_name) + "</td><td>" +
           (m.from_counts ? "traffic counts" : m.arrived ? "unexpected queue" : "pending send") +
           "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string Hints(const JobReport& report) {
  std::string out = "<ul class=\"hints\">";
  for (const std::string& h : report.hints) out += "<li>" + Escape(h) + "</li>";
  return out + "</ul>\n";
}

std::string Title(const JobReport& report) {
  std::size_t read = 0;
  for (const RankReport& r : report.ranks) read += r.state != RankState::kUnreadable;
  return "mpidbg job: " + std::to_string(report.ranks.size()) + " ranks (" +
         std::to_string(read) + " read)";
}

}  // namespace

std::string ToHtml(const JobReport& report, const WaitPicture& picture) {
  const ClassGraph graph = BuildClassGraph(report);
  page::Page p;
  p.title = Title(report);
  p.verdict = VerdictLines(report);
  p.tone = ToneOf(report);
  std::string classes;
  Classes(report, graph, classes);
  p.sections.push_back({"classes", "rank classes (" + std::to_string(graph.nodes.size()) + ")",
                        std::move(classes)});
  if (report.view != "stacks") {
    p.sections.push_back({"waits", "who waits for whom", Picture(picture)});
  }
  if (!report.unmatched.empty()) {
    p.sections.push_back({"unmatched", "messages nobody receives (" +
                                           std::to_string(report.unmatched.size()) + ")",
                          Unmatched(report)});
  }
  if (!report.hints.empty()) p.sections.push_back({"hints", "hints", Hints(report)});
  std::string tree;
  TreeNode(report.classes.root, 0, tree);
  p.sections.push_back({"call-tree", "call tree", std::move(tree)});
  nlohmann::json data = {{"ranks", ToJson(report)["ranks"]}};
  p.data_json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return page::RenderPage(p);
}

}  // namespace mpidbg::job
