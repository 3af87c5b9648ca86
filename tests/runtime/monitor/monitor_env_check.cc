// monitor_env_check — 2 ranks under MPIDBG_MONITOR=1 and MPIDBG_MONITOR_FILES=3:
// counting runs from MPI_Init, output_path names the job file after the launch record's
// job id, a file table of 3 counts what finds no room in files_dropped, and the job
// file is there after MPI_Finalize (then removed).
// Usage: monitor_env_check <mpich|openmpi>.
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include <string>

#include "monitor_check.h"

using namespace monitor;

namespace {

// The launch record's job id as the runtime puts it in the file name.
std::string JobPart() {
  const mpidbg_root* root = rtcheck::Root();
  std::string out;
  if (root != nullptr && root->launch != 0) {
    for (const char* p = rtcheck::At<mpidbg_launch_info>(root->launch)->job_id; *p != '\0'; ++p) {
      const char c = *p;
      const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
      out += keep ? c : '_';
    }
  }
  if (out.empty()) out = std::to_string(getpid());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rtcheck::g_rank);
  if (!Usable()) return rtcheck::Finish("monitor_env_check");
  const int me = rtcheck::g_rank, peer = 1 - me;
  const mpidbg_monitor* m = Block();
  RT_CHECK(m != nullptr);
  if (m == nullptr) return rtcheck::Finish("monitor_env_check");
  RT_CHECK_EQ(Functions().active(), 1);
  RT_CHECK_EQ(m->active, 1);
  RT_CHECK_EQ(m->starts, 1);
  RT_CHECK_EQ(m->world_size, 2);
  RT_CHECK_EQ(m->file_capacity, 3);
  RT_CHECK(m->first_start_time_ns > 0 && m->reset_time_ns == m->first_start_time_ns);
  const std::string path = "mpidbg-monitor." + JobPart() + ".json";
  RT_CHECK_STREQ(m->output_path, path.c_str());

  // Nothing counted by MPI_Init itself; this exchange exactly.
  int x = 1, y = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &y, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  mpidbg_monitor_peer p = Peer(peer, MPIDBG_MONITOR_ACCUMULATED);
  RT_CHECK_EQ(p.sent_messages, 1);
  RT_CHECK_EQ(p.sent_bytes, 4);
  RT_CHECK_EQ(p.received_messages, 1);
  RT_CHECK_EQ(p.received_bytes, 4);
  RT_CHECK_EQ(p.sent_histogram[3], 1);
  RT_CHECK_EQ(p.coll_messages, 0);
  p = Peer(me, MPIDBG_MONITOR_ACCUMULATED);
  RT_CHECK_EQ(p.sent_messages, 0);

  // Four files, room for three: the fourth file's open and write are dropped.
  for (int i = 0; i < 4; ++i) {
    char name[128];
    snprintf(name, sizeof name, "/tmp/mpidbg_monitor_env_%d_%d.dat", static_cast<int>(getpid()), i);
    MPI_File f;
    MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &f);
    MPI_File_write_at(f, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&f);
  }
  mpidbg_monitor_file e;
  for (int i = 0; i < 3; ++i) {
    RT_CHECK_EQ(Functions().read_file(i, MPIDBG_MONITOR_ACCUMULATED, &e), 0);
    RT_CHECK_EQ(e.opens, 1);
    RT_CHECK_EQ(e.write_operations, 1);
    RT_CHECK_EQ(e.write_bytes, 4);
  }
  RT_CHECK_EQ(Functions().read_file(3, MPIDBG_MONITOR_ACCUMULATED, &e), -1);
  RT_CHECK_EQ(m->files_dropped, 2);
  MPI_Finalize();
  // The job file MPI_Finalize wrote in the working directory: checked by rank 0 (which
  // wrote it), then removed so repeated runs leave nothing behind.
  if (me == 0) {
    RT_CHECK_EQ(access(path.c_str(), R_OK), 0);
    unlink(path.c_str());
  }
  return rtcheck::Finish("monitor_env_check");
}
