// What running ranks hold and have not freed, from their object listings: summed over
// the ranks by kind, creating call and creation site; predefined, freed and completed
// ones left out.
#include <gtest/gtest.h>

#include <memory>

#include "host/leaks/leaks_of_processes.h"

namespace mpidbg::leaks {
namespace {

model::ObjectHandle Object(const std::string& kind, const std::string& creator, int line) {
  model::ObjectHandle o;
  o.kind = kind;
  o.creator = creator;
  auto site = std::make_shared<model::Frame>();
  site->function = "main";
  site->file = "app.c";
  site->line = line;
  o.site = site;
  return o;
}

model::ProcessSnapshot Rank(int rank, std::vector<model::ObjectHandle> objects) {
  model::ProcessSnapshot s;
  s.process.rank = rank;
  s.objects = model::ObjectListing{};
  s.objects->objects = std::move(objects);
  return s;
}

TEST(LeaksOfProcesses, SummedOverRanksBySite) {
  model::ObjectHandle world = Object("comm", "", 0);
  world.predefined = true;
  world.site.reset();
  model::ObjectHandle freed = Object("datatype", "MPI_Type_vector", 12);
  freed.freed = true;
  model::ObjectHandle done = Object("request", "MPI_Isend", 30);
  done.request_state = "complete";
  model::ObjectHandle pending = Object("request", "MPI_Irecv", 31);
  pending.request_state = "pending";
  std::vector<model::ProcessSnapshot> ranks = {
      Rank(0, {world, freed, done, pending, Object("datatype", "MPI_Type_vector", 12),
               Object("datatype", "MPI_Type_vector", 12), Object("datatype", "MPI_Type_vector", 20)}),
      Rank(1, {world, Object("datatype", "MPI_Type_vector", 12)}),
      model::ProcessSnapshot{}};  // a rank without a listing holds nothing we know of
  const LeakReport r = LeaksOfSnapshots(ranks, "processes");
  EXPECT_EQ(r.source, "processes");
  EXPECT_EQ(r.ranks, 3);
  EXPECT_EQ(r.total, 5u);
  ASSERT_EQ(r.leaks.size(), 3u);
  EXPECT_EQ(r.leaks[0].kind, "datatype");
  EXPECT_EQ(r.leaks[0].site, "app.c:12 in main");
  EXPECT_EQ(r.leaks[0].count, 3u);
  EXPECT_EQ(r.leaks[0].ranks, 2u);
  EXPECT_EQ(LeaksToText(r),
            "5 MPI objects and requests are live, not freed yet (3 ranks):\n"
            "         3 datatype   made by MPI_Type_vector at app.c:12 in main, on 2 ranks\n"
            "         1 datatype   made by MPI_Type_vector at app.c:20 in main, on 1 rank\n"
            "         1 request    made by MPI_Irecv at app.c:31 in main, on 1 rank\n");
  const nlohmann::json doc = LeaksToJson(r);
  EXPECT_EQ(doc["schema"], "mpidbg.leaks/1");
  EXPECT_EQ(doc["leaks"][0]["site"], "app.c:12 in main");
  EXPECT_TRUE(doc["report_seconds"].is_null());
  // The document reads back as it was.
  auto again = LeaksFromJson(doc, "doc");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(LeaksToText(again.value()), LeaksToText(r));
}

}  // namespace
}  // namespace mpidbg::leaks
