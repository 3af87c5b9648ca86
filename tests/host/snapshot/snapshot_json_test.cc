// snapshot_json_test.cc — "mpidbg.snapshot/1": exact keys and values of OUTPUT.md, and
// a lossless round trip through SnapshotFromJson.
#include <set>

#include <gtest/gtest.h>

#include "host/snapshot/snapshot_json.h"
#include "host/snapshot/snapshot_parse.h"
#include "host/snapshot/snapshot_text.h"
#include "host/util/rank_list_text.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

model::Operation BlockingRecv() {
  model::Operation op;
  op.call = "MPI_Recv";
  op.status = "pending";
  op.is_send = false;
  op.peer = model::Rank::AnySource();
  op.peer_world = model::Rank::AnySource();
  op.tag.any = true;
  op.count = 10;
  op.datatype = "MPI_INT";
  op.bytes = 40;
  op.buffer = 0x7ffd12345678;
  op.blocking = true;
  op.tid = 4242;
  op.comm_id = "0x0000000000000001";
  op.comm_name = "MPI_COMM_WORLD";
  op.post_serial = 7;
  return op;
}

model::Operation Isend() {
  model::Operation op;
  op.call = "MPI_Isend";
  op.status = "matched";
  op.is_send = true;
  op.peer = model::Rank::Of(3);
  op.peer_world = model::Rank::Of(5);
  op.tag.value = 7;
  op.count = 1;
  op.datatype = "MPI_DOUBLE";
  op.bytes = 8;
  op.buffer = 0x1000;
  op.mode = "synchronous";
  op.request = 0xac000001;
  op.comm_id = "0x00000000000000ab";
  op.comm_name = "sub";
  op.post_serial = 3;
  return op;
}

model::ProcessSnapshot HandBuilt() {
  model::ProcessSnapshot s;
  s.process.pid = 4242;
  s.process.rank = 0;
  s.process.size = 4;
  s.process.hostname = "node1";
  s.process.source = "live";
  s.process.mpi_library = "MPICH Version: 4.0.2";
  s.process.thread_level = "MPI_THREAD_MULTIPLE";
  s.process.state = "running";
  s.process.plugin = "/usr/lib/mpidbg/libmpidbg_plugin.so";

  model::Thread blocked;
  blocked.tid = 4242;
  blocked.state = "blocked";
  blocked.call = "MPI_Recv";
  blocked.seconds_in_call = 12.5;
  blocked.call_class = "p2p";
  blocked.operation = BlockingRecv();
  s.threads.push_back(blocked);

  model::Thread waiting;
  waiting.tid = 4243;
  waiting.state = "blocked";
  waiting.call = "MPI_Waitall";
  waiting.seconds_in_call = 1.0;
  waiting.call_class = "wait";
  waiting.waited.push_back(Isend());
  waiting.waited_unknown = 1;
  s.threads.push_back(waiting);

  model::Thread coll;
  coll.tid = 4244;
  coll.state = "in_mpi";
  coll.call = "MPI_Bcast";
  coll.call_class = "coll";
  coll.comm_id = "0x0000000000000001";
  coll.comm_name = "MPI_COMM_WORLD";
  coll.root = 2;
  s.threads.push_back(coll);

  model::Thread idle;
  idle.tid = 4245;
  s.threads.push_back(idle);

  model::Communicator world;
  world.id = "0x0000000000000001";
  world.name = "MPI_COMM_WORLD";
  world.handle = 0x44000000;
  world.size = 4;
  world.rank = 0;
  world.world_ranks = {0, 1, 2, 3};
  world.predefined = true;
  world.creator = "MPIDBG_PREDEFINED";
  world.pending_receives.push_back(BlockingRecv());
  world.unexpected = std::vector<model::Operation>{};
  s.communicators.push_back(world);

  model::Communicator inter;
  inter.id = "0x00000000000000ab";
  inter.name = "sub";
  inter.handle = 0x84000003;
  inter.kind = "inter";
  inter.size = 2;
  inter.rank = 1;
  inter.world_ranks = {4, 5};
  inter.remote_world_ranks = std::vector<int>{0, 1};
  inter.topology = "cart";
  inter.freed = true;
  inter.pending_sends.push_back(Isend());
  s.communicators.push_back(inter);
  return s;
}

