// profile_output_test.cc — the text and the "mpidbg.profile/1" document of
// `mpidbg profile`, from the hand-written 2-rank file.
#include <gtest/gtest.h>

#include "host/profile/profile_file.h"
#include "host/profile/profile_json.h"
#include "host/profile/profile_text.h"

namespace mpidbg::profile {
namespace {

JobProfile TwoRanks() {
  auto job = LoadProfileFile(std::string(MPIDBG_TEST_DATA) + "/profile_2ranks.json");
  EXPECT_TRUE(job.ok()) << job.status().message();
  return job.ok() ? job.value() : JobProfile();
}

TEST(ProfileText, JobTotalsFunctionsSitesRanks) {
  std::string text = ProfileToText(TwoRanks());
  EXPECT_NE(text.find("MPI-state profile: 2 ranks (file), every 10 ms of wall time\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  not in MPI             3.000 s   60.0%  (300 samples)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  in MPI, blocked        1.800 s   36.0%  (180 samples)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  MPI_Recv                 working 0.150 s, blocked 1.500 s\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  ring+0x11a9  main+0x44  MPI_Recv: working 0.150 s, blocked 1.500 s, "
                      "2 ranks\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  rank 1: not in MPI  40.0%, working   4.0%, blocked  56.0%; most in "
                      "MPI_Recv (pid 201 on node0)\n"),
            std::string::npos)
      << text;
}

TEST(ProfileText, OneRankInDetail) {
  std::string text = ProfileToText(TwoRanks(), 1);
  EXPECT_NE(text.find("MPI-state profile of rank 1 (file)"), std::string::npos) << text;
  EXPECT_NE(text.find("pid 201 on node0, 2 threads sampled, 3 samples without a call site\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  in MPI, blocked        1.400 s   56.0%  (140 samples)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("ranks:"), std::string::npos);
}

TEST(ProfileJson, NormalisedDocument) {
  nlohmann::json doc = ProfileToJson(TwoRanks());
  EXPECT_EQ(doc["schema"], "mpidbg.profile/1");
  EXPECT_EQ(doc["source"], "file");
  EXPECT_EQ(doc["job"]["world_size"], 2);
  EXPECT_EQ(doc["job"]["period_ns"], 10000000);
  EXPECT_EQ(doc["job"]["samples"]["blocked"], 180);
  EXPECT_DOUBLE_EQ(doc["job"]["seconds"]["blocked"].get<double>(), 1.8);
  EXPECT_EQ(doc["job"]["functions"][0]["call"], "MPI_Recv");
  EXPECT_DOUBLE_EQ(doc["job"]["functions"][0]["seconds_blocked"].get<double>(), 1.5);
  EXPECT_EQ(doc["job"]["sites"][0]["ranks"], 2);
  EXPECT_TRUE(doc["job"]["sites"][1]["symbol"].is_null());
  ASSERT_EQ(doc["ranks"].size(), 2u);
  EXPECT_EQ(doc["ranks"][1]["lost"], 3);
  EXPECT_DOUBLE_EQ(doc["ranks"][1]["seconds"]["not_in_mpi"].get<double>(), 1.0);
  EXPECT_FALSE(doc["ranks"][1]["sites"][0].contains("ranks"));
}

}  // namespace
}  // namespace mpidbg::profile
