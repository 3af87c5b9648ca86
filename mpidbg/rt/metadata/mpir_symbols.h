/*
 * mpir_symbols.h — the MPIR debugger symbols this runtime defines in the MPI process
 * (MPIR Process Acquisition Interface 1.1, §9; Open MPI's extensions), see
 * mpir_symbols.c for which and why.
 *
 * The exported names (MPIR_being_debugged, MPIR_debug_gate, MPIR_dll_name,
 * mpimsgq_dll_locations, mpidbg_dll_locations, MPIR_debug_typedefs_sizeof) are aliases
 * of the hidden objects below. The runtime writes only through the hidden names, so
 * it never writes into another library's object of the same name when that one comes
 * first in the symbol lookup order (Open MPI's MPIR_dll_name is a 67-byte array).
 */
#ifndef MPIDBG_RT_MPIR_SYMBOLS_H
#define MPIDBG_RT_MPIR_SYMBOLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of MPIR_dll_name. */
#define MPIDBG_DLL_NAME_SIZE 1024

extern volatile int mpidbg_mpir_being_debugged;
extern volatile int mpidbg_mpir_debug_gate;
extern char mpidbg_mpir_dll_name[MPIDBG_DLL_NAME_SIZE];

/* After PMPI_Init: names our plugin again in mpimsgq_dll_locations and
 * mpidbg_dll_locations if the MPI library replaced the lists (Open MPI does when it
 * believes a debugger is attached). Returns 1 if it had to, else 0. */
int mpidbg_mpir_restore_locations(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MPIDBG_RT_MPIR_SYMBOLS_H */