std::set<std::string> Keys(const json& j) {
  std::set<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
  return keys;
}

void ExpectHasKeys(const json& j, const std::set<std::string>& required) {
  std::set<std::string> have = Keys(j);
  for (const std::string& k : required) EXPECT_TRUE(have.count(k)) << "missing key " << k;
}

TEST(SnapshotJson, TopLevelKeysAndSchema) {
  json doc = SnapshotToJson(HandBuilt());
  EXPECT_EQ(doc["schema"], "mpidbg.snapshot/1");
  ExpectHasKeys(doc, {"schema", "process", "threads", "communicators", "handles", "metadata"});
  ExpectHasKeys(doc["process"],
                {"pid", "rank", "size", "hostname", "source", "mpi_library", "thread_level"});
  EXPECT_EQ(doc["process"]["pid"], 4242);
  EXPECT_EQ(doc["process"]["source"], "live");
  EXPECT_EQ(doc["process"]["thread_level"], "MPI_THREAD_MULTIPLE");
  ExpectHasKeys(doc["metadata"], {"pmi", "mpi_t"});
  EXPECT_EQ(doc["metadata"]["pmi"]["rank"], 0);
  EXPECT_EQ(doc["metadata"]["pmi"]["size"], 4);
  EXPECT_EQ(doc["metadata"]["pmi"]["hostname"], "node1");
  EXPECT_EQ(doc["metadata"]["pmi"]["pid"], 4242);
  EXPECT_TRUE(doc["metadata"]["mpi_t"].is_null());
}

TEST(SnapshotJson, ThreadsFollowTheContract) {
  json threads = SnapshotToJson(HandBuilt())["threads"];
  ASSERT_EQ(threads.size(), 4u);
  for (const json& t : threads) {
    ExpectHasKeys(t, {"tid", "state", "call", "seconds_in_call", "operation", "blocked"});
    std::string state = t["state"];
    EXPECT_TRUE(state == "in_mpi" || state == "not_in_mpi") << state;
  }
  // A blocked thread: state in_mpi plus blocked true.
  EXPECT_EQ(threads[0]["state"], "in_mpi");
  EXPECT_EQ(threads[0]["blocked"], true);
  EXPECT_EQ(threads[0]["call"], "MPI_Recv");
  EXPECT_DOUBLE_EQ(threads[0]["seconds_in_call"].get<double>(), 12.5);
  EXPECT_EQ(threads[0]["operation"]["peer"], "ANY_SOURCE");
  EXPECT_EQ(threads[0]["operation"]["tag"], "ANY_TAG");
  EXPECT_EQ(threads[1]["waited"].size(), 1u);
  EXPECT_EQ(threads[1]["waited_unknown"], 1);
  EXPECT_EQ(threads[2]["state"], "in_mpi");
  EXPECT_EQ(threads[2]["blocked"], false);
  EXPECT_EQ(threads[2]["root"], 2);
  EXPECT_EQ(threads[2]["comm"], "0x0000000000000001");
  EXPECT_EQ(threads[3]["state"], "not_in_mpi");
  EXPECT_TRUE(threads[3]["call"].is_null());
  EXPECT_TRUE(threads[3]["seconds_in_call"].is_null());
  EXPECT_TRUE(threads[3]["operation"].is_null());
}

