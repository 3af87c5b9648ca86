// End-to-end: test applications run under `mpidbg run` on each MPI flavour, analysed
// by `mpidbg job` and `mpidbg snapshot`, first live, then from gcore core files of the
// same ranks. Each scenario's checks run on both views.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "job_views.h"
#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

// What mpidbg says about one job from one view (live or core).
struct JobView {
  std::string source;          // "live" | "core"
  json job;                    // `mpidbg job --json`
  std::map<int, json> by_rank; // `mpidbg snapshot --json` per world rank
};

using Check = std::function<void(const JobView&)>;
using Settled = std::function<bool(const json& job)>;

std::map<int, json> Snapshots(const std::string& flag, const std::vector<std::string>& targets) {
  std::map<int, json> out;
  for (const std::string& t : targets) {
    MpidbgResult r = Mpidbg({"snapshot", flag, t, "--json"});
    EXPECT_EQ(r.exit_code, 0) << flag << " " << t << ": " << r.err;
    if (r.json.is_object()) out[r.json["process"]["rank"].get<int>()] = r.json;
  }
  return out;
}

std::string Describe(const JobView& v) { return v.source + " view:\n" + v.job.dump(1); }

// Runs `app` on `ranks` ranks, waits until the live job view satisfies `settled`, checks
// it, dumps cores, kills the job and checks the view from the cores.
void RunScenario(const std::string& flavour, const std::string& app, int ranks,
                 const Settled& settled, const Check& check) {
  MpiJob job(flavour, app, ranks);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;

  JobView live{"live", JobJsonWhen(job.PidList(), settled), {}};
  ASSERT_TRUE(live.job.is_object()) << "no JSON from mpidbg job";
  std::vector<std::string> pid_args;
  for (pid_t p : job.pids()) pid_args.push_back(std::to_string(p));
  live.by_rank = Snapshots("--pid", pid_args);
  {
    SCOPED_TRACE(Describe(live));
    check(live);
  }

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), static_cast<size_t>(ranks)) << why;
  JobView core{"core", nullptr, {}};
  std::vector<std::string> core_args = {"--cores"};
  core_args.insert(core_args.end(), cores.begin(), cores.end());
  core.job = JobJson(core_args);
  ASSERT_TRUE(core.job.is_object()) << "no JSON from mpidbg job --cores";
  core.by_rank = Snapshots("--core", cores);
  SCOPED_TRACE(Describe(core));
  check(core);
}

// --- helpers over the JSON contract of OUTPUT.md -------------------------------------

std::vector<int> Ints(const json& a) {
  std::vector<int> out;
  for (const json& v : a) out.push_back(v.get<int>());
  std::sort(out.begin(), out.end());
  return out;
}

bool DeadlockOf(const json& job, const std::vector<int>& ranks) {
  return job["deadlock"]["detected"] == true && Ints(job["deadlock"]["ranks"]) == ranks;
}

const json& RankEntry(const json& job, int rank) {
  for (const json& r : job["ranks"])
    if (r["rank"] == rank) return r;
  static const json none;
  ADD_FAILURE() << "rank " << rank << " missing from job view";
  return none;
}

// The first thread of a snapshot that is in an MPI call.
json CallingThread(const json& snapshot) {
  for (const json& t : snapshot["threads"])
    if (t["call"].is_string()) return t;
  return json();
}

const json* FindComm(const json& snapshot, const std::string& name) {
  for (const json& c : snapshot["communicators"])
    if (c["name"] == name) return &c;
  return nullptr;
}

void ExpectCycleWithin(const json& job, const std::vector<int>& ranks) {
  const std::vector<int> cycle = Ints(job["deadlock"]["cycle"]);
  ASSERT_FALSE(cycle.empty()) << "a witness cycle";
  for (int r : cycle) EXPECT_TRUE(std::count(ranks.begin(), ranks.end(), r)) << r;
}

// A stack whose first frame is the folded MPI call and whose second is the program's
// main at file:line.
void ExpectCallAt(const json& frames, const std::string& call, const std::string& file, int line) {
  ASSERT_TRUE(frames.is_array() && frames.size() >= 2) << frames.dump();
  EXPECT_EQ(frames[0]["function"], call) << frames.dump();
  EXPECT_TRUE(frames[0]["file"].is_null()) << frames.dump();
  EXPECT_EQ(frames[1]["function"], "main") << frames.dump();
  const std::string f = frames[1]["file"].is_string() ? frames[1]["file"].get<std::string>() : "";
  EXPECT_TRUE(f.size() >= file.size() && f.compare(f.size() - file.size(), file.size(), file) == 0)
      << frames.dump();
  EXPECT_EQ(frames[1]["line"], line) << frames.dump();
}

class Scenario : public ::testing::TestWithParam<std::string> {};

// --- scenarios --------------------------------------------------------------------

