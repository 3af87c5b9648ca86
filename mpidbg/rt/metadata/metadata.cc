// metadata.cc — this area's MPI_Init/MPI_Finalize steps (rt/process/init_steps.h): launch
// info, MPI version, MPI_T catalogue, MPIR symbols, debug gate.
//
// Environment variables are read here and only here (before PMPI_Init), never on a
// per-call path: MPIDBG_MPIT, MPIDBG_DEBUG_GATE, MPIDBG_DEBUG_GATE_TIMEOUT,
// MPIDBG_DYNAMIC_EXCHANGE and the launchers' variables.
#include <mpi.h>

#include "rt/comms/dynamic_jobs.h"
#include "rt/process/debug_gate.h"
#include "rt/process/init_steps.h"
#include "rt/process/launch_info.h"
#include "rt/metadata/mpir_symbols.h"
#include "rt/metadata/mpit_catalogue.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {

void MetadataBeforeInit() {
  CaptureLaunchEnvironment();
  ReadDynamicSettings();
  ReadMpitSettings();
  ReadDebugGateSettings();
}

void MetadataAfterInit(int, int) {
  mpidbg_root* root = &mpidbg_runtime_root;
  int version = 0, subversion = 0;
  if (PMPI_Get_version(&version, &subversion) == MPI_SUCCESS) {
    root->mpi_version = version;
    root->mpi_subversion = subversion;
  }
  PublishLaunchInfo();
  mpidbg_mpir_restore_locations();
  CaptureMpitAtInit();
  // Last: everything a debugger may want to see while the process waits is in place.
  HoldAtDebugGate();
}

// The launch record and the catalogue are static or stay allocated: they remain
// readable after MPI_Finalize and in core files. MPI_T is not used from here on.
void MetadataBeforeFinalize() { StopMpitRefreshes(); }

}  // namespace mpidbg::rt
