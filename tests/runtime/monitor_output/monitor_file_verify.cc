// Checks the file monitor_job_check's job wrote at MPI_Finalize (MPIDBG_MONITOR):
// exact counts of the known pattern (accumulated: before and after the reset), the
// rank list, the MPI_T part, and that the job left exactly its two files in <dir>
// (one job file, never one per rank, and no temporary file).
//
//   monitor_file_verify <dir> <flavour> <expected mpi_t state: read|unavailable>
#include <dirent.h>
#include <stdio.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

using nlohmann::json;

namespace {

int g_failures = 0;

#define VERIFY(cond)                                                              \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
      ++g_failures;                                                               \
    }                                                                             \
  } while (0)

#define VERIFY_JSON(value, text)                                                       \
  do {                                                                                 \
    json expected_ = json::parse(text);                                                \
    if ((value) != expected_) {                                                        \
      fprintf(stderr, "%s:%d: check failed: %s is %s, expected %s\n", __FILE__, __LINE__, \
              #value, (value).dump().c_str(), expected_.dump().c_str());               \
      ++g_failures;                                                                    \
    }                                                                                  \
  } while (0)

std::set<std::string> Entries(const std::string& dir) {
  std::set<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.insert(n);
    }
    closedir(d);
  }
  return names;
}

void CheckRanks(const json& ranks) {
  VERIFY(ranks.size() == 3);
  if (ranks.size() != 3) return;
  std::set<int> pids;
  for (int r = 0; r < 3; ++r) {
    const json& e = ranks[r];
    VERIFY(e["rank"] == r);
    VERIFY(e["pid"].get<int>() > 0);
    pids.insert(e["pid"].get<int>());
    VERIFY(!e["host"].get<std::string>().empty());
    VERIFY(e["active"] == false);
    VERIFY(e["starts"] == 1);
    VERIFY(e["stops"] == 1);
    VERIFY(e["resets"] == 1);
    VERIFY(e["first_start_time_ns"].get<int64_t>() > 0);
    VERIFY(e["reset_time_ns"].get<int64_t>() > e["first_start_time_ns"].get<int64_t>());
    VERIFY(e["files"].empty());
    VERIFY(e["files_dropped"] == 0);
    VERIFY(e["collectives"]["one_to_all"]["operations"] == 1);
    for (const char* k : {"all_to_one", "all_to_all", "barrier"}) {
      VERIFY(e["collectives"][k]["operations"] == 0);
    }
  }
  VERIFY(pids.size() == 3);

  VERIFY_JSON(ranks[0]["p2p"], R"([
    {"peer":1,"sent_messages":5,"sent_bytes":40,"received_messages":0,"received_bytes":0,
     "histogram":{"8":5}},
    {"peer":2,"sent_messages":4,"sent_bytes":64,"received_messages":2,"received_bytes":0,
     "histogram":{"16":4}}])");
  VERIFY_JSON(ranks[1]["p2p"], R"([
    {"peer":0,"sent_messages":0,"sent_bytes":0,"received_messages":5,"received_bytes":40,
     "histogram":{}},
    {"peer":2,"sent_messages":3,"sent_bytes":300,"received_messages":0,"received_bytes":0,
     "histogram":{"64":3}}])");
  VERIFY_JSON(ranks[2]["p2p"], R"([
    {"peer":0,"sent_messages":2,"sent_bytes":0,"received_messages":4,"received_bytes":64,
     "histogram":{"0":2}},
    {"peer":1,"sent_messages":0,"sent_bytes":0,"received_messages":3,"received_bytes":300,
     "histogram":{}}])");

  // The Bcast's root "sent" its 24 bytes to each other member.
  VERIFY_JSON(ranks[0]["collective_peers"],
              R"([{"peer":1,"messages":1,"bytes":24},{"peer":2,"messages":1,"bytes":24}])");
  VERIFY(ranks[1]["collective_peers"].empty());
  VERIFY(ranks[2]["collective_peers"].empty());
  VERIFY_JSON(ranks[0]["collectives"]["one_to_all"],
              R"({"operations":1,"bytes_sent":48,"bytes_received":0})");
  VERIFY_JSON(ranks[1]["collectives"]["one_to_all"],
              R"({"operations":1,"bytes_sent":0,"bytes_received":24})");

  VERIFY_JSON(ranks[0]["rma"], R"([{"peer":1,"put_messages":1,"put_bytes":16,
      "get_messages":0,"get_bytes":0,"acc_messages":0,"acc_bytes":0}])");
  VERIFY(ranks[1]["rma"].empty());
  VERIFY(ranks[2]["rma"].empty());
}