TEST_P(Scenario, CycleOfSynchronousSends) {
  RunScenario(GetParam(), "ssend_cycle", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                ExpectCycleWithin(v.job, {0, 1, 2, 3});
                for (const json& e : v.job["deadlock"]["edges"]) {
                  EXPECT_EQ(e["kind"], "and");
                  EXPECT_EQ(e["to"].get<int>(), (e["from"].get<int>() + 1) % 4);
                }
                for (int r = 0; r < 4; ++r) {
                  const json& entry = RankEntry(v.job, r);
                  EXPECT_EQ(entry["state"], "blocked");
                  EXPECT_EQ(entry["call"], "MPI_Ssend");
                  EXPECT_EQ(entry["peer"], (r + 1) % 4);
                  EXPECT_EQ(entry["tag"], 42);
                  EXPECT_EQ(entry["comm_name"], "MPI_COMM_WORLD");
                  ASSERT_TRUE(v.by_rank.count(r));
                  const json t = CallingThread(v.by_rank.at(r));
                  ASSERT_TRUE(t.is_object());
                  EXPECT_EQ(t["call"], "MPI_Ssend");
                  const json& op = t["operation"];
                  EXPECT_EQ(op["peer"], (r + 1) % 4);
                  EXPECT_EQ(op["peer_world"], (r + 1) % 4);
                  EXPECT_EQ(op["tag"], 42);
                  EXPECT_EQ(op["bytes"], 64);
                  EXPECT_EQ(op["count"], 16);
                  EXPECT_EQ(op["datatype"], "MPI_INT");
                  EXPECT_EQ(op["mode"], "synchronous");
                  EXPECT_EQ(op["blocking"], true);
                  const json* world = FindComm(v.by_rank.at(r), "MPI_COMM_WORLD");
                  ASSERT_NE(world, nullptr);
                  EXPECT_EQ((*world)["size"], 4);
                  EXPECT_EQ((*world)["rank"], r);
                  ASSERT_EQ((*world)["pending_sends"].size(), 1u);
                  EXPECT_EQ((*world)["pending_sends"][0]["call"], "MPI_Ssend");
                }
              });
}

TEST_P(Scenario, ReceiveForATagNeverSentWhileSenderIsInBarrier) {
  RunScenario(GetParam(), "tag_never_sent", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [flavour = GetParam()](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                const json& r0 = RankEntry(v.job, 0);
                EXPECT_EQ(r0["call"], "MPI_Recv");
                EXPECT_EQ(r0["peer"], 1);
                EXPECT_EQ(r0["tag"], 7);
                for (int r = 1; r < 4; ++r) EXPECT_EQ(RankEntry(v.job, r)["call"], "MPI_Barrier");
                bool zero_waits_for_one = false;
                for (const json& e : v.job["deadlock"]["edges"])
                  if (e["from"] == 0 && e["to"] == 1) zero_waits_for_one = true;
                EXPECT_TRUE(zero_waits_for_one);
                const json t = CallingThread(v.by_rank.at(0));
                EXPECT_EQ(t["operation"]["bytes"], 8);
                EXPECT_EQ(t["operation"]["datatype"], "MPI_DOUBLE");
                // Stacks: the runtime's wrapper and the MPI library fold into the call,
                // then the program's line (testapps are built with -g).
                ExpectCallAt(r0["frames"], "MPI_Recv", "tag_never_sent.c", 13);
                ExpectCallAt(t["frames"], "MPI_Recv", "tag_never_sent.c", 13);
                for (int r = 1; r < 4; ++r) {
                  ExpectCallAt(RankEntry(v.job, r)["frames"], "MPI_Barrier", "tag_never_sent.c", 17);
                }
                // Rank 1's send completed eagerly: only the traffic counters know of it.
                bool eager_send_found = false;
                for (const json& m : v.job["unmatched"]) {
                  if (m["from"] == 1 && m["to"] == 0 && m["tag"] == 9 &&
                      m["evidence"] == "traffic_counts" && m["call"] == "MPI_Send" &&
                      m["bytes"] == 8 && m["ordinal"] == 1) {
                    eager_send_found = true;
                  }
                }
                EXPECT_TRUE(eager_send_found) << v.job["unmatched"].dump();
                bool hint_found = false;
                for (const json& h : v.job["hints"]) {
                  if (h.get<std::string>().find("rank 1 sent tag 9 to rank 0 instead") !=
                      std::string::npos) {
                    hint_found = true;
                  }
                }
                EXPECT_TRUE(hint_found) << v.job["hints"].dump();
                // Metadata and counters come from memory, so cores have them too.
                const json& s1 = v.by_rank.at(1);
                EXPECT_EQ(s1["metadata"]["pmi"]["launcher"], flavour == "mpich" ? "hydra" : "orte");
                EXPECT_EQ(s1["metadata"]["pmi"]["launcher_rank"], 1);
                EXPECT_EQ(s1["metadata"]["pmi"]["launcher_size"], 4);
                EXPECT_FALSE(s1["metadata"]["pmi"]["job_id"].get<std::string>().empty());
                ASSERT_TRUE(s1["metadata"]["mpi_t"].is_object());
                EXPECT_GT(s1["metadata"]["mpi_t"]["cvars"].size(), 10u);
                EXPECT_TRUE(s1["metadata"]["orphans"].is_object());
                bool counted = false;
                for (const json& c : s1["traffic"]["counts"]) {
                  if (c["peer_world"] == 0 && c["tag"] == 9 && c["sends"] == 1) counted = true;
                }
                EXPECT_TRUE(counted) << s1["traffic"].dump();
              });
}

