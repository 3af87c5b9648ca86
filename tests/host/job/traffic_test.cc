// Messages proven sent and not received by the runtimes' traffic counters: an eager
// send that completed at the sender and that nobody received is invisible in any queue
// the runtime can read, yet it explains the hang.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "job/job_analysis.h"
#include "job_builder.h"
#include "report_queries.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::Op;
using testing::R;
using testing::Tag;
using testing::HasHint;
using testing::AllHints;

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

// The ring: every rank sends tag 12 right and receives tag 12 from the left,
// but rank 2 expects tag 99. Every other Sendrecv completed (eager messages) and its
// rank sits in MPI_Finalize; rank 2 still holds both halves of its Sendrecv, and rank 3
// has received the send half. Only 1 -> 2 is unmatched.
JobBuilder SendrecvRingOneTagWrong() {
  JobBuilder job(4);
  for (int r : {0, 1, 3}) job.Collective(r, "MPI_Finalize");
  job.Blocked(2, Op("MPI_Sendrecv", false, R(1), Tag(99)));
  model::Operation send = Op("MPI_Sendrecv", true, R(3), Tag(12));
  send = job.Resolve(2, send);
  send.blocking = true;
  send.tid = job.Thread(2).tid;
  send.post_serial = 7;
  job.Comm(2, testing::kWorld).pending_sends.push_back(send);
  for (int r = 0; r < 4; ++r) {
    model::Traffic t;
    const int right = (r + 1) % 4, left = (r + 3) % 4;
    t.counts = {Count(right, 12, 1, 0)};
    if (r != 2) t.counts.push_back(Count(left, 12, 0, 1));  // rank 2 received nothing
    t.sends = {Logged(right, 12, 1, 16)};
    t.log_capacity = 1024;
    t.sends_logged = 1;
    job.Rank(r).traffic = t;
  }
  return job;
}

TEST(TrafficJoin, SendHalfTheReceiverTookIsNotUnmatched) {
  const JobReport report = Analyze(SendrecvRingOneTagWrong().snapshots());
  ASSERT_EQ(report.unmatched.size(), 1u);
  EXPECT_EQ(report.unmatched[0].from, 1);
  EXPECT_EQ(report.unmatched[0].to, 2);
  EXPECT_EQ(report.unmatched[0].tag.value, 12);
  EXPECT_TRUE(report.unmatched[0].from_counts);
}

TEST(TrafficJoin, ReceiveHalfWaitingForAnotherTagIsExplained) {
  const JobReport report = Analyze(SendrecvRingOneTagWrong().snapshots());
  EXPECT_TRUE(HasHint(report,
                      "rank 2 waits for tag 99 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 12 "
                      "to rank 2 instead"))
      << AllHints(report);
  EXPECT_TRUE(report.deadlock.detected);
}

TEST(TrafficJoin, SendHalfNotYetReceivedStaysUnmatched) {
  // The same ring, but rank 3 has not received rank 2's message: it is still a message
  // nobody took.
  JobBuilder job = SendrecvRingOneTagWrong();
  job.Rank(3).traffic->counts = {Count(0, 12, 1, 0)};
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.unmatched.size(), 2u);
  EXPECT_EQ(report.unmatched[1].from, 2);
  EXPECT_EQ(report.unmatched[1].to, 3);
  EXPECT_FALSE(report.unmatched[1].from_counts);
}

}  // namespace
}  // namespace mpidbg::job
