// mpidbg_monitor_write() without MPIDBG_MONITOR: monitoring started by the application
// on rank 1 only. Rank 0 writes the file with an entry for every rank (those that never
// started say so), the MPI_T read refuses where there is no block, and MPI_Finalize
// writes no file of its own (no output path).
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "mpidbg/runtime_api.h"
#include "rt_check.h"

using rtcheck::g_failures;
using rtcheck::g_rank;

namespace {

struct Api {
  int (*start)();
  int (*refresh_mpit)();
  int (*write)(const char*, int);
} api;

using rtcheck::Resolve;

int CountEntries(const std::string& dir) {
  int n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ++n;
    }
    closedir(d);
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_rank = rank;
  Resolve(&api.start, "mpidbg_monitor_start");
  Resolve(&api.refresh_mpit, "mpidbg_monitor_refresh_mpit");
  Resolve(&api.write, "mpidbg_monitor_write");
  if (api.start == nullptr || api.refresh_mpit == nullptr || api.write == nullptr || size != 3) {
    fprintf(stderr, "runtime not loaded or not 3 ranks: FAIL\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  // A directory of this job's own, made by rank 0.
  char dir[64] = "/tmp/mpidbg_monitor_partial_XXXXXX";
  if (rank == 0 && mkdtemp(dir) == nullptr) dir[0] = '\0';
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  RT_CHECK(dir[0] != '\0');
  const std::string path = std::string(dir) + "/m.json";

  const mpidbg_root* root = rtcheck::Root();
  RT_CHECK(root != nullptr && root->monitor == 0);
  RT_CHECK_EQ(api.refresh_mpit(), -1);  // no block to fill
  if (rank == 1) RT_CHECK_EQ(api.start(), 0);
  char buf[32] = {0};
  if (rank == 1) MPI_Send(buf, 32, MPI_CHAR, 2, 9, MPI_COMM_WORLD);
  if (rank == 2) MPI_Recv(buf, 32, MPI_CHAR, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  RT_CHECK_EQ(api.write(path.c_str(), MPIDBG_MONITOR_ACCUMULATED), 0);
  if (rank == 0) {
    std::ifstream in(path);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    RT_CHECK(!doc.is_discarded() && doc["ranks"].size() == 3);
    if (!doc.is_discarded() && doc["ranks"].size() == 3) {
      RT_CHECK(doc["job"]["which"] == "accumulated");
      for (int r = 0; r < 3; ++r) {
        const auto& e = doc["ranks"][r];
        RT_CHECK_EQ(e["rank"].get<int>(), r);
        RT_CHECK(e["active"] == (r == 1));
        RT_CHECK_EQ(e["starts"].get<int>(), r == 1 ? 1 : 0);
        RT_CHECK(e["mpi_t"]["state"] == "not_read");
      }
      RT_CHECK(doc["ranks"][0]["mpi_t"]["reason"] == "monitoring never started in this process");
      RT_CHECK(doc["ranks"][1]["p2p"] == nlohmann::json::parse(R"([{"peer":2,"sent_messages":1,
          "sent_bytes":32,"received_messages":0,"received_bytes":0,"histogram":{"32":1}}])"));
      RT_CHECK(doc["ranks"][2]["p2p"].empty());  // not counting there
    }
  }

  int failures = g_failures, total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) {
    // Only the file asked for: MPI_Finalize wrote none (no MPIDBG_MONITOR).
    int entries = CountEntries(dir);
    if (entries != 1) {
      fprintf(stderr, "[rank 0] %d entries in %s: check failed\n", entries, dir);
      ++total;
    }
    unlink(path.c_str());
    rmdir(dir);
    printf(total == 0 ? "monitor_write_partial_check: ok\n" : "monitor_write_partial_check: FAIL\n");
  }
  return total == 0 ? 0 : 1;
}