TEST_P(Scenario, AnySourceReceiveNobodySatisfies) {
  RunScenario(GetParam(), "any_source_unsatisfied", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                const json& r0 = RankEntry(v.job, 0);
                EXPECT_EQ(r0["call"], "MPI_Recv");
                EXPECT_EQ(r0["peer"], "ANY_SOURCE");
                EXPECT_EQ(r0["tag"], 5);
                std::vector<int> or_targets;
                for (const json& e : v.job["deadlock"]["edges"])
                  if (e["from"] == 0) {
                    EXPECT_EQ(e["kind"], "or");
                    or_targets.push_back(e["to"].get<int>());
                  }
                std::sort(or_targets.begin(), or_targets.end());
                EXPECT_EQ(or_targets, (std::vector<int>{1, 2, 3}));
                for (int r = 1; r < 4; ++r)
                  EXPECT_EQ(RankEntry(v.job, r)["call"], "MPI_Allreduce");
                const json op = CallingThread(v.by_rank.at(0))["operation"];
                EXPECT_EQ(op["peer"], "ANY_SOURCE");
                EXPECT_EQ(op["bytes"], 64);
                const json* world = FindComm(v.by_rank.at(0), "MPI_COMM_WORLD");
                ASSERT_NE(world, nullptr);
                ASSERT_EQ((*world)["pending_receives"].size(), 1u);
                EXPECT_EQ((*world)["pending_receives"][0]["peer"], "ANY_SOURCE");
              });
}

TEST_P(Scenario, CycleInsideSplitCommunicator) {
  RunScenario(
      GetParam(), "split_cycle", 4, [](const json& j) { return DeadlockOf(j, {1, 3}); },
      [](const JobView& v) {
        EXPECT_TRUE(DeadlockOf(v.job, {1, 3}));
        ExpectCycleWithin(v.job, {1, 3});
        const json& r1 = RankEntry(v.job, 1);
        const json& r3 = RankEntry(v.job, 3);
        EXPECT_EQ(r1["call"], "MPI_Ssend");
        EXPECT_EQ(r1["comm_name"], "odds");
        EXPECT_EQ(r3["comm_name"], "odds");
        EXPECT_EQ(r1["comm"], r3["comm"]) << "one job-wide id for the communicator";
        EXPECT_EQ(r1["peer"], 1) << "peer as a rank in odds";
        EXPECT_EQ(r3["peer"], 0);
        EXPECT_EQ(RankEntry(v.job, 0)["state"], "not_in_mpi");
        EXPECT_EQ(RankEntry(v.job, 2)["state"], "not_in_mpi");
        const json* odds1 = FindComm(v.by_rank.at(1), "odds");
        const json* odds3 = FindComm(v.by_rank.at(3), "odds");
        const json* evens0 = FindComm(v.by_rank.at(0), "evens");
        ASSERT_TRUE(odds1 && odds3 && evens0);
        EXPECT_EQ((*odds1)["id"], (*odds3)["id"]);
        EXPECT_NE((*odds1)["id"], (*evens0)["id"]);
        EXPECT_EQ((*odds1)["world_ranks"], json::array({1, 3}));
        EXPECT_EQ((*odds1)["size"], 2);
        EXPECT_EQ((*odds3)["rank"], 1);
        const json op = CallingThread(v.by_rank.at(1))["operation"];
        EXPECT_EQ(op["peer"], 1);
        EXPECT_EQ(op["peer_world"], 3);
        EXPECT_EQ(op["bytes"], 400);
        EXPECT_EQ(op["tag"], 11);
      });
}