TEST(SnapshotJson, CommunicatorsFollowTheContract) {
  json comms = SnapshotToJson(HandBuilt())["communicators"];
  ASSERT_EQ(comms.size(), 2u);
  for (const json& c : comms) {
    ExpectHasKeys(c, {"id", "name", "handle", "kind", "size", "rank", "world_ranks",
                      "remote_world_ranks", "topology", "freed", "pending_sends",
                      "pending_receives", "unexpected"});
  }
  const json& world = comms[0];
  EXPECT_EQ(world["id"], "0x0000000000000001");
  EXPECT_EQ(world["handle"], "0x44000000");
  EXPECT_EQ(world["kind"], "intra");
  EXPECT_EQ(world["world_ranks"], json({0, 1, 2, 3}));
  EXPECT_TRUE(world["remote_world_ranks"].is_null());
  EXPECT_TRUE(world["topology"].is_null());
  EXPECT_EQ(world["freed"], false);
  EXPECT_TRUE(world["unexpected"].is_array());
  const json& inter = comms[1];
  EXPECT_EQ(inter["kind"], "inter");
  EXPECT_EQ(inter["remote_world_ranks"], json({0, 1}));
  EXPECT_EQ(inter["topology"], "cart");
  EXPECT_EQ(inter["freed"], true);
  EXPECT_TRUE(inter["unexpected"].is_null());  // not known for this target
}

TEST(SnapshotJson, OperationsFollowTheContract) {
  json comms = SnapshotToJson(HandBuilt())["communicators"];
  const json& send = comms[1]["pending_sends"][0];
  ExpectHasKeys(send, {"call", "status", "peer", "peer_world", "tag", "count", "datatype",
                       "bytes", "buffer", "mode", "request", "blocking", "tid", "comm",
                       "comm_name"});
  EXPECT_EQ(send["call"], "MPI_Isend");
  EXPECT_EQ(send["status"], "matched");
  EXPECT_EQ(send["peer"], 3);
  EXPECT_EQ(send["peer_world"], 5);
  EXPECT_EQ(send["tag"], 7);
  EXPECT_EQ(send["count"], 1);
  EXPECT_EQ(send["datatype"], "MPI_DOUBLE");
  EXPECT_EQ(send["bytes"], 8);
  EXPECT_EQ(send["buffer"], "0x1000");
  EXPECT_EQ(send["mode"], "synchronous");
  EXPECT_EQ(send["request"], "0xac000001");
  EXPECT_EQ(send["blocking"], false);
  EXPECT_TRUE(send["tid"].is_null());
  EXPECT_EQ(send["comm"], "0x00000000000000ab");
  EXPECT_EQ(send["comm_name"], "sub");
  const json& recv = comms[0]["pending_receives"][0];
  EXPECT_EQ(recv["peer"], "ANY_SOURCE");
  // A wildcard receive names no process: peer_world is null, as the contract says.
  EXPECT_TRUE(recv["peer_world"].is_null()) << recv.dump();
  EXPECT_EQ(recv["tag"], "ANY_TAG");
  EXPECT_TRUE(recv["mode"].is_null());
  EXPECT_TRUE(recv["request"].is_null());
  EXPECT_EQ(recv["blocking"], true);
  EXPECT_EQ(recv["tid"], 4242);
}

TEST(SnapshotJson, WildcardsAndUnknownRanks) {
  EXPECT_EQ(RankToJson(model::Rank::ProcNull()), "PROC_NULL");
  EXPECT_EQ(RankToJson(model::Rank::AnySource()), "ANY_SOURCE");
  EXPECT_TRUE(RankToJson(model::Rank::Unknown()).is_null());
  EXPECT_EQ(RankToJson(model::Rank::Of(0)), 0);
  model::Tag any;
  any.any = true;
  EXPECT_EQ(TagToJson(any), "ANY_TAG");
}

