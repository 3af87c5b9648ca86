// profile_nodes_test.cc — MPI-state samples across nodes: a job's ranks written into
// node records of profile content (`collect --content profile`), read back through the
// sinks `profile --slurm` uses and merged, give the job the file gives.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/collect/node_record_schema.h"
#include "host/collect/node_record_writer.h"
#include "host/profile/profile_file.h"
#include "host/profile/profile_json.h"
#include "host/profile/profile_nodes.h"

namespace mpidbg::profile {
namespace {

const std::string kGood = std::string(MPIDBG_TEST_DATA) + "/profile_2ranks.json";

std::string Record(const JobProfile& job, const std::string& host, int rank) {
  std::ostringstream out;
  host::NodeRecordWriter writer(out);
  writer.Header({host, "", 1, "test"}, host::kNodeContentProfile, ProfileJobObject(job, false));
  writer.Section(ProfileRankObject(job.ranks[static_cast<size_t>(rank)], job.period_ns));
  writer.Trailer(0.1);
  return out.str();
}

host::NodeRecordSummary Feed(const std::string& text, JobProfile* into) {
  host::NodeRecordLines lines("test", ProfileRecordSinks(into));
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.Line(line);
  return lines.Finish();
}

TEST(ProfileNodes, OneRankPerNodeGivesTheJobTheFileGives) {
  auto file = LoadProfileFile(kGood);
  ASSERT_TRUE(file.ok()) << file.status().message();
  JobProfile merged;
  for (int r = 0; r < file->world_size; ++r) {
    host::NodeRecordSummary s = Feed(Record(*file, "n" + std::to_string(r), r), &merged);
    ASSERT_TRUE(s.complete) << s.status.message();
  }
  MergeRanks(&merged);
  merged.source = file->source;
  merged.id = file->id;
  merged.written_time_ns = file->written_time_ns;
  EXPECT_EQ(ProfileToJson(merged).dump(1), ProfileToJson(*file).dump(1));
}

TEST(ProfileNodes, AnotherPeriodIsRefused) {
  auto file = LoadProfileFile(kGood);
  ASSERT_TRUE(file.ok());
  JobProfile merged;
  ASSERT_TRUE(Feed(Record(*file, "n0", 0), &merged).complete);
  JobProfile other = *file;
  other.period_ns *= 2;
  host::NodeRecordSummary s = Feed(Record(other, "n1", 1), &merged);
  EXPECT_FALSE(s.complete);
  EXPECT_NE(s.status.message().find("another period"), std::string::npos) << s.status.message();
}

}  // namespace
}  // namespace mpidbg::profile