TEST_P(Scenario, PendingOperationsWhileComputingIsNoDeadlock) {
  RunScenario(
      GetParam(), "pending_spin", 4,
      [](const json& j) {
        for (const json& r : j["ranks"])
          if (r["state"] != "not_in_mpi") return false;
        return true;
      },
      [](const JobView& v) {
        EXPECT_EQ(v.job["deadlock"]["detected"], false);
        EXPECT_TRUE(v.job["deadlock"]["ranks"].empty());
        for (int r = 0; r < 4; ++r) {
          EXPECT_EQ(RankEntry(v.job, r)["state"], "not_in_mpi");
          const json* world = FindComm(v.by_rank.at(r), "MPI_COMM_WORLD");
          ASSERT_NE(world, nullptr);
          ASSERT_EQ((*world)["pending_receives"].size(), 1u);
          const json& recv = (*world)["pending_receives"][0];
          EXPECT_EQ(recv["call"], "MPI_Irecv");
          EXPECT_EQ(recv["peer"], (r + 3) % 4);
          EXPECT_EQ(recv["tag"], 100);
          EXPECT_EQ(recv["bytes"], 1024);
          EXPECT_EQ(recv["blocking"], false);
          EXPECT_TRUE(recv["request"].is_string());
          ASSERT_EQ((*world)["pending_sends"].size(), 1u);
          const json& send = (*world)["pending_sends"][0];
          EXPECT_EQ(send["call"], "MPI_Issend");
          EXPECT_EQ(send["peer"], (r + 1) % 4);
          EXPECT_EQ(send["tag"], 200);
          EXPECT_EQ(send["bytes"], 1 << 20);
          EXPECT_EQ(send["mode"], "synchronous");
        }
      });
}

TEST_P(Scenario, WaitallOnRequestsNobodyMatches) {
  RunScenario(GetParam(), "waitall_cycle", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                ExpectCycleWithin(v.job, {0, 1, 2, 3});
                for (int r = 0; r < 4; ++r) {
                  EXPECT_EQ(RankEntry(v.job, r)["call"], "MPI_Waitall");
                  const json t = CallingThread(v.by_rank.at(r));
                  ASSERT_TRUE(t["waited"].is_array());
                  EXPECT_EQ(t["waited"].size(), 2u);
                }
              });
}

TEST_P(Scenario, CycleOfLargeStandardSends) {
  RunScenario(GetParam(), "send_cycle_large", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                ExpectCycleWithin(v.job, {0, 1, 2, 3});
                for (int r = 0; r < 4; ++r) {
                  EXPECT_EQ(RankEntry(v.job, r)["call"], "MPI_Send");
                  const json op = CallingThread(v.by_rank.at(r))["operation"];
                  EXPECT_EQ(op["mode"], "standard");
                  EXPECT_EQ(op["bytes"], 4 << 20);
                  EXPECT_EQ(op["peer"], (r + 1) % 4);
                }
                EXPECT_EQ(v.job["unmatched"].size(), 4u);
              });
}

TEST_P(Scenario, WaitOnDupCommunicatorAndWildcardProbes) {
  RunScenario(GetParam(), "dup_wait_cycle", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                for (int r = 0; r < 2; ++r) {
                  const json& entry = RankEntry(v.job, r);
                  EXPECT_EQ(entry["call"], "MPI_Wait");
                  EXPECT_EQ(entry["comm_name"], "solver");
                  const json t = CallingThread(v.by_rank.at(r));
                  ASSERT_EQ(t["waited"].size(), 1u);
                  EXPECT_EQ(t["waited"][0]["call"], "MPI_Irecv");
                  EXPECT_EQ(t["waited"][0]["peer"], 1 - r);
                  EXPECT_EQ(t["waited"][0]["tag"], 21);
                  EXPECT_EQ(t["waited"][0]["bytes"], 20);
                  EXPECT_EQ(t["waited"][0]["datatype"], "MPI_SHORT");
                }
                for (int r = 2; r < 4; ++r) {
                  const json& entry = RankEntry(v.job, r);
                  EXPECT_EQ(entry["call"], "MPI_Probe");
                  EXPECT_EQ(entry["peer"], "ANY_SOURCE");
                  EXPECT_EQ(entry["tag"], "ANY_TAG");
                  EXPECT_EQ(entry["comm_name"], "solver");
                }
                EXPECT_EQ(RankEntry(v.job, 0)["comm"], RankEntry(v.job, 3)["comm"]);
              });
}

TEST_P(Scenario, EveryThreadOfEveryRankBlocked) {
  RunScenario(GetParam(), "threaded_recv", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                for (int r = 0; r < 4; ++r) {
                  const json& snap = v.by_rank.at(r);
                  EXPECT_EQ(snap["process"]["thread_level"], "MPI_THREAD_MULTIPLE");
                  std::vector<int> tags;
                  for (const json& t : snap["threads"])
                    if (t["call"] == "MPI_Recv") tags.push_back(t["operation"]["tag"].get<int>());
                  std::sort(tags.begin(), tags.end());
                  EXPECT_EQ(tags, (std::vector<int>{77, 99}));
                }
              });
}

