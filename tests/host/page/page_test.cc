// The pages' shared pieces: escaping of hostile text, script data that cannot end its
// element, SVG made inline, and the frame (verdict first, the error hook in the head,
// the ready marker, the data block).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "page/html_text.h"
#include "page/page_frame.h"

namespace mpidbg::page {
namespace {

// A communicator or function name read from target memory can hold anything.
constexpr const char* kHostile = "</script><img src=x onerror=\"alert('1')\">&amp;";

TEST(HtmlText, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(Escape(kHostile),
            "&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;amp;");
  EXPECT_EQ(Escape(std::string("a\0b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(Escape("plain MPI_COMM_WORLD"), "plain MPI_COMM_WORLD");
}

TEST(HtmlText, ScriptDataCannotEndItsElementAndStaysTheSameJson) {
  const nlohmann::json doc = {{"name", kHostile}, {"comment", "<!-- x -->"},
                              {"separator", "a\u2028b"}};
  const std::string data = ScriptData(doc.dump());
  EXPECT_EQ(data.find('<'), std::string::npos) << data;
  EXPECT_EQ(data.find("\u2028"), std::string::npos) << data;
  EXPECT_EQ(nlohmann::json::parse(data), doc);
}

TEST(HtmlText, InlineSvgDropsTheProlog) {
  EXPECT_EQ(InlineSvg("<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"x\">\n<!-- c -->\n<svg a=\"1\"/>"),
            "<svg a=\"1\"/>");
  EXPECT_EQ(InlineSvg("not a picture"), "");
}

TEST(PageFrame, VerdictFirstHooksAndData) {
  Page p;
  p.title = std::string("job ") + kHostile;
  p.verdict = {"DEADLOCK: ranks 0-3 can never proceed", "4 ranks: 4 blocked"};
  p.tone = Tone::kBad;
  p.sections.push_back({"classes", "rank classes", "<p>body</p>"});
  p.data_json = nlohmann::json{{"ranks", {{{"rank", 0}, {"comm", kHostile}}}}}.dump();
  const std::string html = RenderPage(p);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<img"), std::string::npos) << "hostile text written raw";
  // The error hook is in the head, before anything else can run.
  const std::size_t hook = html.find("window.onerror");
  ASSERT_NE(hook, std::string::npos);
  EXPECT_LT(hook, html.find("</head>"));
  // The verdict comes before the first section, with its tone.
  const std::size_t verdict = html.find("DEADLOCK: ranks 0-3 can never proceed");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("<section id=\"classes\">"));
  EXPECT_NE(html.find("class=\"verdict bad\""), std::string::npos);
  EXPECT_NE(html.find("<script type=\"application/json\" id=\"page-data\">"), std::string::npos);
  EXPECT_NE(html.find("setAttribute('data-page-ready', 'yes')"), std::string::npos);
  EXPECT_NE(html.find("id=\"rank-lookup\""), std::string::npos);
  // Nothing is fetched: no external script, style or image.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(PageFrame, NoDataNoLookup) {
  Page p;
  p.title = "t";
  p.verdict = {"v"};
  const std::string html = RenderPage(p);
  EXPECT_EQ(html.find("id=\"rank-lookup\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"page-data\""), std::string::npos);
  EXPECT_NE(html.find("class=\"verdict open\""), std::string::npos);
}

}  // namespace
}  // namespace mpidbg::page
