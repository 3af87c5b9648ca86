// monitor_output.cc — this area's MPI_Finalize step (rt/process/init_steps.h): when monitoring
// ever started here, a last read of the MPI's own monitoring through MPI_T, then the
// job's file when MPIDBG_MONITOR named one (output_path, set at MPI_Init on every rank
// alike, so every rank takes part in the collective write or none does).
#include <string.h>

#include "mpidbg/records.h"
#include "mpidbg/runtime_api.h"
#include "rt/process/init_steps.h"
#include "rt/monitor/monitor_mpit.h"
#include "rt/monitor/monitor_write.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

void MonitorBeforeFinalize() {
  uint64_t a = __atomic_load_n(&mpidbg_runtime_root.monitor, __ATOMIC_ACQUIRE);
  const auto* block = reinterpret_cast<const mpidbg_monitor*>(static_cast<uintptr_t>(a));
  if (block == nullptr) return;
  MonitorMpitFinalRead();
  if (block->output_path[0] != '\0') {
    char path[sizeof block->output_path + 1];
    memcpy(path, block->output_path, sizeof block->output_path);
    path[sizeof block->output_path] = '\0';
    WriteMonitorFile(path, MPIDBG_MONITOR_ACCUMULATED);
  }
}

}  // namespace mpidbg::rt
