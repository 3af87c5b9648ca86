// An MPI job with a known traffic pattern on 3 ranks, run with MPIDBG_MONITOR set (the
// job's file is written at MPI_Finalize and checked afterwards by monitor_file_verify).
// In the job itself: mpidbg_monitor_write(..., CURRENT) after a reset gives exactly the
// traffic since the reset, in one file written by rank 0, and every rank learns the
// result; mpidbg_monitor_refresh_mpit() fills the block's mpit_* fields.
//
//   monitor_job_check <flavour> <dir> <expected mpi_t state: read|unavailable>
//
// Pattern before the reset (all counted in the accumulated file):
//   0 -> 1: 5 x 8 bytes (tag 1)    1 -> 2: 3 x 100 bytes (tag 2)    2 -> 0: 2 x 0 bytes
//   MPI_Bcast of 24 bytes from root 0
//   MPI_Put of 16 bytes from 0 into 1's window (fences around it)
// After the reset:
//   0 -> 2: 4 x 16 bytes (tag 3)
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "mpidbg/runtime_api.h"
#include "rt_check.h"

using rtcheck::g_failures;
using rtcheck::g_rank;

namespace {

// The runtime's API, found at run time so the program works with the runtime linked
// or LD_PRELOADed (as `mpidbg run --monitor` loads it).
struct Api {
  int (*active)();
  int (*reset)();
  int (*stop)();
  int (*refresh_mpit)();
  int (*write)(const char*, int);
} api;

using rtcheck::Resolve;

bool ResolveApi() {
  Resolve(&api.active, "mpidbg_monitor_active");
  Resolve(&api.reset, "mpidbg_monitor_reset");
  Resolve(&api.stop, "mpidbg_monitor_stop");
  Resolve(&api.refresh_mpit, "mpidbg_monitor_refresh_mpit");
  Resolve(&api.write, "mpidbg_monitor_write");
  return api.active && api.reset && api.stop && api.refresh_mpit && api.write;
}

void Pattern(int rank) {
  char buf[128] = {0};
  if (rank == 0) {
    for (int i = 0; i < 5; ++i) MPI_Send(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    for (int i = 0; i < 2; ++i) MPI_Recv(buf, 0, MPI_CHAR, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    for (int i = 0; i < 5; ++i) MPI_Recv(buf, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; ++i) MPI_Send(buf, 100, MPI_CHAR, 2, 2, MPI_COMM_WORLD);
  } else if (rank == 2) {
    for (int i = 0; i < 3; ++i) MPI_Recv(buf, 100, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2; ++i) MPI_Send(buf, 0, MPI_CHAR, 0, 5, MPI_COMM_WORLD);
  }
  char b24[24] = {0};
  MPI_Bcast(b24, 24, MPI_CHAR, 0, MPI_COMM_WORLD);
  int window[4] = {0, 0, 0, 0};
  MPI_Win win;
  MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  int values[4] = {1, 2, 3, 4};
  if (rank == 0) MPI_Put(values, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
}

void AfterReset(int rank) {
  char buf[16] = {0};
  if (rank == 0) {
    for (int i = 0; i < 4; ++i) MPI_Send(buf, 16, MPI_CHAR, 2, 3, MPI_COMM_WORLD);
  } else if (rank == 2) {
    for (int i = 0; i < 4; ++i) MPI_Recv(buf, 16, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// Rank 0: the "current" file holds exactly the traffic after the reset.
void CheckCurrentFile(const std::string& path, int size) {
  std::ifstream in(path);
  RT_CHECK(in.good());
  if (!in.good()) return;
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  RT_CHECK(!doc.is_discarded());
  if (doc.is_discarded()) return;
  RT_CHECK(doc["schema"] == "mpidbg.monitor/1");
  RT_CHECK(doc["job"]["which"] == "current");
  RT_CHECK_EQ(doc["job"]["world_size"].get<int>(), size);
  RT_CHECK_EQ(doc["ranks"].size(), size);
  for (int r = 0; r < size && r < static_cast<int>(doc["ranks"].size()); ++r) {
    const auto& e = doc["ranks"][r];
    RT_CHECK_EQ(e["rank"].get<int>(), r);
    RT_CHECK_EQ(e["resets"].get<int>(), 1);
    RT_CHECK(e["collective_peers"].empty());
    RT_CHECK(e["rma"].empty());
    RT_CHECK_EQ(e["collectives"]["one_to_all"]["operations"].get<int>(), 0);
    const auto& p2p = e["p2p"];
    if (r == 0) {
      RT_CHECK_EQ(p2p.size(), 1);
      if (p2p.size() == 1) {
        RT_CHECK(p2p[0] == nlohmann::json::parse(R"({"peer":2,"sent_messages":4,"sent_bytes":64,
            "received_messages":0,"received_bytes":0,"histogram":{"16":4}})"));
      }
    } else if (r == 2) {
      RT_CHECK_EQ(p2p.size(), 1);
      if (p2p.size() == 1) {
        RT_CHECK(p2p[0] == nlohmann::json::parse(R"({"peer":0,"sent_messages":0,"sent_bytes":0,
            "received_messages":4,"received_bytes":64,"histogram":{}})"));
      }
    } else {
      RT_CHECK(p2p.empty());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_rank = rank;
  if (argc < 4 || size != 3) {
    fprintf(stderr, "usage: monitor_job_check <flavour> <dir> <read|unavailable> on 3 ranks: FAIL\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string dir = argv[2];
  const std::string expected_mpit = argv[3];

  if (!ResolveApi()) {
    fprintf(stderr, "the runtime is not loaded: FAIL\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  // MPIDBG_MONITOR started counting at MPI_Init.
  RT_CHECK_EQ(api.active(), 1);
  const mpidbg_root* root = rtcheck::Root();
  const auto* block = root != nullptr ? rtcheck::At<mpidbg_monitor>(root->monitor) : nullptr;
  RT_CHECK(block != nullptr);
  if (block != nullptr) {
    RT_CHECK(std::string(block->output_path) == dir + "/monitor.json");
    // MPI_Init made the first read (rt/monitor/monitor_mpit.cc, MonitorMpitAfterInit).
    RT_CHECK(block->mpit_state != MPIDBG_MONITOR_MPIT_NOT_READ);
  }

  Pattern(rank);

  // The MPI's own monitoring, read into the block.
  int rc = api.refresh_mpit();
  if (block != nullptr) {
    if (expected_mpit == "read") {
      RT_CHECK_EQ(rc, 0);
      RT_CHECK_EQ(block->mpit_state, MPIDBG_MONITOR_MPIT_READ);
      RT_CHECK_EQ(block->mpit_peer_count, size);
      RT_CHECK(block->mpit_peers != 0);
      const auto* peers = rtcheck::At<mpidbg_monitor_mpit_peer>(block->mpit_peers);
      // Open MPI's coll component saw the Bcast: the root "sent" to both others.
      if (rank == 0 && peers != nullptr) {
        RT_CHECK(peers[1].coll_messages >= 1 && peers[2].coll_messages >= 1);
        RT_CHECK(peers[1].coll_bytes >= 24 && peers[2].coll_bytes >= 24);
        RT_CHECK(peers[1].osc_sent_messages >= 1);
        RT_CHECK_EQ(peers[0].coll_messages, 0);
      }
    } else {
      RT_CHECK_EQ(rc, -1);
      RT_CHECK_EQ(block->mpit_state, MPIDBG_MONITOR_MPIT_UNAVAILABLE);
      RT_CHECK(block->mpit_reason[0] != '\0');
    }
    fprintf(stderr, "[rank %d] mpi_t: state %d: %s\n", rank, block->mpit_state,
            block->mpit_reason);
  }

  RT_CHECK_EQ(api.reset(), 0);
  AfterReset(rank);

  // Collective: one file by rank 0, the same result everywhere.
  const std::string current = dir + "/current.json";
  rc = api.write(current.c_str(), MPIDBG_MONITOR_CURRENT);
  RT_CHECK_EQ(rc, 0);
  if (rank == 0) CheckCurrentFile(current, size);
  // A path rank 0 cannot create fails on every rank and leaves nothing behind.
  const std::string bad = dir + "/no/such/dir/x.json";
  RT_CHECK_EQ(api.write(bad.c_str(), MPIDBG_MONITOR_CURRENT), -1);
  RT_CHECK_EQ(api.write(current.c_str(), 7), -1);

  // Counting stops before the test's own bookkeeping collective.
  RT_CHECK_EQ(api.stop(), 0);
  int failures = g_failures, total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();  // writes <dir>/monitor.json (accumulated)
  if (rank == 0) printf(total == 0 ? "monitor_job_check: ok\n" : "monitor_job_check: FAIL\n");
  return total == 0 ? 0 : 1;
}
