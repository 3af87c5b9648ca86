// launch_info.cc — fills the launch record at MPI_Init and publishes it (root.launch).
#include "rt/process/launch_info.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/record_write.h"
#include "rt/handle_widening.h"
#include "rt/process/launch_env.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

// Static storage: valid for the life of the process, in every core file.
mpidbg_launch_info g_launch;
bool g_environment_read = false;

const char* GetEnvironment(void*, const char* name) { return getenv(name); }

// /proc/<parent>/cmdline (NUL-separated argv); 0 bytes if unreadable. A longer command
// line is cut; the parser ignores an unterminated last argument.
size_t ReadParentCommandLine(char* buffer, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/cmdline", static_cast<int>(getppid()));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t used = 0;
  while (used < size) {
    ssize_t n = read(fd, buffer + used, size - used);
    if (n <= 0) break;
    used += static_cast<size_t>(n);
  }
  close(fd);
  return used;
}

// An integer attribute of MPI_COMM_WORLD (MPI_APPNUM, MPI_UNIVERSE_SIZE), if MPI set it.
bool WorldAttribute(int keyval, int32_t* value) {
  int* attr = nullptr;
  int flag = 0;
  if (PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &attr, &flag) != MPI_SUCCESS) return false;
  if (!flag || attr == nullptr) return false;
  *value = static_cast<int32_t>(*attr);
  return true;
}

}  // namespace

void CaptureLaunchEnvironment() {
  static char parent[4096];
  size_t n = ReadParentCommandLine(parent, sizeof parent);
  LaunchEnvironment env{GetEnvironment, nullptr, n > 0 ? parent : nullptr, n};
  LaunchInfoFromEnvironment(env, &g_launch);
  g_environment_read = true;
}

void PublishLaunchInfo() {
  mpidbg_root* root = &mpidbg_runtime_root;
  if (!g_environment_read) CaptureLaunchEnvironment();

  int rank = -1;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS) {
    g_launch.mpi_rank = rank;
    g_launch.sources |= MPIDBG_LAUNCH_FROM_MPI;
  }
  // MPI's attributes are what the application sees; they win over the launcher's.
  // Not asked of a singleton: MPICH answers MPI_UNIVERSE_SIZE there by starting a
  // process manager (`mpiexec -pmi_args ...`), which the application did not ask for.
  int32_t value;
  if (g_launch.launcher != MPIDBG_LAUNCHER_SINGLETON) {
    if (WorldAttribute(MPI_APPNUM, &value)) {
      g_launch.appnum = value;
      g_launch.sources |= MPIDBG_LAUNCH_FROM_MPI;
    }
    if (WorldAttribute(MPI_UNIVERSE_SIZE, &value)) {
      g_launch.universe_size = value;
      g_launch.sources |= MPIDBG_LAUNCH_FROM_MPI;
    }
  }
  g_launch.pid = static_cast<int32_t>(getpid());
  if (g_launch.host[0] == '\0') {
    core::CopyName(g_launch.host, sizeof g_launch.host, root->hostname);
  }
  // A singleton is a job of its own: name it by where it runs.
  if (g_launch.launcher == MPIDBG_LAUNCHER_SINGLETON && g_launch.job_id[0] == '\0') {
    snprintf(g_launch.job_id, sizeof g_launch.job_id, "singleton:%s:%d", g_launch.host,
             static_cast<int>(g_launch.pid));
  }
  __atomic_store_n(&root->launch, AddressOf(&g_launch), __ATOMIC_RELEASE);
  __atomic_fetch_add(&root->generation, 1, __ATOMIC_RELEASE);
}

const char* LaunchJobId() { return g_launch.job_id; }

}  // namespace mpidbg::rt
