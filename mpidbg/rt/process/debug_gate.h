// debug_gate.h — the opt-in hold in MPI_Init until a debugger sets MPIR_debug_gate.
//
// MPIDBG_DEBUG_GATE=1: after PMPI_Init has succeeded and every record of the process
// exists (rank, communicators, launch info, MPI_T catalogue), MPI_Init does not return
// until MPIR_debug_gate is nonzero. root.debug_gate_hold is 1 meanwhile, and a line on
// stderr names rank, pid and host. The gate is polled every 10 ms (nanosleep).
// MPIDBG_DEBUG_GATE_TIMEOUT=<seconds> (a decimal number, > 0): give up after that long
// without a debugger and continue, saying so on stderr. The time does not run while
// MPIR_being_debugged is nonzero: an attached debugger is never raced.
// Any other value of MPIDBG_DEBUG_GATE (or none): no hold.
#ifndef MPIDBG_RT_DEBUG_GATE_H
#define MPIDBG_RT_DEBUG_GATE_H

namespace mpidbg::rt {

// Before PMPI_Init: reads MPIDBG_DEBUG_GATE and MPIDBG_DEBUG_GATE_TIMEOUT.
void ReadDebugGateSettings();

// At the end of MPI_Init: holds while the gate is closed (if enabled).
void HoldAtDebugGate();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_DEBUG_GATE_H