TEST(SnapshotJson, RoundTripIsLossless) {
  model::ProcessSnapshot original = HandBuilt();
  json doc = SnapshotToJson(original);
  auto parsed = SnapshotFromJson(json::parse(doc.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(SnapshotToJson(parsed.value()), doc);
  const model::ProcessSnapshot& p = parsed.value();
  EXPECT_EQ(p.threads[0].state, "blocked");
  EXPECT_EQ(p.threads[2].state, "in_mpi");
  ASSERT_TRUE(p.threads[0].operation.has_value());
  EXPECT_EQ(p.threads[0].operation->peer, model::Rank::AnySource());
  EXPECT_TRUE(p.threads[0].operation->tag.any);
  EXPECT_EQ(p.communicators[1].handle, 0x84000003u);
  EXPECT_FALSE(p.communicators[1].unexpected.has_value());
  ASSERT_TRUE(p.communicators[0].unexpected.has_value());
  EXPECT_TRUE(p.communicators[0].unexpected->empty());
  EXPECT_TRUE(p.communicators[1].pending_sends[0].is_send);
  EXPECT_EQ(*p.communicators[1].pending_sends[0].request, 0xac000001u);
  EXPECT_EQ(p.process.plugin, original.process.plugin);
}

// A thread that paused recording, its state read from its stack: both said, both kept.
TEST(SnapshotJson, APausedThreadRoundTrips) {
  model::ProcessSnapshot original = HandBuilt();
  original.threads[0].recording_paused = true;
  original.threads[0].state_from = "stack";
  json doc = SnapshotToJson(original);
  EXPECT_EQ(doc["threads"][0]["recording_paused"], true);
  EXPECT_EQ(doc["threads"][0]["state_from"], "stack");
  EXPECT_EQ(doc["threads"][1]["recording_paused"], false);
  EXPECT_TRUE(doc["threads"][1]["state_from"].is_null());
  auto parsed = SnapshotFromJson(json::parse(doc.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(parsed->threads[0].recording_paused);
  EXPECT_EQ(parsed->threads[0].state_from, "stack");
  EXPECT_FALSE(parsed->threads[1].recording_paused);
  // A document from before the keys: not paused, state from the records.
  doc["threads"][0].erase("recording_paused");
  doc["threads"][0].erase("state_from");
  auto older = SnapshotFromJson(doc);
  ASSERT_TRUE(older.ok());
  EXPECT_FALSE(older->threads[0].recording_paused);
  EXPECT_EQ(older->threads[0].state_from, "");
}

// The line under a paused thread says what its state rests on: its stack, or the
// records of the one call recorded despite the pause.
TEST(SnapshotText, APausedThreadSaysWhereItsStateCameFrom) {
  model::ProcessSnapshot s = HandBuilt();
  s.threads[0].recording_paused = true;
  s.threads[0].state = "blocked";
  s.threads[0].state_from = "stack";
  EXPECT_NE(SnapshotText(s).find("(recording paused by the program: its MPI calls are not "
                                 "recorded; state and call read from its stack)"),
            std::string::npos)
      << SnapshotText(s);
  s.threads[0].state_from = "";
  EXPECT_NE(SnapshotText(s).find("(recording paused by the program: its MPI calls are not "
                                 "recorded, but for this one, recorded despite the pause)"),
            std::string::npos)
      << SnapshotText(s);
  s.threads[0].state = "unknown";
  EXPECT_NE(SnapshotText(s).find("(recording paused by the program: its MPI calls are not "
                                 "recorded)"),
            std::string::npos)
      << SnapshotText(s);
}

TEST(SnapshotJson, TheReducedViewRoundTrips) {
  model::ProcessSnapshot original = HandBuilt();
  EXPECT_EQ(SnapshotToJson(original)["view"], "records");
  original.process.view = "stacks";
  original.process.rank_from = "PMI_RANK";
  original.threads[0].arguments_from = "caller_frame";
  json doc = SnapshotToJson(original);
  EXPECT_EQ(doc["view"], "stacks");
  EXPECT_EQ(doc["process"]["rank_from"], "PMI_RANK");
  EXPECT_EQ(doc["threads"][0]["arguments_from"], "caller_frame");
  EXPECT_TRUE(doc["threads"][1]["arguments_from"].is_null());
  auto parsed = SnapshotFromJson(json::parse(doc.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->process.view, "stacks");
  EXPECT_EQ(parsed->process.rank_from, "PMI_RANK");
  EXPECT_EQ(parsed->threads[0].arguments_from, "caller_frame");
  // A document from before the key, or with a value of no known view, is the full view.
  doc.erase("view");
  EXPECT_EQ(SnapshotFromJson(doc)->process.view, "records");
  doc["view"] = "other";
  EXPECT_EQ(SnapshotFromJson(doc)->process.view, "records");
}

// What the DLL's walk left out: null when the DLL does not say, else every count and
// whether the view is partial; it survives a round trip and heads the text.
TEST(SnapshotJson, WalkDamageRoundTripsAndMarksAPartialView) {
  model::ProcessSnapshot s = HandBuilt();
  EXPECT_TRUE(SnapshotToJson(s)["process"]["damage"].is_null());
  EXPECT_EQ(SnapshotText(s).find("PARTIAL VIEW"), std::string::npos);
  s.process.damage = model::WalkDamage{};
  EXPECT_EQ(SnapshotToJson(s)["process"]["damage"]["partial"], false);
  EXPECT_EQ(SnapshotText(s).find("PARTIAL VIEW"), std::string::npos);
  s.process.damage->records_torn = 2;
  s.process.damage->rings_damaged = 1;
  const json doc = SnapshotToJson(s);
  EXPECT_EQ(doc["process"]["damage"],
            json({{"partial", true}, {"records_torn", 2}, {"records_bad", 0},
                  {"tables_damaged", 0}, {"rings_damaged", 1}, {"live_unreadable", 0}}));
  auto parsed = SnapshotFromJson(json::parse(doc.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_TRUE(parsed->process.damage.has_value());
  EXPECT_EQ(parsed->process.damage->records_torn, 2u);
  EXPECT_EQ(parsed->process.damage->rings_damaged, 1u);
  EXPECT_EQ(SnapshotToJson(parsed.value()), doc);
  const std::string text = SnapshotText(s);
  EXPECT_NE(text.find("  PARTIAL VIEW: the runtime's records could not all be read (2 records "
                      "torn, 1 flight ring unreadable); operations, threads or objects may be "
                      "missing\n"),
            std::string::npos)
      << text;
}

// An intercommunicator to another job: "remote_job" names the job and the remote
// ranks in its world (null for every other communicator), and survives a round trip.
TEST(SnapshotJson, RemoteJobOfAnIntercommunicatorToAnotherJob) {
  model::ProcessSnapshot s = HandBuilt();
  s.communicators[1].remote_world_ranks = std::vector<int>{-3, -3};
  s.communicators[1].remote_job = model::Communicator::RemoteJob{"1234567", {0, 1}};
  json doc = SnapshotToJson(s);
  EXPECT_TRUE(doc["communicators"][0]["remote_job"].is_null());
  EXPECT_EQ(doc["communicators"][1]["remote_job"],
            json({{"job_id", "1234567"}, {"world_ranks", {0, 1}}}));
  auto parsed = SnapshotFromJson(json::parse(doc.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_TRUE(parsed.value().communicators[1].remote_job.has_value());
  EXPECT_EQ(parsed.value().communicators[1].remote_job->job_id, "1234567");
  EXPECT_EQ(parsed.value().communicators[1].remote_job->world_ranks, (std::vector<int>{0, 1}));
  EXPECT_FALSE(parsed.value().communicators[0].remote_job.has_value());
  EXPECT_EQ(SnapshotToJson(parsed.value()), doc);
  const std::string text = QueuesText(s);
  EXPECT_NE(text.find("remote group: job 1234567 world ranks 0-1"), std::string::npos) << text;
}

TEST(SnapshotJson, WrongSchemaIsRefused) {
  json doc = SnapshotToJson(HandBuilt());
  doc["schema"] = "mpidbg.job/1";
  EXPECT_FALSE(SnapshotFromJson(doc).ok());
  doc["schema"] = "mpidbg.snapshot/1";
  doc["threads"][0]["tid"] = "not a number";
  auto bad = SnapshotFromJson(doc);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("malformed"), std::string::npos);
}

TEST(SnapshotText, ShowsTheEssentials) {
  std::string text = SnapshotText(HandBuilt());
  EXPECT_NE(text.find("process 4242, rank 0 of 4"), std::string::npos) << text;
  EXPECT_NE(text.find("blocked in MPI_Recv for 12.5 s"), std::string::npos) << text;
  EXPECT_NE(text.find("MPI_Recv(source=ANY_SOURCE, tag=ANY_TAG, comm=MPI_COMM_WORLD)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("unexpected messages: not known"), std::string::npos) << text;
  EXPECT_EQ(RankListText({0, 1, 2, 3, 5, 7, 8}), "0-3,5,7-8");
}

}  // namespace
}  // namespace mpidbg::host
