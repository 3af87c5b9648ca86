// gate_rank.cc — one rank of the job gate_driver holds and releases.
//
//   gate_rank <flavour> <directory>
//
// Before MPI_Init it creates <directory>/pid.<pid> so the driver knows whom to watch;
// after MPI_Init returns it creates <directory>/released.<pid>, which the driver must
// not see before it opened the gate.
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include <string>

#include "rt_check.h"

using namespace rtcheck;

namespace {

bool Touch(const std::string& dir, const char* what) {
  std::string path = dir + "/" + what + "." + std::to_string(getpid());
  std::string tmp = path + ".tmp";
  int fd = open(tmp.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
  if (fd < 0) return false;
  close(fd);
  return rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gate_rank <flavour> <directory>\n");
    return 2;
  }
  std::string dir = argv[2];
  RT_CHECK(Touch(dir, "pid"));
  MPI_Init(&argc, &argv);
  RT_CHECK(Touch(dir, "released"));
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);

  const mpidbg_root* root = Root();
  if (root != nullptr) RT_CHECK_EQ(root->debug_gate_hold, 0);
  const int* gate = static_cast<const int*>(dlsym(RTLD_DEFAULT, "MPIR_debug_gate"));
  RT_CHECK(gate != nullptr);
  if (gate != nullptr) RT_CHECK_EQ(*gate, 1);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return Finish("gate_rank");
}
