// The "mpidbg.leaks/1" report read back and shown as text; documents of another schema
// or with impossible counts refused.
#include <gtest/gtest.h>

#include "host/leaks/leaks_file.h"

namespace mpidbg::leaks {
namespace {

nlohmann::json Report() {
  return nlohmann::json::parse(R"({
    "schema": "mpidbg.leaks/1", "ranks": 4, "total": 14, "report_seconds": 0.0004,
    "leaks": [
      {"kind": "datatype", "creator": "MPI_Type_vector", "count": 12, "ranks": 4},
      {"kind": "request", "creator": "MPI_Irecv", "count": 2, "ranks": 1}
    ]})");
}

TEST(LeaksFile, ReadsEveryLine) {
  auto r = LeaksFromJson(Report(), "leaks.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ranks, 4);
  EXPECT_EQ(r->total, 14u);
  ASSERT_EQ(r->leaks.size(), 2u);
  EXPECT_EQ(r->leaks[0].kind, "datatype");
  EXPECT_EQ(r->leaks[0].creator, "MPI_Type_vector");
  EXPECT_EQ(r->leaks[0].count, 12u);
  EXPECT_EQ(r->leaks[1].ranks, 1u);
}

TEST(LeaksFile, TextAsTheRuntimePrintsIt) {
  auto r = LeaksFromJson(Report(), "leaks.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(LeaksToText(r.value()),
            "14 MPI objects and requests were never freed (4 ranks):\n"
            "        12 datatype   made by MPI_Type_vector, on 4 ranks\n"
            "         2 request    made by MPI_Irecv, on 1 rank\n");
}

TEST(LeaksFile, NothingLeakedSaysSo) {
  nlohmann::json doc = Report();
  doc["leaks"] = nlohmann::json::array();
  doc["total"] = 0;
  auto r = LeaksFromJson(doc, "leaks.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(LeaksToText(r.value()),
            "every MPI object and request the program made was freed (4 ranks)\n");
}

TEST(LeaksFile, OtherSchemasAndBadCountsAreRefused) {
  nlohmann::json other = Report();
  other["schema"] = "mpidbg.profile/1";
  EXPECT_FALSE(LeaksFromJson(other, "x.json").ok());
  nlohmann::json no_ranks = Report();
  no_ranks["ranks"] = 0;
  EXPECT_FALSE(LeaksFromJson(no_ranks, "x.json").ok());
  nlohmann::json bad_line = Report();
  bad_line["leaks"][0]["count"] = "twelve";
  auto r = LeaksFromJson(bad_line, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("leaks[0].count"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace mpidbg::leaks
