// profile_file_test.cc — reading "mpidbg.profile/1": the hand-written 2-rank file, the
// job part merged from the ranks when a file has none, and bad files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "host/profile/profile_file.h"

namespace mpidbg::profile {
namespace {

using nlohmann::json;

const std::string kGood = std::string(MPIDBG_TEST_DATA) + "/profile_2ranks.json";

json GoodDoc() {
  std::ifstream in(kGood);
  return json::parse(in);
}

TEST(ProfileFile, ReadsEveryPart) {
  auto job = LoadProfileFile(kGood);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->world_size, 2);
  EXPECT_EQ(job->period_ns, 10000000);
  EXPECT_EQ(job->clock, "wall");
  EXPECT_EQ(job->signal, 27);
  EXPECT_EQ(job->samples.not_in_mpi, 300u);
  EXPECT_EQ(job->samples.in_mpi, 20u);
  EXPECT_EQ(job->samples.blocked, 180u);
  ASSERT_EQ(job->functions.size(), 2u);
  EXPECT_EQ(job->functions[0].call, "MPI_Recv");  // most samples first, whatever the file's order
  EXPECT_EQ(job->functions[0].blocked, 150u);
  ASSERT_EQ(job->sites.size(), 2u);
  EXPECT_EQ(job->sites[0].site, "ring+0x11a9");
  EXPECT_EQ(job->sites[0].symbol, std::optional<std::string>("main+0x44"));
  EXPECT_EQ(job->sites[0].ranks, 2);
  EXPECT_FALSE(job->sites[1].symbol.has_value());  // null
  const RankProfile& r1 = job->ranks[1];
  EXPECT_TRUE(r1.present);
  EXPECT_EQ(r1.pid, 201);
  EXPECT_EQ(r1.threads, 2u);
  EXPECT_EQ(r1.lost, 3u);
  EXPECT_EQ(r1.samples.blocked, 140u);
  EXPECT_EQ(r1.functions[0].blocked, 120u);
}

TEST(ProfileFile, JobPartMergedFromRanksWhenMissing) {
  json doc = GoodDoc();
  doc["job"].erase("samples");
  doc["job"].erase("functions");
  doc["job"].erase("sites");
  auto job = ProfileFromJson(doc, "p.json");
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->samples.not_in_mpi, 300u);
  EXPECT_EQ(job->samples.blocked, 180u);
  ASSERT_EQ(job->functions.size(), 2u);
  EXPECT_EQ(job->functions[0].call, "MPI_Recv");
  EXPECT_EQ(job->functions[0].working, 15u);
  EXPECT_EQ(job->functions[0].blocked, 150u);
  ASSERT_EQ(job->sites.size(), 2u);
  EXPECT_EQ(job->sites[0].offset, "0x11a9");
  EXPECT_EQ(job->sites[0].blocked, 150u);
  EXPECT_EQ(job->sites[0].ranks, 2);
}

TEST(ProfileFile, BadContentIsOneSentence) {
  const std::pair<std::function<void(json&)>, const char*> cases[] = {
      {[](json& d) { d["job"]["period_ns"] = "10ms"; },
       "p.json: job.period_ns is a string, not an integer"},
      {[](json& d) { d["job"]["period_ns"] = 0; }, "p.json: job.period_ns is not positive"},
      {[](json& d) { d["job"]["clock"] = "sun"; },
       "p.json: job.clock is \"sun\", not \"wall\" or \"cpu\""},
      {[](json& d) { d["ranks"][1]["samples"]["blocked"] = 1.5; },
       "p.json: ranks[1].samples.blocked is a fraction, not an unsigned integer"},
      {[](json& d) { d["ranks"][0]["functions"][0].erase("call"); },
       "p.json: ranks[0].functions[0].call is missing"},
      {[](json& d) { d["ranks"][1]["rank"] = 2; },
       "p.json: ranks[1].rank is 2, not a rank of the 2-rank job"},
      {[](json& d) { d["schema"] = "mpidbg.monitor/1"; },
       "p.json is a \"mpidbg.monitor/1\" document, not mpidbg.profile/1"},
      {[](json& d) { d["job"]["sites"][0]["symbol"] = 7; },
       "p.json: job.sites[0].symbol is an integer, not a string"},
  };
  for (const auto& [spoil, expected] : cases) {
    json doc = GoodDoc();
    spoil(doc);
    auto job = ProfileFromJson(doc, "p.json");
    ASSERT_FALSE(job.ok()) << expected;
    EXPECT_EQ(job.status().exit_code(), 3) << expected;
    EXPECT_EQ(job.status().message(), expected);
  }
}

}  // namespace
}  // namespace mpidbg::profile