TEST_P(Scenario, SendrecvRingWithMismatchedTags) {
  RunScenario(GetParam(), "sendrecv_tag_mismatch", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                ExpectCycleWithin(v.job, {0, 1, 2, 3});
                for (int r = 0; r < 4; ++r) {
                  const json& entry = RankEntry(v.job, r);
                  EXPECT_EQ(entry["call"], "MPI_Sendrecv");
                  EXPECT_EQ(entry["peer"], (r + 3) % 4);
                  EXPECT_EQ(entry["tag"], 2);
                }
                const std::string hint =
                    "rank 0 waits for tag 2 from rank 3 on MPI_COMM_WORLD; rank 3 sent tag 1 to "
                    "rank 0 instead";
                bool found = false;
                for (const json& h : v.job["hints"]) found = found || h == hint;
                EXPECT_TRUE(found) << "hint: " << hint;
                EXPECT_EQ(v.job["unmatched"].size(), 4u);
              });
}

TEST_P(Scenario, MembersInDifferentCollectives) {
  RunScenario(GetParam(), "collective_mismatch", 4,
              [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
                for (int r = 0; r < 4; ++r) {
                  EXPECT_EQ(RankEntry(v.job, r)["call"], r < 2 ? "MPI_Barrier" : "MPI_Allreduce");
                  EXPECT_EQ(RankEntry(v.job, r)["comm_name"], "MPI_COMM_WORLD");
                }
                ASSERT_EQ(v.job["collective_mismatches"].size(), 1u);
                const json& m = v.job["collective_mismatches"][0];
                EXPECT_EQ(m["comm_name"], "MPI_COMM_WORLD");
                EXPECT_EQ(m["comm"], RankEntry(v.job, 0)["comm"]);
                ASSERT_EQ(m["sides"].size(), 2u);
                EXPECT_EQ(m["sides"][0]["call"], "MPI_Barrier");
                EXPECT_EQ(m["sides"][0]["ranks"], json::array({0, 1}));
                EXPECT_EQ(m["sides"][1]["call"], "MPI_Allreduce");
                EXPECT_EQ(m["sides"][1]["ranks"], json::array({2, 3}));
                const std::string hint =
                    "ranks 0-1 are in MPI_Barrier on MPI_COMM_WORLD while ranks 2-3 are in "
                    "MPI_Allreduce on MPI_COMM_WORLD";
                bool found = false;
                for (const json& h : v.job["hints"]) found = found || h == hint;
                EXPECT_TRUE(found) << "hint: " << hint << "\n" << v.job["hints"].dump();
                for (int r = 0; r < 4; ++r) {
                  const json t = CallingThread(v.by_rank.at(r));
                  EXPECT_EQ(t["call"], r < 2 ? "MPI_Barrier" : "MPI_Allreduce");
                  EXPECT_EQ(t["blocked"], true);
                  EXPECT_EQ(t["call_class"], "coll");
                }
              });
}

// Rank 0 paused the runtime's recording and then blocked in MPI_Recv: its records are
// silent, its live words say it paused, and its state and call come from its stack, so
// the job sees two blocked ranks, not one that computes. Rank 1 is recorded as usual.
TEST_P(Scenario, APausedRankIsReadFromItsStack) {
  const auto both_blocked = [](const json& j) {
    return j["ranks"].size() == 2 && RankEntry(j, 0)["state"] == "blocked" &&
           RankEntry(j, 1)["state"] == "blocked";
  };
  RunScenario(GetParam(), "paused_recv", 2, both_blocked, [&](const JobView& v) {
    EXPECT_TRUE(both_blocked(v.job));
    EXPECT_EQ(RankEntry(v.job, 0)["call"], "MPI_Recv");
    EXPECT_EQ(RankEntry(v.job, 0)["recording_paused"], true);
    EXPECT_EQ(RankEntry(v.job, 1)["recording_paused"], false);
    const json& hints = v.job["hints"];
    EXPECT_TRUE(std::any_of(hints.begin(), hints.end(), [](const json& h) {
      return h.get<std::string>().rfind("rank 0 paused mpidbg's recording", 0) == 0;
    })) << hints.dump();
    ASSERT_TRUE(v.by_rank.count(0) && v.by_rank.count(1));
    const json paused = CallingThread(v.by_rank.at(0));
    ASSERT_TRUE(paused.is_object());
    EXPECT_EQ(paused["recording_paused"], true);
    EXPECT_EQ(paused["state_from"], "stack");
    EXPECT_EQ(paused["call"], "MPI_Recv");
    EXPECT_EQ(paused["blocked"], true);
    EXPECT_TRUE(paused["operation"].is_null());  // nothing of it was recorded
    const json recorded = CallingThread(v.by_rank.at(1));
    ASSERT_TRUE(recorded.is_object());
    EXPECT_EQ(recorded["recording_paused"], false);
    EXPECT_TRUE(recorded["state_from"].is_null());
    EXPECT_EQ(recorded["operation"]["tag"], 6);
    EXPECT_EQ(recorded["operation"]["peer"], 0);
  });
}

