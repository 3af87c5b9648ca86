// mpit_capture.h — reads the MPI_T catalogue into records.h arrays (cvars with values,
// pvars, categories with their members, one string pool). Index i of each array is
// MPI_T index i, so category members index the arrays directly; an index MPI_T
// reports as invalid (Open MPI has holes where variables were deregistered) keeps its
// slot with no name.
#ifndef MPIDBG_RT_MPIT_CAPTURE_H
#define MPIDBG_RT_MPIT_CAPTURE_H

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct MpitSnapshot {
  mpidbg_array cvars;       // mpidbg_mpit_cvar
  mpidbg_array pvars;       // mpidbg_mpit_pvar
  mpidbg_array categories;  // mpidbg_mpit_category
  mpidbg_array members;     // int32_t
  mpidbg_array strings;     // bytes; offset 0 is ""
};

// Enumerates the catalogue of an MPI_T the caller has initialised; control-variable
// values only with `read_values`. False (and nothing allocated) when memory ran out.
bool CaptureMpit(bool read_values, MpitSnapshot* out);

void FreeMpitSnapshot(const MpitSnapshot& snapshot);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MPIT_CAPTURE_H
