// Messages proven sent and not received by the runtimes' traffic counters: an eager
// send that completed at the sender and that nobody received is invisible in any queue
// the runtime can read, yet it explains the hang.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::R;
using testing::Tag;

model::TrafficCount Count(int peer, int tag, uint64_t sends, uint64_t receives) {
  model::TrafficCount c;
  c.comm_id = testing::kWorld;
  c.peer = peer;
  c.peer_world = R(peer);
  c.tag = tag;
  c.sends = sends;
  c.receives = receives;
  c.send_bytes = sends * 40;
  c.receive_bytes = receives * 40;
  return c;
}

model::LoggedSend Logged(int peer, int tag, uint64_t ordinal, int64_t bytes) {
  model::LoggedSend l;
  l.call = "MPI_Send";
  l.comm_id = testing::kWorld;
  l.ordinal = ordinal;
  l.peer = peer;
  l.peer_world = R(peer);
  l.tag = tag;
  l.count = bytes / 4;
  l.bytes = bytes;
  l.mode = "standard";
  return l;
}

bool HasHint(const JobReport& report, const std::string& text) {
  for (const std::string& h : report.hints) {
    if (h == text) return true;
  }
  return false;
}

std::string AllHints(const JobReport& report) {
  std::string all;
  for (const std::string& h : report.hints) all += "  " + h + "\n";
  return all;
}

// Rank 1 sent tag 9 eagerly (complete) and went on to a barrier; rank 0 waits for tag 7.
JobBuilder EagerTagMismatch() {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(7));
  job.Collective(1, "MPI_Barrier");
  job.Rank(0).traffic = model::Traffic{};
  model::Traffic sender;
  sender.counts = {Count(0, 9, 1, 0)};
  sender.sends = {Logged(0, 9, 1, 40)};
  sender.log_capacity = 1024;
  sender.sends_logged = 1;
  job.Rank(1).traffic = sender;
  return job;
}

TEST(TrafficJoin, EagerSendNobodyReceivedIsUnmatched) {
  JobBuilder job = EagerTagMismatch();
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.unmatched.size(), 1u);
  const UnmatchedMessage& m = report.unmatched[0];
  EXPECT_EQ(m.from, 1);
  EXPECT_EQ(m.to, 0);
  EXPECT_EQ(m.tag.value, 9);
  EXPECT_EQ(m.bytes, 40);
  EXPECT_EQ(m.call, "MPI_Send");
  EXPECT_TRUE(m.from_counts);
  EXPECT_FALSE(m.arrived);
  EXPECT_EQ(m.ordinal, 1u);
  EXPECT_TRUE(HasHint(report,
                      "rank 0 waits for tag 7 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 9 "
                      "to rank 0 instead"))
      << AllHints(report);
  EXPECT_TRUE(report.deadlock.detected);

  const nlohmann::json j = ToJson(report);
  EXPECT_EQ(j["unmatched"][0]["evidence"], "traffic_counts");
  EXPECT_EQ(j["unmatched"][0]["ordinal"], 1);
  EXPECT_NE(ToText(report).find("sent, not received"), std::string::npos) << ToText(report);
}

TEST(TrafficJoin, ReceivedMessagesAreNotListed) {
  JobBuilder job = EagerTagMismatch();
  job.Rank(0).traffic->counts = {Count(1, 9, 0, 1)};  // rank 0 took it
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.unmatched.empty());
}

TEST(TrafficJoin, OnlyTheOutstandingOrdinalsAreListedWithTheirEnvelopes) {
  JobBuilder job = EagerTagMismatch();
  model::Traffic& sender = *job.Rank(1).traffic;
  sender.counts = {Count(0, 9, 3, 0)};
  sender.sends = {Logged(0, 9, 1, 40), Logged(0, 9, 2, 80), Logged(0, 9, 3, 120)};
  job.Rank(0).traffic->counts = {Count(1, 9, 0, 1)};
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.unmatched.size(), 2u);
  EXPECT_EQ(report.unmatched[0].ordinal, 2u);
  EXPECT_EQ(report.unmatched[0].bytes, 80);
  EXPECT_EQ(report.unmatched[1].ordinal, 3u);
  EXPECT_EQ(report.unmatched[1].bytes, 120);
}

TEST(TrafficJoin, WithoutTheReceiversCountersNothingIsClaimed) {
  JobBuilder job = EagerTagMismatch();
  job.Rank(0).traffic.reset();
  const JobReport report = Analyze(job.snapshots());
  EXPECT_TRUE(report.unmatched.empty());
}

TEST(TrafficJoin, PendingSendsAreNotCountedTwice) {
  JobBuilder job(2);
  job.Recv(0, R(1), Tag(7));
  job.Send(1, 0, 9);  // blocked in MPI_Send: a pending operation and one counted send
  job.Rank(0).traffic = model::Traffic{};
  model::Traffic sender;
  sender.counts = {Count(0, 9, 1, 0)};
  job.Rank(1).traffic = sender;
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.unmatched.size(), 1u);
  EXPECT_FALSE(report.unmatched[0].from_counts);
}

TEST(TrafficJoin, AMessageThatSatisfiesTheReceiveMeansNoDeadlock) {
  // Rank 1 sent exactly what rank 0 waits for; rank 0 has not taken it yet (the two
  // reads were not at the same instant). Not a deadlock.
  JobBuilder job = EagerTagMismatch();
  job.Rank(1).traffic->counts = {Count(0, 7, 1, 0)};
  job.Rank(1).traffic->sends = {Logged(0, 7, 1, 40)};
  const JobReport report = Analyze(job.snapshots());
  EXPECT_FALSE(report.deadlock.detected);
}

}  // namespace
}  // namespace mpidbg::job