TEST_P(Scenario, BusyPingPongIsNeverReportedLive) {
  // Read one after another, the ranks of a fast exchange look like crossed receives;
  // `mpidbg job` reads again and sees them progress. (Cores are one instant each and
  // cannot tell, so this check is live only.)
  MpiJob job(GetParam(), "busy_pingpong", 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  for (int round = 0; round < 3; ++round) {
    const json view = JobJson({"--pids", job.PidList()});
    ASSERT_TRUE(view.is_object());
    EXPECT_EQ(view["deadlock"]["detected"], false) << view.dump(1);
    EXPECT_TRUE(view["deadlock"]["ranks"].empty());
  }
}

// The ring: rank 2 expects tag 99 where everybody sends 12. Every other
// Sendrecv completes and its rank reaches MPI_Finalize; rank 2's send half was received
// by rank 3, so the one unmatched message is 1 -> 2 tag 12, and the hint says why.
TEST_P(Scenario, SendrecvRingWithOneWrongTag) {
  auto settled = [](const json& j) {
    if (!j["ranks"].is_array() || j["ranks"].size() != 4) return false;
    for (const json& r : j["ranks"]) {
      const std::string want = r["rank"] == 2 ? "MPI_Sendrecv" : "MPI_Finalize";
      if (r["call"] != want) return false;
    }
    return true;
  };
  RunScenario(GetParam(), "sendrecv_one_tag_wrong", 4, settled, [](const JobView& v) {
    EXPECT_EQ(RankEntry(v.job, 2)["call"], "MPI_Sendrecv");
    EXPECT_EQ(RankEntry(v.job, 2)["tag"], 99);
    ASSERT_EQ(v.job["unmatched"].size(), 1u) << "only 1 -> 2 is unmatched";
    const json& m = v.job["unmatched"][0];
    EXPECT_EQ(m["from"], 1);
    EXPECT_EQ(m["to"], 2);
    EXPECT_EQ(m["tag"], 12);
    const std::string hint =
        "rank 2 waits for tag 99 from rank 1 on MPI_COMM_WORLD; rank 1 sent tag 12 to rank 2 "
        "instead";
    bool found = false;
    for (const json& h : v.job["hints"]) found = found || h == hint;
    EXPECT_TRUE(found) << "hint: " << hint << "\n" << v.job["hints"].dump();
    EXPECT_EQ(v.job["complete"], true);
  });
}

// The same job read in part: three of four pids, then four cores of which one is cut
// short. Either way `job` says INCOMPLETE first, names the rank not read, never says
// "no deadlock detected", and exits 4.
TEST_P(Scenario, JobReadInPartIsIncomplete) {
  MpiJob job(GetParam(), "ssend_cycle", 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  // Wait until every rank sits in its Ssend.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    const json all = JobJson({"--pids", job.PidList()});
    if (DeadlockOf(all, {0, 1, 2, 3}) || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  std::string three;
  int left_out = -1;
  for (std::size_t k = 0; k < job.pids().size(); ++k) {
    MpidbgResult one = Mpidbg({"snapshot", "--pid", std::to_string(job.pids()[k]), "--json"});
    if (one.json.is_object() && one.json["process"]["rank"] == 3) {
      left_out = static_cast<int>(k);
      continue;
    }
    three += (three.empty() ? "" : ",") + std::to_string(job.pids()[k]);
  }
  ASSERT_GE(left_out, 0) << "rank 3 not found";
  MpidbgResult part = Mpidbg({"job", "--pids", three, "--json", "--confirm", "0"});
  EXPECT_EQ(part.exit_code, 4) << part.err;
  ASSERT_TRUE(part.json.is_object()) << part.out;
  EXPECT_EQ(part.json["complete"], false);
  EXPECT_EQ(part.json["incomplete"], true);
  ASSERT_EQ(part.json["unreadable"].size(), 1u) << part.json.dump(1);
  EXPECT_EQ(part.json["unreadable"][0]["rank"], 3);
  MpidbgResult text = Mpidbg({"job", "--pids", three, "--confirm", "0"});
  EXPECT_EQ(text.exit_code, 4);
  EXPECT_EQ(text.out.rfind("INCOMPLETE: 3 of 4 ranks read", 0), 0u) << text.out;
  EXPECT_EQ(text.out.find("no deadlock detected"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rank 2 waits for ranks not read"), std::string::npos) << text.out;

  std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  const std::string& cut = cores[static_cast<std::size_t>(left_out)];
  struct stat sb;
  ASSERT_EQ(stat(cut.c_str(), &sb), 0);
  ASSERT_EQ(truncate(cut.c_str(), sb.st_size / 2), 0);
  std::vector<std::string> args = {"job", "--cores"};
  args.insert(args.end(), cores.begin(), cores.end());
  MpidbgResult from_cores = Mpidbg(args);
  EXPECT_EQ(from_cores.exit_code, 4) << from_cores.err;
  EXPECT_EQ(from_cores.out.rfind("INCOMPLETE: 3 of 4 ranks read", 0), 0u) << from_cores.out;
  EXPECT_NE(from_cores.out.find("\n  rank 3: core file "), std::string::npos) << from_cores.out;
  EXPECT_NE(from_cores.out.find("is truncated"), std::string::npos) << from_cores.out;
  EXPECT_EQ(from_cores.out.find("no deadlock detected"), std::string::npos) << from_cores.out;
  args.push_back("--json");
  MpidbgResult cores_json = Mpidbg(args);
  EXPECT_EQ(cores_json.exit_code, 4);
  ASSERT_TRUE(cores_json.json.is_object());
  ASSERT_EQ(cores_json.json["unreadable"].size(), 1u) << cores_json.json.dump(1);
  EXPECT_EQ(cores_json.json["unreadable"][0]["rank"], 3);
  EXPECT_EQ(cores_json.json["unreadable"][0]["source"], "core");
}

// What a view says about each rank's blocked call, with the large-count names read as
// their twins' (MPI_Send_c as MPI_Send): equal for send_recv_pairs and send_recv_pairs_c.
json BlockedCallsSummary(const JobView& v, int ranks) {
  auto plain = [](json call) {
    if (call.is_string()) {
      std::string name = call.get<std::string>();
      if (name.size() > 2 && name.compare(name.size() - 2, 2, "_c") == 0) name.resize(name.size() - 2);
      return json(name);
    }
    return call;
  };
  json out;
  out["deadlock"] = v.job["deadlock"]["detected"];
  out["deadlock_ranks"] = Ints(v.job["deadlock"]["ranks"]);
  out["unmatched"] = v.job["unmatched"].size();
  for (int r = 0; r < ranks; ++r) {
    const json& entry = RankEntry(v.job, r);
    json e = {{"state", entry["state"]}, {"call", plain(entry["call"])}, {"peer", entry["peer"]},
              {"tag", entry["tag"]}, {"comm_name", entry["comm_name"]}};
    if (v.by_rank.count(r)) {
      const json t = CallingThread(v.by_rank.at(r));
      auto field = [](const json& o, const char* k) { return o.is_object() ? o.value(k, json()) : json(); };
      e["thread_call"] = plain(field(t, "call"));
      e["call_class"] = field(t, "call_class");
      e["blocked"] = field(t, "blocked");
      const json op = field(t, "operation");
      for (const char* k : {"peer", "peer_world", "tag", "bytes", "count", "datatype", "mode", "blocking"})
        e["op"][k] = field(op, k);
    }
    out["ranks"].push_back(e);
  }
  return out;
}

TEST_P(Scenario, LargeCountSendAndRecvShownAsTheirTwins) {
  // MPI_Send_c/MPI_Recv_c (MPI-4: MPICH) blocked exactly where send_recv_pairs blocks
  // in MPI_Send/MPI_Recv: the same job analysis and snapshots, live and from cores, but
  // for the call names.
  if (GetParam() != "mpich") GTEST_SKIP() << "no MPI-4 large-count calls in " << GetParam();
  const auto settled = [](const json& j) { return DeadlockOf(j, {0, 1, 2, 3}); };
  std::vector<json> plain, large;
  RunScenario(GetParam(), "send_recv_pairs", 4, settled,
              [&](const JobView& v) { plain.push_back(BlockedCallsSummary(v, 4)); });
  RunScenario(GetParam(), "send_recv_pairs_c", 4, settled, [&](const JobView& v) {
    large.push_back(BlockedCallsSummary(v, 4));
    EXPECT_TRUE(DeadlockOf(v.job, {0, 1, 2, 3}));
    for (int r = 0; r < 4; ++r) {
      const json& entry = RankEntry(v.job, r);
      EXPECT_EQ(entry["state"], "blocked");
      EXPECT_EQ(entry["call"], r % 2 == 0 ? "MPI_Send_c" : "MPI_Recv_c");
      EXPECT_EQ(entry["peer"], r % 2 == 0 ? r + 1 : r - 1);
      EXPECT_EQ(entry["tag"], r % 2 == 0 ? 3 : 4);
      ASSERT_TRUE(v.by_rank.count(r));
      const json t = CallingThread(v.by_rank.at(r));
      ASSERT_TRUE(t.is_object() && t.contains("operation") && t["operation"].is_object());
      EXPECT_EQ(t["call"], r % 2 == 0 ? "MPI_Send_c" : "MPI_Recv_c");
      EXPECT_EQ(t["call_class"], "p2p");
      EXPECT_EQ(t["operation"]["bytes"], 4 << 20);
      EXPECT_EQ(t["operation"]["count"], 1 << 20);
      EXPECT_EQ(t["operation"]["datatype"], "MPI_INT");
    }
  });
  ASSERT_EQ(plain.size(), 2u);  // live and core
  ASSERT_EQ(large.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(large[i], plain[i]) << (i == 0 ? "live" : "core") << " view\nlarge-count: "
                                  << large[i].dump(1) << "\nplain: " << plain[i].dump(1);
  }
}

TEST_P(Scenario, NeighbourhoodCollectiveWaitsForItsNeighboursOnly) {
  // Rank 0 in MPI_Neighbor_allgather on a graph of pairs waits for rank 1 (computing),
  // not for ranks 2 and 3, which are deadlocked on each other: the verdict names 2 and
  // 3 only. Reading the collective as one over the whole communicator names rank 0 too.
  const auto settled = [](const json& j) {
    return DeadlockOf(j, {2, 3}) && RankEntry(j, 0)["call"] == "MPI_Neighbor_allgather";
  };
  RunScenario(GetParam(), "neighbor_pairs", 4, settled, [](const JobView& v) {
    EXPECT_TRUE(DeadlockOf(v.job, {2, 3}));
    const json& zero = RankEntry(v.job, 0);
    EXPECT_EQ(zero["state"], "blocked");
    EXPECT_EQ(zero["call"], "MPI_Neighbor_allgather");
    EXPECT_EQ(zero["comm_name"], "pairs");
    EXPECT_EQ(RankEntry(v.job, 1)["state"], "not_in_mpi");
    int edges_from_zero = 0;
    for (const json& e : v.job["deadlock"]["edges"]) {
      if (e["from"] != 0) continue;
      ++edges_from_zero;
      EXPECT_EQ(e["to"], 1) << e.dump();
    }
    EXPECT_EQ(edges_from_zero, 1);
    // Every rank's snapshot carries its neighbours on "pairs".
    for (int r = 0; r < 4; ++r) {
      ASSERT_TRUE(v.by_rank.count(r));
      const json* pairs = FindComm(v.by_rank.at(r), "pairs");
      ASSERT_NE(pairs, nullptr) << "rank " << r;
      EXPECT_EQ((*pairs)["topology"], "dist_graph");
      EXPECT_EQ((*pairs)["neighbors"]["sources"], json::array({r ^ 1}));
      EXPECT_EQ((*pairs)["neighbors"]["destinations"], json::array({r ^ 1}));
    }
  });
}

TEST_P(Scenario, PartitionedSendWithPartitionsNeverReady) {
  // Rank 0 waits for its partitioned send of which it marked 5 of 8 partitions ready;
  // rank 1 waits for the receive. Both are stuck: only rank 0 could mark the rest.
  if (GetParam() != "mpich") GTEST_SKIP() << "no MPI-4 partitioned communication in " << GetParam();
  RunScenario(GetParam(), "partitioned_stall", 2,
              [](const json& j) { return DeadlockOf(j, {0, 1}); },
              [](const JobView& v) {
                EXPECT_TRUE(DeadlockOf(v.job, {0, 1}));
                for (const json& e : v.job["deadlock"]["edges"]) {
                  EXPECT_EQ(e["to"], 0) << e.dump();  // rank 0 waits for itself, 1 for 0
                }
                const std::string hint =
                    "rank 0 waits in MPI_Wait for its partitioned send to rank 1 on "
                    "MPI_COMM_WORLD, of which it marked only 5 of 8 partitions ready";
                bool found = false;
                for (const json& h : v.job["hints"]) found = found || h == hint;
                EXPECT_TRUE(found) << "hint: " << hint << "\n" << v.job["hints"].dump(1);
                for (int r = 0; r < 2; ++r) {
                  ASSERT_TRUE(v.by_rank.count(r));
                  const json t = CallingThread(v.by_rank.at(r));
                  ASSERT_TRUE(t.is_object()) << "rank " << r;
                  EXPECT_EQ(t["call"], "MPI_Wait");
                  ASSERT_EQ(t["waited"].size(), 1u) << t.dump(1);
                  const json& op = t["waited"][0];
                  EXPECT_EQ(op["call"], r == 0 ? "MPI_Psend_init" : "MPI_Precv_init");
                  EXPECT_EQ(op["count"], 8 * 16);
                  EXPECT_EQ(op["partitions"]["count"], 8) << op.dump();
                  if (r == 0) {
                    EXPECT_EQ(op["partitions"]["ready"], 5) << op.dump();
                  } else {
                    EXPECT_EQ(op["partitions"]["arrived"], 0) << op.dump();
                  }
                }
              });
}

INSTANTIATE_TEST_SUITE_P(Flavours, Scenario, ::testing::ValuesIn(BuiltFlavours()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
