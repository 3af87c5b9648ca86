// mpit_catalogue.h — the MPI_T catalogue (records.h: mpidbg_mpit_catalogue): control
// variables with their values, performance variables, categories; captured at MPI_Init
// and again by mpidbg_refresh_mpit() (runtime_api.h), published through root.mpit.
//
// MPI_T keeps a count of its users, so the runtime's PMPI_T_init_thread/PMPI_T_finalize
// do not disturb an application's own MPI_T use. With Open MPI the runtime holds MPI_T
// only for the length of a capture (an open MPI_T keeps every component loaded); with
// MPICH it keeps its first reference (MPICH 4.0.2 cannot initialise MPI_T again once its
// count has dropped to zero).
#ifndef MPIDBG_RT_MPIT_CATALOGUE_H
#define MPIDBG_RT_MPIT_CATALOGUE_H

namespace mpidbg::rt {

// Before PMPI_Init: reads MPIDBG_MPIT ("0": no capture at MPI_Init; the catalogue then
// appears with the first mpidbg_refresh_mpit()), and whether the application already
// has MPI_T open (Open MPI: then no control-variable values, see mpit_catalogue.cc).
void ReadMpitSettings();

// After PMPI_Init: the first capture, unless MPIDBG_MPIT=0.
void CaptureMpitAtInit();

// From MPI_Finalize on, mpidbg_refresh_mpit() refuses (returns -1): MPI_T after
// MPI_Finalize is allowed by the standard but not something to try inside a library
// that is shutting down. The last catalogue stays readable.
void StopMpitRefreshes();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MPIT_CATALOGUE_H
