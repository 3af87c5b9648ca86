// hooks_init.cc — MPI_Init/Init_thread/Finalize, and calls recorded as thread state only.
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/record_write.h"
#include "rt/comms/comm_registry.h"
#include "rt/comms/dynamic_jobs.h"
#include "rt/handle_widening.h"
#include "rt/hot/hooks.h"
#include "rt/leaks/leak_report.h"
#include "rt/process/init_steps.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

int32_t ThreadLevel(int provided) {
  if (provided == MPI_THREAD_MULTIPLE) return MPIDBG_THREAD_MULTIPLE;
  if (provided == MPI_THREAD_SERIALIZED) return MPIDBG_THREAD_SERIALIZED;
  if (provided == MPI_THREAD_FUNNELED) return MPIDBG_THREAD_FUNNELED;
  return MPIDBG_THREAD_SINGLE;
}

// First line of the library version string, truncated to the root's field.
void RecordLibraryVersion(mpidbg_root* root) {
  static char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  version[0] = '\0';
  if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS) return;
  version[sizeof version - 1] = '\0';
  char* newline = strchr(version, '\n');
  if (newline != nullptr) *newline = '\0';
  // MPICH separates "MPICH Version:" from the number with a tab; one line of text reads
  // better with spaces in every host.
  for (char* c = version; *c != '\0'; ++c) {
    if (*c == '\t') *c = ' ';
  }
  core::CopyName(root->mpi_library, sizeof root->mpi_library, version);
}

void RecordHostname(mpidbg_root* root) {
  char host[256];
  if (gethostname(host, sizeof host) != 0) return;
  host[sizeof host - 1] = '\0';
  core::CopyName(root->hostname, sizeof root->hostname, host);
}

}  // namespace

void PreInit(CallScope&, InitArgs&) { MetadataBeforeInit(); }

void PostInit(CallScope&, InitArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  mpidbg_root* root = &mpidbg_runtime_root;
  int rank = -1, size = 0, provided = MPI_THREAD_SINGLE;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (args.provided != nullptr) {
    provided = *args.provided;
  } else {
    PMPI_Query_thread(&provided);
  }
  root->world_rank = rank;
  root->world_size = size;
  root->thread_level = ThreadLevel(provided);
  root->pid = static_cast<int32_t>(getpid());
  root->mpi_any_source = MPI_ANY_SOURCE;
  root->mpi_any_tag = MPI_ANY_TAG;
  root->mpi_proc_null = MPI_PROC_NULL;
  root->comm_world_handle = HandleToU64(MPI_COMM_WORLD);
  root->comm_self_handle = HandleToU64(MPI_COMM_SELF);
  RecordHostname(root);
  RecordLibraryVersion(root);
  root->thread_level_requested =
      args.required == kAbsent ? MPIDBG_THREAD_SINGLE : ThreadLevel(args.required);
  // First: the rest of the runtime's own set-up already stamps from the keeper.
  ClockAfterInit();
  ConfigureOrphans();
  RegisterPredefinedComms(rank);
  PredefinedObjectsAfterInit(rank);
  DatatypesAfterInit();
  FlightAfterInit();
  TrafficAfterInit();
  MonitorAfterInit();
  root->init_time_ns = core::RealtimeNs();
  __atomic_store_n(&root->process_state, MPIDBG_PROCESS_RUNNING, __ATOMIC_RELEASE);
  __atomic_fetch_add(&root->generation, 1, __ATOMIC_RELEASE);
  MetadataAfterInit(args.required == kAbsent ? MPI_THREAD_SINGLE : args.required, provided);
  // A spawned child meets its parent's exchange (rt/comms/dynamic_jobs.h) here: it needs
  // the launch info just published, and the parent waits in MPI_Comm_spawn for it.
  PublishParentAtInit();
  MonitorMpitAfterInit();
  // Last: the samples then begin once the runtime's own set-up (MPI_T capture) is done.
  ProfileAfterInit();
}

void PreFinalize(CallScope&, FinalizeArgs&) {
  // First: the program's objects and requests as it left them.
  LeaksBeforeFinalize();
  MetadataBeforeFinalize();
  ProfileBeforeFinalize();
  MonitorBeforeFinalize();
  TrafficBeforeFinalize();
  ReleaseWorldGroup();
}

void PostFinalize(CallScope&, FinalizeArgs&, int) {
  ClockAfterFinalize();
  __atomic_store_n(&mpidbg_runtime_root.process_state, MPIDBG_PROCESS_FINALIZED,
                   __ATOMIC_RELEASE);
  __atomic_fetch_add(&mpidbg_runtime_root.generation, 1, __ATOMIC_RELEASE);
}

}  // namespace mpidbg::rt