void CheckMpit(const json& ranks, const std::string& flavour, const std::string& expected) {
  for (const json& e : ranks) {
    const json& m = e["mpi_t"];
    VERIFY(m["state"] == expected);
    std::string reason = m["reason"].get<std::string>();
    if (expected == "unavailable") {
      VERIFY(!m.contains("peers"));
      if (flavour == "mpich") {
        VERIFY(reason == "MPICH publishes no per-peer monitoring variables");
      } else {
        VERIFY(reason.find("run with --mca pml_monitoring_enable 1") != std::string::npos);
      }
      continue;
    }
    VERIFY(reason.rfind("read", 0) == 0);
    VERIFY(m.value("time_ns", int64_t{0}) > 0);
    VERIFY(m["collectives"].contains("one_to_all"));
    if (e["rank"] != 0) continue;
    // Open MPI's coll component saw the Bcast: rank 0 "sent" to both others, never to
    // itself; its osc component saw the Put to rank 1.
    const json& peers = m["peers"];
    bool seen[3] = {false, false, false};
    for (const json& p : peers) {
      int peer = p["peer"];
      VERIFY(peer >= 0 && peer < 3);
      if (peer < 0 || peer >= 3) continue;
      seen[peer] = true;
      if (peer == 0) continue;
      VERIFY(p["coll_messages"].get<uint64_t>() >= 1);
      VERIFY(p["coll_bytes"].get<uint64_t>() >= 24);
      if (peer == 1) VERIFY(p["osc_sent_messages"].get<uint64_t>() >= 1);
      // When this Open MPI publishes its PML counters, they include the user's sends
      // (rank 0 sent 5 to rank 1 and 4 to rank 2) and the collectives' messages.
      if (reason.find(" pml") != std::string::npos && reason.find("no pml") == std::string::npos) {
        VERIFY(p["pml_messages"].get<uint64_t>() >= (peer == 1 ? 5u : 4u));
      } else {
        VERIFY(p["pml_messages"] == 0);
      }
    }
    VERIFY(seen[1] && seen[2]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: monitor_file_verify <dir> <flavour> <read|unavailable>\n");
    return 2;
  }
  const std::string dir = argv[1], flavour = argv[2], expected = argv[3];
  // Exactly the job file and the "current" file the job asked for.
  std::set<std::string> names = Entries(dir);
  VERIFY((names == std::set<std::string>{"current.json", "monitor.json"}));
  for (const std::string& n : names) fprintf(stderr, "found %s/%s\n", dir.c_str(), n.c_str());

  std::ifstream in(dir + "/monitor.json");
  VERIFY(in.good());
  json doc = json::parse(in, nullptr, false);
  VERIFY(!doc.is_discarded());
  if (doc.is_discarded() || !doc.is_object()) return 1;
  VERIFY(doc["schema"] == "mpidbg.monitor/1");
  const json& job = doc["job"];
  VERIFY(job["world_size"] == 3);
  VERIFY(job["flavour"] == flavour);
  VERIFY(job["which"] == "accumulated");
  VERIFY(!job["id"].get<std::string>().empty());
  VERIFY(!job["mpi_library"].get<std::string>().empty());
  VERIFY(job["written_time_ns"].get<int64_t>() > 0);
  CheckRanks(doc["ranks"]);
  CheckMpit(doc["ranks"], flavour, expected);
  printf(g_failures == 0 ? "monitor_file_verify: ok\n" : "monitor_file_verify: FAIL\n");
  return g_failures == 0 ? 0 : 1;
}
