// init_steps.h — what each area of the runtime does at MPI_Init and MPI_Finalize.
//
// hooks_init.cc calls these in the order listed; each area defines its own in its own
// file, so adding an area never means editing another's code.
#ifndef MPIDBG_RT_INIT_STEPS_H
#define MPIDBG_RT_INIT_STEPS_H

#include <stdint.h>

namespace mpidbg::rt {

// Before PMPI_Init/PMPI_Init_thread (nothing of MPI may be called).
void MetadataBeforeInit();                            // rt/metadata/metadata.cc

// After a successful PMPI_Init*, once the root's rank/size/thread level are set.
void ClockAfterInit();                                // rt/process/clock_keeper.cc (first)
void PredefinedObjectsAfterInit(int32_t world_rank);  // rt/objects/predefined_objects.cc
void DatatypesAfterInit();                            // rt/datatypes/datatype_registry.cc
void FlightAfterInit();                               // rt/hot/flight_ring.cc
void TrafficAfterInit();                              // rt/hot/traffic.cc
void MonitorAfterInit();                              // rt/monitor/monitor.cc (MPIDBG_MONITOR)
void MetadataAfterInit(int required, int provided);   // rt/metadata/metadata.cc
void MonitorMpitAfterInit();                          // rt/monitor/monitor_mpit.cc
void ProfileAfterInit();                              // rt/profile/profile.cc (MPIDBG_PROFILE; last)

// Before PMPI_Finalize (MPI still usable), in this order.
void MetadataBeforeFinalize();                        // rt/metadata/metadata.cc
void ProfileBeforeFinalize();                         // rt/profile/profile_report.cc
void MonitorBeforeFinalize();                         // rt/monitor/monitor_output.cc
void TrafficBeforeFinalize();                         // rt/hot/traffic.cc

// After PMPI_Finalize.
void ClockAfterFinalize();                            // rt/process/clock_keeper.cc

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_INIT_STEPS_H
