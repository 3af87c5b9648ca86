// job_file_name.cc — see job_file_name.h.
#include "rt/report/job_file_name.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpidbg/records.h"
#include "rt/process/launch_info.h"
#include "rt/process/registry.h"
#include "rt/report/job_id_text.h"

namespace mpidbg::rt {

void JobFileName(const char* what, char* out, size_t size) {
  if (__atomic_load_n(&mpidbg_runtime_root.launch, __ATOMIC_ACQUIRE) == 0) {
    PublishLaunchInfo();  // idempotent; MPI_Init's metadata step publishes it again
  }
  const uint64_t address = __atomic_load_n(&mpidbg_runtime_root.launch, __ATOMIC_ACQUIRE);
  char job[sizeof(mpidbg_launch_info::job_id) + 1] = "";
  if (address != 0) {
    const auto* launch = reinterpret_cast<const mpidbg_launch_info*>(static_cast<uintptr_t>(address));
    memcpy(job, launch->job_id, sizeof launch->job_id);
    job[sizeof launch->job_id] = '\0';
  }
  char safe[160];
  if (job[0] != '\0') {
    SanitiseJobId(job, safe, sizeof safe);
  } else {
    snprintf(safe, sizeof safe, "%d", static_cast<int>(getpid()));
  }
  snprintf(out, size, "mpidbg-%s.%s.json", what, safe);
}

}  // namespace mpidbg::rt
